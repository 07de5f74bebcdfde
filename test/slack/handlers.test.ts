import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { Reply } from '../../src/blocks/kit.js';
import { type Confdesk, createConfdesk } from '../../src/confdesk.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createLogger } from '../../src/observability/logger.js';
import type { SimTicket } from '../../src/sim/model.js';
import {
  handleTicketJoin,
  handleTicketMove,
  handleTicketRefresh,
} from '../../src/slack/actions/ticket-card.js';
import { handleTicketMenu } from '../../src/slack/actions/ticket-menu.js';
import { handleTicketUnsubscribe } from '../../src/slack/actions/ticket-unsubscribe.js';
import { handleMemberJoinedChannel } from '../../src/slack/events/member-joined-channel.js';
import type { Click } from '../../src/slack/runtime/action-routes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { botNow, people } from '../helpers/bot.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/**
 * The listeners as functions: each exported handler called with the real services (the platform
 * simulator in-process, a temporary store, the Slack double's Web API for what the publisher writes)
 * and a click or a Bolt argument object made here. No Bolt receiver, no HTTP request, no signing:
 * what each handler decides, in milliseconds. (Through the real receiver: the *.e2e tests.)
 */
let platform: PlatformFixture;
let slack: SlackDouble;
let store: Store;
let dir: string;
let confdesk: Confdesk;

