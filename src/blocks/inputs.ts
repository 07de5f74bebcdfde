import type {
  InputBlock,
  InputBlockElement,
  NumberInput,
  PlainTextInput,
  PlainTextOption,
} from '@slack/types';
import { plain } from './kit.js';
import { limits } from './limits.js';
import { clipPlain } from './mrkdwn.js';

/** Builders of the form inputs both modals use; every input's element answers under action id `value`. */

export const option = (value: string, label: string): PlainTextOption => ({
  text: plain(label, limits.optionText),
  value,
});

export const input = (
  blockId: string,
  label: string,
  element: InputBlockElement,
  extra: { optional?: boolean; hint?: string } = {},
): InputBlock => ({
  type: 'input',
  block_id: blockId,
  label: plain(label, limits.inputLabel),
  element: { action_id: 'value', ...element },
  optional: extra.optional ?? true,
  ...(extra.hint ? { hint: plain(extra.hint, limits.hint) } : {}),
});

/** A text input, prefilled when there is something to show (Slack takes up to 3,000 characters). */
export const textInput = (
  initial: string | number | undefined,
  extra: Omit<PlainTextInput, 'type'> = {},
): PlainTextInput => ({
  type: 'plain_text_input',
  ...(initial !== undefined && initial !== '' ? { initial_value: clipPlain(String(initial), 3000) } : {}),
  ...extra,
});

export const numberInput = (initial: number | undefined, min: number, max?: number): NumberInput => ({
  type: 'number_input',
  is_decimal_allowed: false,
  min_value: String(min),
  ...(max !== undefined ? { max_value: String(max) } : {}),
  ...(initial !== undefined ? { initial_value: String(initial) } : {}),
});
