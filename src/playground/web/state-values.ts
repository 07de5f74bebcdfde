/**
 * A view's `state.values` as Slack sends it with block_actions and view_submission: every stateful
 * element's current value, keyed by block_id then action_id, starting from the element's initial
 * value and then what the person changed. https://api.slack.com/reference/interaction-payloads/views
 */
import type { Json } from './api.js';

/** One element's state (`{type, value}`, `{type, selected_option}`…), as Slack shapes it. */
export type ElementState = { type: string } & Json;
export type StateValues = Record<string, Record<string, ElementState>>;

/** The elements that hold a value; buttons, overflow menus and images do not. */
const stateful = new Set([
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
  'static_select',
  'external_select',
  'users_select',
  'multi_users_select',
  'multi_static_select',
  'conversations_select',
  'multi_conversations_select',
  'channels_select',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'checkboxes',
  'radio_buttons',
]);

/** The state of an element nobody touched: its `initial_…` value, or Slack's empty one (null / []). */
export function initialState(element: Json): ElementState | undefined {
  const type = String(element.type);
  if (!stateful.has(type)) return undefined;
  const init = (key: string) => element[key] ?? null;
  switch (type) {
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: init('initial_option') };
    case 'multi_static_select':
    case 'checkboxes':
      return { type, selected_options: (element.initial_options as unknown[] | undefined) ?? [] };
    case 'users_select':
      return { type, selected_user: init('initial_user') };
    case 'multi_users_select':
      return { type, selected_users: (element.initial_users as unknown[] | undefined) ?? [] };
    case 'conversations_select':
      return { type, selected_conversation: init('initial_conversation') };
    case 'multi_conversations_select':
      return { type, selected_conversations: (element.initial_conversations as unknown[] | undefined) ?? [] };
    case 'channels_select':
      return { type, selected_channel: init('initial_channel') };
    case 'datepicker':
      return { type, selected_date: init('initial_date') };
    case 'timepicker':
      return { type, selected_time: init('initial_time') };
    case 'datetimepicker':
      return { type, selected_date_time: init('initial_date_time') };
    default:
      return { type, value: init('initial_value') };
  }
}

/** The block id Slack gives a block the bot left without one (stable across renders of the view). */
export function blockIdOf(block: Json, index: number): string {
  return typeof block.block_id === 'string' ? block.block_id : `block-${index}`;
}

/** The stateful elements of a block: an input's element, an actions block's, a section's accessory. */
export function elementsOf(block: Json): Json[] {
  if (block.type === 'input' && block.element) return [block.element as Json];
  if (block.type === 'actions') return (block.elements as Json[] | undefined) ?? [];
  if (block.type === 'section' && block.accessory) return [block.accessory as Json];
  return [];
}

/**
 * The `state.values` of a view's blocks: each stateful element's initial state, replaced by the
 * person's change when there is one. Changes of elements no longer in the view are dropped, as
 * Slack drops them when `views.update` removes a block.
 */
export function stateValues(blocks: Json[], changes: StateValues): StateValues {
  const values: StateValues = {};
  blocks.forEach((block, index) => {
    const blockId = blockIdOf(block, index);
    for (const element of elementsOf(block)) {
      const initial = initialState(element);
      if (!initial || typeof element.action_id !== 'string') continue;
      const changed = changes[blockId]?.[element.action_id];
      values[blockId] = {
        ...values[blockId],
        [element.action_id]: changed?.type === initial.type ? changed : initial,
      };
    }
  });
  return values;
}
