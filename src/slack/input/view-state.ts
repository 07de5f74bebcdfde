import { z } from 'zod';
import { noChoice } from '../../blocks/options.js';
import { tPlain } from '../../blocks/text.js';
import type { MessageKey } from '../../i18n/catalog.js';
import type { Locale } from '../../i18n/locale.js';

/** The parts of a submitted view's state the forms use (Slack's `view.state.values`). */
const element = z.looseObject({
  value: z.string().nullish(),
  selected_users: z.array(z.string()).nullish(),
  selected_user: z.string().nullish(),
  selected_conversation: z.string().nullish(),
  selected_date_time: z.number().nullish(),
  selected_time: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  selected_options: z.array(z.looseObject({ value: z.string() })).nullish(),
});
const stateValues = z.record(z.string(), z.record(z.string(), element));

/** Typed reads of a view's state, by block id (each form's inputs use the action id `value`). */
export function viewState(raw: unknown) {
  const parsed = stateValues.safeParse(raw);
  const state = parsed.success ? parsed.data : {};
  // Inputs answer under action id `value`, except the type-ahead menus, whose action id names the
  // list the options handler serves: a block holds one element either way.
  const get = (blockId: string) => {
    const block = state[blockId];
    return block?.value ?? (block ? Object.values(block)[0] : undefined);
  };
  const str = (blockId: string) => get(blockId)?.value?.trim() || undefined;
  return {
    get,
    str,
    int: (blockId: string) => {
      const v = str(blockId);
      return v === undefined ? undefined : Number(v);
    },
    /** A text input holding a list: split on commas, semicolons and new lines. */
    list: (blockId: string) =>
      (str(blockId) ?? '')
        .split(/[\n,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    date: (blockId: string) => {
      const dt = get(blockId)?.selected_date_time;
      return typeof dt === 'number' ? new Date(dt * 1000) : undefined;
    },
    chosen: (blockId: string) => new Set((get(blockId)?.selected_options ?? []).map((o) => o.value)),
    option: (blockId: string) => {
      const value = get(blockId)?.selected_option?.value;
      // The type-ahead's "nothing to pick, because…" line is no choice.
      return value === noChoice ? undefined : value;
    },
    time: (blockId: string) => get(blockId)?.selected_time ?? undefined,
    conversation: (blockId: string) => get(blockId)?.selected_conversation ?? undefined,
  };
}

/** The schema problems a form can show, by their English (capitalised), and their catalog message. */
const knownProblems = [
  'common.problem.length2to255',
  'common.problem.max300',
  'common.problem.max255',
  'common.problem.pin',
  'common.problem.minutes',
  'common.problem.wholeMinutes',
  'common.problem.atLeastOneMinute',
  'common.problem.oneToSixtyMinutes',
  'common.problem.serviceKey',
  'common.problem.email',
  'common.problem.phone',
  'common.problem.numericId',
] as const satisfies readonly MessageKey[];
const keyOfProblem = new Map<string, MessageKey>(knownProblems.map((k) => [tPlain('en', k), k]));
/** The participants' problems, which name the value typed. */
const valueProblems: readonly [RegExp, MessageKey][] = [
  [/^"(.*)" is not a valid e-mail$/s, 'common.problem.notEmail'],
  [
    /^"(.*)" is neither an e-mail nor an international phone number \(\+33612345678\)$/s,
    'common.problem.neither',
  ],
];

/**
 * The first problem a schema finds in a value, capitalised for an inline error, in `locale` (a known
 * one through the catalog; another one in English as the schema says it, or French's "not valid");
 * undefined when valid.
 */
export function problemOf(schema: z.ZodType, value: unknown, locale: Locale): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  const raw = r.error.issues[0]?.message ?? 'is not valid';
  const message = raw.charAt(0).toUpperCase() + raw.slice(1);
  const key = keyOfProblem.get(message);
  if (key) return tPlain(locale, key);
  for (const [pattern, k] of valueProblems) {
    const m = pattern.exec(message);
    if (m) return tPlain(locale, k, { value: m[1] ?? '' });
  }
  return locale === 'en' ? message : tPlain(locale, 'common.problem.invalid');
}
