import { describe, expect, it } from 'vitest';
import { checkSlackBody } from '../../../src/slack/runtime/receiver-guard.js';

/*
 * The receiver's check keeps only what Bolt and the listeners read: every other field Slack sends
 * (today's and tomorrow's) passes, at every depth; a field they read, missing or of the wrong kind,
 * is named.
 */
const click = {
  type: 'block_actions',
  user: { id: 'U1', username: 'ada', team_id: 'T1', new_field: { deep: [1, 2] } },
  team: { id: 'T1', domain: 'acme', enterprise: null },
  api_app_id: 'A1',
  trigger_id: 't1',
  response_url: 'https://hooks.slack.test/r/1',
  channel: { id: 'C1', name: 'desk' },
  container: { type: 'message', channel_id: 'C1', message_ts: '1.1', is_ephemeral: false },
  message: { ts: '1.1', blocks: [{ type: 'section' }] },
  state: { values: { b: { a: { type: 'plain_text_input', value: 'x' } } } },
  actions: [
    { type: 'button', action_id: 'ticket_refresh', block_id: 'b', value: '7', text: { type: 'plain_text' } },
  ],
  something_new: { from: 'Slack, next year' },
};
const command = {
  command: '/conference',
  text: 'tomorrow 3pm',
  user_id: 'U1',
  channel_id: 'C1',
  team_id: 'T1',
  trigger_id: 't',
  response_url: 'https://hooks.slack.test/c/1',
  is_enterprise_install: 'false',
  api_app_id: 'A1',
};

describe('the receiver’s check of a signed body', () => {
  it('lets through every field it does not read, at every depth', () => {
    expect(checkSlackBody(click)).toBeUndefined();
    expect(checkSlackBody(command)).toBeUndefined();
    expect(checkSlackBody({ ...command, extra: ['a', { b: 1 }] })).toBeUndefined();
  });

  it('names a field Bolt or a listener reads that is missing or of the wrong kind', () => {
    expect(checkSlackBody({ ...command, user_id: '' })).toMatch(/^user_id: /);
    expect(checkSlackBody({ ...command, command: 'conference' })).toMatch(/^command: /);
    expect(checkSlackBody({ ...click, user: { name: 'no id' } })).toMatch(/^user\.id: /);
    expect(checkSlackBody({ ...click, actions: [{ value: 'no action id' }] })).toMatch(
      /^actions\.0\.action_id: /,
    );
    expect(checkSlackBody({ ...click, actions: [] })).toMatch(/^actions: /);
    expect(checkSlackBody({ ...click, channel: null })).toMatch(/^channel: /);
    expect(checkSlackBody(null)).toBe('the body is null, not an object');
    expect(checkSlackBody({ hello: 1 })).toMatch(/not a kind of request Slack sends/);
  });
});
