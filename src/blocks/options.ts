import type { PlainTextOption } from '@slack/types';
import { option } from './inputs.js';
import { limits } from './limits.js';

/** One choice of a type-ahead menu: the platform id it stands for and what the person reads. */
export interface OptionChoice {
  id: string;
  label: string;
}

/**
 * The value of the one option that says why there is nothing to pick (Slack has no disabled
 * option): the form readers take it as no choice (`slack/input/view-state.ts`).
 */
export const noChoice = '-';

/**
 * What a type-ahead shows instead of choices: one option reading `why` (clipped to Slack's 75
 * characters), whose value `noChoice` the forms ignore.
 */
export function buildOptionsNotice(why: string): { options: PlainTextOption[] } {
  return { options: [option(noChoice, why)] };
}

/**
 * The answer to a type-ahead (`block_suggestion`) request: at most Slack's 100 options, each label
 * plain text clipped to 75 characters (the names come from the platform: plain text shows them
 * as typed, never as a mention or a link). Ids longer than Slack's 75-character value are left out
 * rather than cut (a cut id would name someone else).
 */
export function buildOptions(choices: readonly OptionChoice[]): { options: PlainTextOption[] } {
  return {
    options: choices
      .filter((c) => c.id.length <= limits.optionValue)
      .slice(0, limits.selectOptions)
      .map((c) => option(c.id, c.label)),
  };
}
