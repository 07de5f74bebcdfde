import { type TextMessage, textMessage } from '../../blocks/kit.js';
import { type Mrkdwn, md } from '../../blocks/mrkdwn.js';
import { type Phrase, t } from '../../blocks/text.js';
import type { Locale } from '../../i18n/locale.js';

/** A wait for the platform's rate budget longer than this is told to the person, with how long. */
export const slowMs = 3_000;

/**
 * What is being done ("Creating the conference"): a catalog `Phrase` (written in the person's
 * language), or an English string of a surface not translated yet.
 */
export type WorkingAction = string | Phrase;

const actionIn = (locale: Locale, action: WorkingAction): Mrkdwn =>
  typeof action === 'string' ? md`${action}` : t(locale, action.key, action.values);

/**
 * "Working…" in `locale`, and how long the platform's rate budget will make the request wait when
 * that is noticeable.
 */
export function workingText(locale: Locale, action: WorkingAction, waitMs: number): Mrkdwn {
  const doing = actionIn(locale, action);
  if (waitMs < slowMs) return t(locale, 'working.quick', { action: doing });
  const seconds = Math.ceil(waitMs / 1000);
  return seconds < 90
    ? t(locale, 'working.slowSeconds', { action: doing, seconds })
    : t(locale, 'working.slowMinutes', { action: doing, minutes: Math.round(seconds / 60) });
}

/**
 * For a door that answers later without a "Working…" of its own (a button): when the rate budget
 * will hold the request noticeably, says so privately first, with how long, in the person's language
 * (`locale`: asked only then), so nobody waits in silence. Best effort: a failure to say it must not
 * stop the work.
 */
export async function tellIfSlow(
  respond: (
    message: { response_type: 'ephemeral'; replace_original: false } & TextMessage,
  ) => Promise<unknown>,
  action: WorkingAction,
  waitMs: number,
  locale: Locale | (() => Promise<Locale>),
): Promise<void> {
  if (waitMs < slowMs) return;
  const language = typeof locale === 'function' ? await locale() : locale;
  await respond({
    response_type: 'ephemeral',
    replace_original: false,
    ...textMessage(workingText(language, action, waitMs)),
  }).catch(() => undefined);
}
