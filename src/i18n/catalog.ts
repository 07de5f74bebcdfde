import { IntlMessageFormat } from 'intl-messageformat';
import { en, type MessageKey } from './en.js';
import { fr } from './fr.js';
import type { Locale } from './locale.js';

/*
 * The catalogs, compiled once per (locale, key). Each text is one whole ICU message
 * (https://unicode-org.github.io/icu/userguide/format_parse/messages/): plurals and variables
 * inside it, never a sentence built from pieces. Tags (`<b>`) are off: a `<` is a character.
 */

export type { MessageKey } from './en.js';

/** Every catalog, by locale: French has exactly English's keys (its type says so). */
export const catalogs: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = { en, fr };

/** The keys of the catalogs, in the English catalog's order. */
export const messageKeys = Object.keys(en) as MessageKey[];

/** What a message's variables may be: text, numbers (plurals, formatted for the locale), dates. */
export type MessageValue = string | number | Date;

const compiled = new Map<string, IntlMessageFormat>();

/**
 * A message compiled for `locale`, its source first passed through `source` (the caller's escaping:
 * blocks/ escapes Slack's control characters in the bot's own text before ICU reads it).
 */
export function compileMessage(
  locale: Locale,
  key: MessageKey,
  source: (text: string) => string = (s) => s,
  cacheTag = '',
): IntlMessageFormat {
  const id = `${cacheTag}\0${locale}\0${key}`;
  let m = compiled.get(id);
  if (!m) {
    m = new IntlMessageFormat(source(catalogs[locale][key]), locale, undefined, { ignoreTag: true });
    compiled.set(id, m);
  }
  return m;
}

/** A message as plain text (button labels, modal titles, `plain_text`): nothing escaped. */
export function formatPlain(locale: Locale, key: MessageKey, values?: Record<string, MessageValue>): string {
  return String(compileMessage(locale, key).format(values));
}
