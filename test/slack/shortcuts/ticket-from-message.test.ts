import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import type { TicketFormDeps } from '../../../src/slack/deps.js';
import { handleTicketFromMessage } from '../../../src/slack/shortcuts/ticket-from-message.js';
import {
  eventually,
  type FakeSlack,
  fakeSlack,
  notUsed,
  recorder,
  services,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

type Args = Parameters<ReturnType<typeof handleTicketFromMessage>>[0];

/**
 * "Create assistance ticket" on a message: acked at once, a working modal, then the ticket form with
 * the message as its description and a link back to it.
 */
const platform = usePlatform();

function shortcut(user: string, slack: FakeSlack) {
  const deps: TicketFormDeps = {
    ...services(platform.client, slack),
    store: notUsed('store'),
    subscriptions: notUsed('subscriptions'),
    publisher: notUsed('publisher'),
  };
  const ack = recorder();
  const args = {
    ack: ack.fn,
    shortcut: {
      type: 'message_action',
      callback_id: ids.shortcuts.ticketFromMessage,
      trigger_id: 'T-1',
      user: { id: user },
      channel: { id: 'C1' },
      message_ts: '1.000002',
      message: { text: 'The router in room 4 keeps rebooting' },
      response_url: 'https://hooks.slack.test/shortcut',
    },
    client: slack.client,
  } as unknown as Args;
  return { deps, ack, args };
}

describe('the Create assistance ticket shortcut', () => {
  it('opens the form with the message and its link as the description, the agent being the person', async () => {
    const slack = fakeSlack({ 'chat.getPermalink': () => ({ permalink: 'https://acme.slack.test/p1' }) });
    const { deps, ack, args } = shortcut(people.alice.id, slack);
    await handleTicketFromMessage(deps)(args);
    expect(ack.given).toEqual([undefined]);
    await eventually(() => expect(slack.callsOf('views.update')).toHaveLength(1));
    expect(slack.callsOf('chat.getPermalink')).toEqual([{ channel: 'C1', message_ts: '1.000002' }]);
    expect(slack.callsOf('views.open')[0]).toMatchObject({ trigger_id: 'T-1' });
    const form = JSON.stringify(slack.callsOf('views.update')[0]);
    expect(form).toContain(ids.views.ticketForm);
    expect(form).toContain(
      'The router in room 4 keeps rebooting\\n\\nFrom Slack: https://acme.slack.test/p1',
    );
    expect(form).toContain('Alice Martin');
  });

  it('still opens the form when the link cannot be had, and a person without an account gets the refusal', async () => {
    const slack = fakeSlack({
      'chat.getPermalink': () => {
        throw new Error('channel_not_found');
      },
    });
    const { deps, args } = shortcut(people.nobody.id, slack);
    await handleTicketFromMessage(deps)(args);
    await eventually(() => expect(slack.callsOf('views.update')).toHaveLength(1));
    const shown = JSON.stringify(slack.callsOf('views.update')[0]);
    expect(shown).toContain('nobody@example.com');
    expect(shown).not.toContain(ids.views.ticketForm);
  });
});
