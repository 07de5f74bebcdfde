import { describe, expect, it } from 'vitest';
import { initialState, stateValues } from '../../src/playground/web/state-values.js';

const option = (value: string) => ({ text: { type: 'plain_text', text: value }, value });
const input = (block_id: string, element: Record<string, unknown>) => ({
  type: 'input',
  block_id,
  label: { type: 'plain_text', text: block_id },
  element: { action_id: 'value', ...element },
});

describe('a view’s state.values built by the page', () => {
  it('starts from each element’s initial value, or Slack’s empty value', () => {
    expect(initialState({ type: 'plain_text_input', initial_value: 'hi' })).toEqual({
      type: 'plain_text_input',
      value: 'hi',
    });
    expect(initialState({ type: 'plain_text_input' })).toEqual({ type: 'plain_text_input', value: null });
    expect(initialState({ type: 'number_input', initial_value: '30' })).toEqual({
      type: 'number_input',
      value: '30',
    });
    expect(initialState({ type: 'static_select', initial_option: option('en') })).toEqual({
      type: 'static_select',
      selected_option: option('en'),
    });
    expect(initialState({ type: 'checkboxes' })).toEqual({ type: 'checkboxes', selected_options: [] });
    expect(initialState({ type: 'multi_users_select', initial_users: ['UALICE'] })).toEqual({
      type: 'multi_users_select',
      selected_users: ['UALICE'],
    });
    expect(initialState({ type: 'users_select' })).toEqual({ type: 'users_select', selected_user: null });
    expect(initialState({ type: 'conversations_select', initial_conversation: 'C1' })).toEqual({
      type: 'conversations_select',
      selected_conversation: 'C1',
    });
    expect(initialState({ type: 'datetimepicker', initial_date_time: 1806138000 })).toEqual({
      type: 'datetimepicker',
      selected_date_time: 1806138000,
    });
    expect(initialState({ type: 'timepicker', initial_time: '09:00' })).toEqual({
      type: 'timepicker',
      selected_time: '09:00',
    });
    expect(initialState({ type: 'datepicker' })).toEqual({ type: 'datepicker', selected_date: null });
    expect(initialState({ type: 'radio_buttons' })).toEqual({ type: 'radio_buttons', selected_option: null });
    expect(initialState({ type: 'button' })).toBeUndefined();
    expect(initialState({ type: 'overflow' })).toBeUndefined();
  });

  it('keys values by block_id then action_id, with what the person changed over the initial values', () => {
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: 'hello' } },
      input('name', { type: 'plain_text_input', initial_value: 'Weekly' }),
      input('duration', { type: 'number_input' }),
      input('options', { type: 'checkboxes', options: [option('a'), option('b')] }),
      {
        type: 'actions',
        block_id: 'tools',
        elements: [
          { type: 'button', action_id: 'go' },
          { type: 'datepicker', action_id: 'day' },
        ],
      },
    ];
    const values = stateValues(blocks, {
      duration: { value: { type: 'number_input', value: '45' } },
      options: { value: { type: 'checkboxes', selected_options: [option('b')] } },
      gone: { value: { type: 'plain_text_input', value: 'a block no longer in the view' } },
    });
    expect(values).toEqual({
      name: { value: { type: 'plain_text_input', value: 'Weekly' } },
      duration: { value: { type: 'number_input', value: '45' } },
      options: { value: { type: 'checkboxes', selected_options: [option('b')] } },
      tools: { day: { type: 'datepicker', selected_date: null } },
    });
  });

  it('keeps a typed value when views.update keeps the block, and drops it when the element changed kind', () => {
    const before = [input('name', { type: 'plain_text_input', initial_value: 'A' })];
    const typed = { name: { value: { type: 'plain_text_input', value: 'typed' } } };
    const updated = [input('name', { type: 'plain_text_input', initial_value: 'B' })];
    expect(stateValues(before, typed).name?.value).toEqual({ type: 'plain_text_input', value: 'typed' });
    expect(stateValues(updated, typed).name?.value).toEqual({ type: 'plain_text_input', value: 'typed' });
    const changedKind = [input('name', { type: 'static_select', options: [option('x')] })];
    expect(stateValues(changedKind, typed).name?.value).toEqual({
      type: 'static_select',
      selected_option: null,
    });
  });
});
