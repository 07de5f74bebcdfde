import { checkBlockKit, type Surface } from '../../blocks/limits.js';

/** What the bot sent that Slack would refuse or show wrong, by method (`SlackDouble.violations`): each fails the test. */
type Violations = { method: string; problems: string[] }[];

/** Checks a payload against Block Kit limits, recording any violation. */
export function checkBlocks(
  violations: Violations,
  method: string,
  payload: unknown,
  surface: Surface,
): boolean {
  const problems = checkBlockKit(payload, surface);
  if (problems.length) violations.push({ method, problems });
  return problems.length === 0;
}

/** Records the live tokens the bot did not write in a payload's texts (see `strayTokens`). */
export function checkTexts(violations: Violations, method: string, payload: unknown): void {
  const problems = mrkdwnTexts(payload).flatMap((text) =>
    strayTokens(text).map((t) => `unescaped ${JSON.stringify(t)} in ${JSON.stringify(text.slice(0, 200))}`),
  );
  if (problems.length) violations.push({ method, problems });
}

/** The surface a view is checked as: an App Home, or a modal. */
export const viewSurface = (view: unknown): Surface =>
  (view as { type?: string } | undefined)?.type === 'home' ? 'home' : 'modal';

/**
 * The tokens the bot writes itself: mentions, channel links, date tokens, user-group mentions and
 * links to http(s), mailto: and tel:. https://api.slack.com/reference/surfaces/formatting#advanced
 */
const botToken =
  /^<(?:@[UW][A-Z0-9]+(?:\|[^<>|]*)?|#[CG][A-Z0-9]+(?:\|[^<>|]*)?|!date\^\d+\^[^<>|]*(?:\^[^<>|]+)?\|[^<>|]*|!subteam\^S[A-Z0-9]+(?:\|[^<>|]*)?|(?:https?:\/\/|mailto:|tel:)[^<>|\s]+(?:\|[^<>|]*)?)>/;

/**
 * Every `<…` in a mrkdwn text that is not one of the bot's own tokens: `<!channel>`, `<!here>`,
 * `<!everyone>`, a mention or link that came from outside unescaped, a bare `<`.
 */
export function strayTokens(text: string): string[] {
  const found: string[] = [];
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    const rest = text.slice(i, i + 4_000);
    if (!botToken.test(rest) || /^<!(?:channel|here|everyone)\b/.test(rest))
      found.push(/^<[^<>]{0,80}>?/.exec(rest)?.[0] ?? '<');
  }
  return found;
}

/** A message's or view's texts Slack reads as mrkdwn: the message text and every mrkdwn text object. */
export function mrkdwnTexts(payload: unknown): string[] {
  const texts: string[] = [];
  const walk = (v: unknown, top: boolean): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, false);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string' && (top || o.type === 'mrkdwn')) texts.push(o.text);
      for (const [k, x] of Object.entries(o)) if (k !== 'text' || typeof x !== 'string') walk(x, false);
    }
  };
  walk(payload, true);
  return texts;
}
