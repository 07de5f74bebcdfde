/** A private reply that adds a message (a click's or a command's), leaving the original in place. */
export const ephemeral = (text: string) => ({
  response_type: 'ephemeral' as const,
  replace_original: false as const,
  text,
});
