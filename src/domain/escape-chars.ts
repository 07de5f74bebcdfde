/**
 * Escapes the three characters Slack's mrkdwn reads as control characters (`&`, `<`, `>`), so that
 * outside text shows literally. https://api.slack.com/reference/surfaces/formatting#escaping
 *
 * The one implementation: src/blocks/mrkdwn.ts builds `md` on it, and the services use it for the
 * values in the sentences their errors carry (`userMessage`), which must not import src/blocks.
 */
export const escapeChars = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
