import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { noChoice } from '../../src/blocks/options.js';
import { buildTicketEditForm, buildTicketForm } from '../../src/blocks/ticket-form.js';
import { readTicketForm } from '../../src/slack/views/read-ticket-form.js';

/** The ticket forms' type-ahead menus (issue 22): how they are built and how their values are read. */

const picked = (value: string) => ({
  type: 'external_select',
  selected_option: { value, text: { type: 'plain_text', text: 'x' } },
});
const base = {
  channel: { value: { type: 'conversations_select', selected_conversation: 'C1' } },
  emails: { value: { type: 'plain_text_input', value: 'jane.doe@example.com' } },
};

describe('the ticket forms’ agent and group menus', () => {
  it('are type-ahead menus on the options handler’s action ids, prefilled under their known labels', () => {
    const form = buildTicketForm({
      locale: 'en',
      values: { emails: [], phones: [], scopes: [], agent: '7', groupId: '3' },
      choices: { users: [{ id: '7', name: 'Ada Admin (admin)' }], groups: [{ id: '3', name: 'Level 1' }] },
      metadata: '',
    });
    const element = (blockId: string) =>
      (
        form.blocks.find((b) => 'block_id' in b && b.block_id === blockId) as unknown as {
          element: Record<string, unknown>;
        }
      ).element;
    expect(element('agent')).toMatchObject({
      type: 'external_select',
      action_id: ids.options.agents,
      min_query_length: 0,
      initial_option: { value: '7', text: { text: 'Ada Admin (admin)' } },
    });
    expect(element('groupId')).toMatchObject({
      type: 'external_select',
      action_id: ids.options.groups,
      initial_option: { value: '3', text: { text: 'Level 1' } },
    });
    const edit = buildTicketEditForm({
      locale: 'en',
      values: { agent: '9' },
      choices: { users: [], groups: [] },
      metadata: '',
    });
    const agent = edit.blocks.find((b) => 'block_id' in b && b.block_id === 'agent') as unknown as {
      element: Record<string, unknown>;
    };
    // A prefilled id without a known label still shows (under its id) rather than vanish.
    expect(agent.element).toMatchObject({
      action_id: ids.options.agents,
      initial_option: { value: '9', text: { text: '#9' } },
    });
  });

  it('are read from their own action ids, and the "why nothing" line is no choice', () => {
    const read = readTicketForm(
      {
        ...base,
        agent: { [ids.options.agents]: picked('1042') },
        groupId: { [ids.options.groups]: picked(noChoice) },
      },
      'en',
    );
    expect(read.ok).toBe(true);
    expect(read.values.agent).toBe('1042');
    expect(read.values.groupId).toBeUndefined();
  });
});
