/** Every Slack id the bot uses (commands, action ids, callback ids), in one place. */
export const ids = {
  commands: { conference: '/conference', ticket: '/ticket' },
} as const;
