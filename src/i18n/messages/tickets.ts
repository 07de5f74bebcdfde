/*
 * Ticket cards, their thread lines, prompts, reactions' answers and the channels' subscriptions (channel language for what a channel sees, the person's for ephemeral answers).
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {};
