import { slackDate } from '../domain/time.js';
import type { Locale } from '../i18n/locale.js';
import { en as common, fr as commonFr } from '../i18n/messages/common.js';

/*
 * Slack mrkdwn the bot can vouch for. Slack reads `&`, `<` and `>` as control characters: a `<!channel>`
 * or `<https://x|y>` inside a ticket's subject becomes a real @channel or a live link unless it is
 * escaped. https://api.slack.com/reference/surfaces/formatting#escaping
 *
 * `Mrkdwn` is a value, not a string, so that the `md` template can tell at run time what is already
 * safe (passed through) from what came from outside (escaped): a branded string would look the same
 * as any other string there. The Block Kit primitives (kit.ts) take only `Mrkdwn`, so a builder
 * cannot put a raw string in a mrkdwn text: it is a type error. They turn it into a `MrkdwnText`, the
 * finished string that goes into Slack's JSON.
 */

const key = Symbol('mrkdwn');

/** Mrkdwn known to be safe: what the bot wrote itself, every outside value in it escaped. */
export class Mrkdwn {
  /** The mrkdwn source, ready to send. */
  readonly text: string;
  /** Only this module makes them (`key` is not exported): everything else goes through `md`/`escaped`. */
  constructor(text: string, k: typeof key) {
    if (k !== key) throw new TypeError('Mrkdwn is made with md`…`, escaped() or the token constructors');
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

declare const textBrand: unique symbol;
/** A finished mrkdwn string (clipped, from a `Mrkdwn`): what goes in a message's `text` and in text objects. */
export type MrkdwnText = string & { readonly [textBrand]: true };

const trust = (text: string) => new Mrkdwn(text, key);

/** The empty text, for joins and optional parts. */
export const empty = trust('');

/**
 * Escapes the three characters Slack's mrkdwn reads as control characters (`&`, `<`, `>`), so that
 * text shows literally. https://api.slack.com/reference/surfaces/formatting#escaping
 */
const escapeChars = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Outside text made safe for mrkdwn: Slack's three control characters escaped, and NUL dropped (Slack
 * refuses or cuts a text at a NUL, and no person means one).
 */
export const escapeOutside = (s: string): string => escapeChars(s.replace(/\0/g, ''));

/** Outside text (from a person or the platform) as mrkdwn that shows it literally. */
export const escaped = (value: string | number): Mrkdwn => trust(escapeOutside(String(value)));

/**
 * What `md` interpolates: `Mrkdwn` passes through, strings and numbers are escaped. A finished
 * `MrkdwnText` is refused by the types (it would be escaped twice).
 */
export type MdValue = Mrkdwn | number | (string & { readonly [textBrand]?: never });

/**
 * md`*${subject}* by ${mention(id)}`: every plain string escaped, every `Mrkdwn` kept as it is. The
 * template's own text is escaped too (a `<id>` in a help text, a `&`): the bot's live tokens come
 * only from the constructors below, never from literal text.
 */
export function md(strings: TemplateStringsArray, ...values: MdValue[]): Mrkdwn {
  let out = escapeChars(strings[0] ?? '');
  for (const [i, v] of values.entries())
    out += (v instanceof Mrkdwn ? v.text : escapeOutside(String(v))) + escapeChars(strings[i + 1] ?? '');
  return trust(out);
}

/** Joins mrkdwn parts (plain strings among them are escaped). */
export function joinMd(parts: readonly MdValue[], separator: MdValue = empty): Mrkdwn {
  const sep = separator instanceof Mrkdwn ? separator.text : escapeOutside(String(separator));
  return trust(parts.map((p) => (p instanceof Mrkdwn ? p.text : escapeOutside(String(p)))).join(sep));
}

/**
 * Mrkdwn from a message of the bot's catalogs (`t` in blocks/text.ts): `render` gets the escaping of
 * the message's own text (applied to its source before ICU reads it, as `md` escapes its template)
 * and that of a variable (`Mrkdwn` kept, anything else escaped as outside text, as in `md`).
 */
export const fromMessage = (
  render: (own: (s: string) => string, value: (v: MdValue) => string) => string,
): Mrkdwn => trust(render(escapeChars, (v) => (v instanceof Mrkdwn ? v.text : escapeOutside(String(v)))));

/** A live mention of a Slack user (`<@U…>`); an id that is not one is shown as text. */
export const mention = (userId: string): Mrkdwn =>
  /^[UW][A-Z0-9]{2,30}$/.test(userId) ? trust(`<@${userId}>`) : escaped(userId);

/** A live link to a channel (`<#C…>`); an id that is not one is shown as text. */
export const channelLink = (channelId: string): Mrkdwn =>
  /^[CGD][A-Z0-9]{1,30}$/.test(channelId) ? trust(`<#${channelId}>`) : escaped(channelId);

/** "unknown time", from the catalog (this module is below `text.ts`, so it reads the message itself). */
const unknownTime: Record<Locale, string> = { en: common['date.unknown'], fr: commonFr['date.unknown'] };

/**
 * A date token every viewer sees in their own zone (see `slackDate`); `format` is the bot's own.
 * Not a date: "unknown time" in `locale`.
 */
export const date = (locale: Locale, value: Date, format?: string): Mrkdwn =>
  Number.isNaN(value.getTime()) ? escaped(unknownTime[locale]) : trust(slackDate(value, format));

/**
 * A live link with a label; a URL that is not http(s) is not linked (only the label is shown). The
 * characters that would end Slack's `<url|label>` early are percent-encoded.
 */
export function link(url: string, label: string): Mrkdwn {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return escaped(label);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return escaped(label);
  const href = parsed.href.replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
  return trust(`<${href}|${escapeOutside(label.replace(/[|]/g, '¦'))}>`);
}

/**
 * Cuts mrkdwn to `max` characters, marking the cut with an ellipsis, never inside an escape
 * (`&amp;`), a token (`<@U…>`, `<https://…|…>`) or a surrogate pair: the cut moves before it.
 */
export function clipMd(m: Mrkdwn, max: number): Mrkdwn {
  if (m.text.length <= max) return m;
  let s = m.text.slice(0, Math.max(0, max - 1));
  // In escaped mrkdwn every `<` opens a token of the bot's and every `&` starts an entity.
  const open = s.lastIndexOf('<');
  if (open > s.lastIndexOf('>')) s = s.slice(0, open);
  const amp = s.lastIndexOf('&');
  if (amp >= 0 && !s.slice(amp).includes(';')) s = s.slice(0, amp);
  if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, -1);
  return trust(`${s}…`);
}

/**
 * Plain (unparsed) text cut to `max` characters without splitting a surrogate pair, marking the cut
 * with an ellipsis; NUL is dropped (see `escapeOutside`).
 */
export function clipPlain(raw: string, max: number): string {
  const text = raw.replace(/\0/g, '');
  if (text.length <= max) return text;
  let s = text.slice(0, Math.max(0, max - 1));
  if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, -1);
  return `${s}…`;
}

/** The finished string of some mrkdwn, clipped to `max`. */
export const finish = (m: Mrkdwn, max: number): MrkdwnText => clipMd(m, max).text as MrkdwnText;
