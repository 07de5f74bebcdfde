import { compileMessage, formatPlain, type MessageKey, type MessageValue } from '../i18n/catalog.js';
import type { Locale } from '../i18n/locale.js';
import { date, fromMessage, type MdValue, Mrkdwn } from './mrkdwn.js';

/*
 * The catalogs' messages as the builders use them. `t` gives mrkdwn: the message's own text is
 * escaped like md`…`'s template, each outside value like md`…`'s values (`Mrkdwn` passes through),
 * numbers stay numbers for ICU's plurals and are written for the locale. `tPlain` gives plain text
 * (buttons, titles), which Slack does not parse.
 */

/** What `t` fills a message's variables with: mrkdwn, outside text (escaped), numbers, dates. */
export type TValue = MdValue | Date;

/** A catalog message in `locale` as mrkdwn, its variables filled with `values`. */
export function t(locale: Locale, key: MessageKey, values?: Readonly<Record<string, TValue>>): Mrkdwn {
  return fromMessage((own, value) => {
    const filled: Record<string, MessageValue> = {};
    for (const [name, v] of Object.entries(values ?? {}))
      filled[name] = typeof v === 'number' || v instanceof Date ? v : value(v);
    return String(compileMessage(locale, key, own, 'mrkdwn').format(filled));
  });
}

/** A catalog message in `locale` as plain text (a button's label, a modal's title): nothing escaped. */
export const tPlain = (
  locale: Locale,
  key: MessageKey,
  values?: Readonly<Record<string, string | number>>,
): string => formatPlain(locale, key, values);

/**
 * A catalog message not yet written in a language: what a service says (a `ConfdeskError`'s sentence)
 * before the surface that shows it knows whose language it is.
 */
export interface Phrase {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, TValue>> | undefined;
}

/** A `Phrase` of `key` with `values`. */
export const phrase = (key: MessageKey, values?: Readonly<Record<string, TValue>>): Phrase => ({
  key,
  values,
});

/** `said` in `locale`: a `Phrase` written there, mrkdwn already written (in English) as it is. */
export const sayIn = (locale: Locale, said: Phrase | Mrkdwn): Mrkdwn =>
  said instanceof Mrkdwn ? said : t(locale, said.key, said.values);

/** A Slack date token with its time (`{date_short_pretty} at {time}`), its words `locale`'s. */
export const dateAt = (locale: Locale, at: Date): Mrkdwn => date(locale, at, tPlain(locale, 'common.dateAt'));