beforeAll(async () => {
  platform = await startPlatform();
  slack = await new SlackDouble().start();
  for (const p of Object.values(people))
    slack.addUser({ id: p.id, tz: p.tz, ...(p.email ? { email: p.email } : {}) });
  dir = mkdtempSync(join(tmpdir(), 'confdesk-handlers-'));
  store = await openStore({ dataDir: dir });
  confdesk = createConfdesk({
    slack: { botToken: 'xoxb-handlers', signingSecret: 'unused', apiUrl: slack.apiUrl, port: 0 },
    platform: platform.client,
    store,
    logger: createLogger('silent'),
    now: () => botNow,
  });
});
afterAll(async () => {
  await store.close();
  await slack.stop();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const ticket = (reference: string) =>
  [...platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;

/** A click as the router hands it to a handler; `replies` collects what the handler answered. */
function click(user: string, actionId: string, value: string, place: { channel: string; ts: string }) {
  const replies: Reply[] = [];
  const c: Click = {
    user,
    team: 'T1',
    actionId,
    value,
    channel: place.channel,
    container: { channel: place.channel, ts: place.ts, isEphemeral: false },
    triggerId: 'trigger',
    surface: 'message',
    responseUrl: `${slack.url}/response/handlers`,
    client: new WebClient('xoxb-handlers', { slackApiUrl: slack.apiUrl }),
    respond: async (r) => {
      replies.push(r as Reply);
    },
    log: createLogger('silent'),
  };
  return { c, replies };
}

/** Posts a ticket's card as `/ticket show` does; answers where. */
async function card(reference: string, channel: string) {
  const summary = await confdesk.deps.tickets.forAction(people.admin.id, reference, 'ticket.see');
  const ts = await confdesk.deps.publisher.postCard(channel, summary);
  return { channel, ts, id: String(ticket(reference).id) };
}

describe('the ticket card’s handlers', () => {
  it('Join gives the agent the links privately, and refuses a person without an account', async () => {
    const place = await card('ACME-1001', 'CH1');
    const ok = click(people.alice.id, ids.actions.ticketJoin, place.id, place);
    await handleTicketJoin(confdesk.deps)(ok.c);
    expect(ok.replies).toHaveLength(1);
    expect(ok.replies[0]).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(JSON.stringify(ok.replies[0])).toContain('/assist/');

    const outsider = click(people.nobody.id, ids.actions.ticketJoin, place.id, place);
    await expect(handleTicketJoin(confdesk.deps)(outsider.c)).rejects.toMatchObject({
      code: 'no_platform_account',
    });
    expect(outsider.replies).toHaveLength(0);
  });

  it('a move changes the ticket, updates its card and queues one line naming the person', async () => {
    const place = await card('ACME-1003', 'CH2');
    const t = ticket('ACME-1003');
    t.state = 'open';
    const before = slack.callsOf('chat.update').length;
    const { c } = click(people.alice.id, `${ids.actions.ticketMove}:start`, place.id, place);
    await handleTicketMove(confdesk.deps)(c);
    expect(ticket('ACME-1003').state).toBe('inprogress');
    const update = slack
      .callsOf('chat.update')
      .slice(before)
      .find((u) => u.args.ts === place.ts);
    expect(String(update?.args.text)).toContain('inprogress');
    const lines = (await store.outboxOf(place.id)).filter((i) => i.payload.line === 'moved');
    expect(lines).toEqual([
      expect.objectContaining({
        channel: 'CH2',
        payload: expect.objectContaining({ actor: people.alice.id }),
      }),
    ]);
  });

  it('a move the person may not make changes nothing', async () => {
    const place = await card('ACME-1001', 'CH3');
    const state = ticket('ACME-1001').state;
    const { c } = click(people.nobody.id, `${ids.actions.ticketMove}:done`, place.id, place);
    await expect(handleTicketMove(confdesk.deps)(c)).rejects.toBeTruthy();
    expect(ticket('ACME-1001').state).toBe(state);
  });

  it('Refresh shows the ticket as it is now; a forged card place acts on the card’s own ticket', async () => {
    const place = await card('ACME-1001', 'CH4');
    ticket('ACME-1001').subject = 'Router boots again';
    // The value names another ticket: the card's record wins.
    const other = String(ticket('ACME-1003').id);
    const { c } = click(people.alice.id, ids.actions.ticketRefresh, other, place);
    await handleTicketRefresh(confdesk.deps)(c);
    const update = slack.callsOf('chat.update').findLast((u) => u.args.ts === place.ts);
    expect(JSON.stringify(update?.args.blocks)).toContain('Router boots again');
  });

  it('the Delete prompt escapes what the platform wrote in the reference', async () => {
    const place = await card('ACME-1001', 'CH5');
    const t = ticket('ACME-1001');
    t.reference = 'INJ-<!here>-1';
    try {
      const menu = click(people.admin.id, ids.actions.ticketMenu, `delete:${place.id}`, place);
      await handleTicketMenu({ ...confdesk.deps })(menu.c);
      const prompt = JSON.stringify(menu.replies);
      expect(prompt).toContain('INJ-&lt;!here&gt;-1');
      expect(prompt).not.toContain('<!here>');
    } finally {
      t.reference = 'ACME-1001';
    }
  });
});

describe('the subscriptions’ and events’ handlers', () => {
  it('Remove refuses a subscription of another channel as out of date, and removes one of this channel', async () => {
    await store.addSubscription({
      id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      channel: 'CSUB',
      kind: 'watch',
      ticketId: '1',
      filter: {},
      createdBy: people.admin.id,
    });
    const elsewhere = click(
      people.admin.id,
      `${ids.actions.ticketUnsubscribe}:7c9e6679`,
      '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      {
        channel: 'COTHER',
        ts: '1.1',
      },
    );
    await expect(handleTicketUnsubscribe(confdesk.deps)(elsewhere.c)).rejects.toMatchObject({
      code: 'stale_button',
    });
    const here = click(
      people.admin.id,
      `${ids.actions.ticketUnsubscribe}:7c9e6679`,
      '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      {
        channel: 'CSUB',
        ts: '1.1',
      },
    );
    await handleTicketUnsubscribe(confdesk.deps)(here.c);
    expect(await store.subscriptionsOf('CSUB')).toEqual([]);
    expect(JSON.stringify(here.replies[0])).toContain('nothing yet');
  });

  it('member_joined_channel acts only when the bot itself joined', async () => {
    const calls: string[] = [];
    const deps = {
      logger: createLogger('silent'),
      subscriptions: {
        backInChannel: async (channel: string) => {
          calls.push(channel);
          return 0;
        },
      } as unknown as Confdesk['deps']['subscriptions'],
    };
    const handler = handleMemberJoinedChannel(deps);
    const args = (user: string) =>
      ({ event: { user, channel: 'CBACK' }, context: { botUserId: 'UBOT' } }) as unknown as Parameters<
        typeof handler
      >[0];
    await handler(args(people.alice.id));
    expect(calls).toEqual([]);
    await handler(args('UBOT'));
    expect(calls).toEqual(['CBACK']);
  });
});
