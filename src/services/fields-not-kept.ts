import type { Mrkdwn } from '../blocks/mrkdwn.js';
import { t, tPlain } from '../blocks/text.js';
import { en, type MessageKey } from '../i18n/en.js';
import type { Locale } from '../i18n/locale.js';
/**
 * The fields of a create the platform did not keep: several create parameters are guesses
 * (platform-facts.md, "Not published"), and a platform that ignores an unknown parameter answers
 * 200 all the same. After a create, each field sent is read back from the record the platform
 * answered. Careful not to cry wolf: a field the record does not carry is unknown, not dropped; only
 * a field present with another value (or empty where text was sent) counts.
 */

/** How a sent value is compared with the value read back. */
export type Compare = 'id' | 'code' | 'text' | 'number' | 'time' | 'person';

export interface SentField {
  /** The parameter's name in the endpoint table's input (for `findings.dropped` and the doctor). */
  param: string;
  /** What the person calls it ("group", "start time"). */
  label: string;
  sent: unknown;
  /** Where the record carries it: a path of keys. */
  at: string[];
  compare: Compare;
}

/** Marks a field the record does not carry at all. */
const absent = Symbol('absent');

function read(record: unknown, path: string[]): unknown {
  let v: unknown = record;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !(key in v)) return absent;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const squash = (v: unknown) => String(v).trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether the value read back is the value sent, as the platform may write it. */
function same(sent: unknown, kept: unknown, compare: Compare): boolean {
  if (blank(kept)) return false;
  switch (compare) {
    case 'id':
      return String(sent) === String(kept);
    case 'number':
      return Number(sent) === Number(kept);
    case 'time': {
      const a = sent instanceof Date ? sent.getTime() : Date.parse(String(sent));
      const b = kept instanceof Date ? kept.getTime() : Date.parse(String(kept));
      // The platform writes times to the second.
      return Number.isFinite(b) && Math.abs(a - b) < 1_000;
    }
    case 'code': {
      // `fr` kept as `fr_FR` or `FR` is kept.
      const [a, b] = [squash(sent), squash(kept)].map((s) => s.replace(/[-_]/g, '_'));
      return a === b || (b as string).startsWith(`${a}_`) || (a as string).startsWith(`${b}_`);
    }
    case 'person': {
      if (typeof kept !== 'object' || kept === null) return String(kept) === String(sent);
      const p = kept as Record<string, unknown>;
      return [p.id, p.username, p.email].some(
        (v) => v !== undefined && v !== null && String(v) === String(sent),
      );
    }
    case 'text':
      // Text the platform reformats (trims, escapes, cuts) is still kept: only an empty one is not.
      return true;
  }
}

/** The fields sent that the record shows the platform did not keep. */
export function notKept(record: unknown, fields: SentField[]): SentField[] {
  return fields.filter((f) => {
    if (blank(f.sent)) return false;
    const kept = read(record, f.at);
    return kept !== absent && !same(f.sent, kept, f.compare);
  });
}

/**
 * Whether the record shows every field sent, as sent: then an answer to a create is the ticket as the
 * platform keeps it, and reading it again would tell nothing more.
 */
export function shownAsSent(record: unknown, fields: SentField[]): boolean {
  return fields.every((f) => {
    if (blank(f.sent)) return true;
    const kept = read(record, f.at);
    return kept !== absent && same(f.sent, kept, f.compare);
  });
}

/** The sentence for the person's confirmation, or undefined when everything was kept (or unknown). */
export function notKeptNotice(locale: Locale, labels: string[]): Mrkdwn | undefined {
  if (!labels.length) return undefined;
  const named = [...new Set(labels)].map((label) => {
    const key = `common.field.${label.replace(/ (\w)/g, (_, c: string) => c.toUpperCase())}`;
    return key in en ? tPlain(locale, key as MessageKey) : label;
  });
  return t(locale, 'common.notKept', { fields: named.join(', '), count: labels.length });
}

/** The wire names of fields not kept, as `findings.dropped` records them (the endpoint table's `wire`). */
export function wireNames(fields: SentField[], wire: Record<string, string> | undefined): string[] {
  return fields.map((f) => wire?.[f.param] ?? f.param);
}
