import { beforeAll, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { compilePatterns } from '../../src/domain/unfurl-links.js';
import type { SimTicket } from '../../src/sim/model.js';
import { SEED_PASSWORD } from '../../src/sim/state.js';
import { keepTicketRecord } from '../../src/store/ticket-records.js';
import { type BotFixture, eventually, people, useBot } from '../helpers/bot.js';

/*
 * Link unfurls end to end: a person's message in the Slack double, the `link_shared` event Slack would
 * send for it (signed HTTP, or a Socket Mode envelope) into the real Bolt receiver, the simulator read
 * over loopback, and the double's record of `chat.unfurl` under the message.
 */

const patterns = compilePatterns({ ticket: '^http://127\\.0\\.0\\.1:\\d+/desk/tickets/(\\d+)' });

const ticketOf = (f: BotFixture, ref: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === ref) as SimTicket;
const linkTo = (f: BotFixture, t: SimTicket) => `${f.platform.sim.url}/desk/tickets/${t.id}`;

/** A person posts `text` in C1; Slack's link_shared for it goes to the bot. */
async function paste(f: BotFixture, user: string, text: string): Promise<SlackMessage> {
  const message = f.slack.postAsUser(user, 'C1', text);
  const event = f.slack.linkShared(message);
  if (!event) throw new Error('no link of the unfurl domains in the message');
  const res = await f.event(event);
  expect(res.status).toBe(200);
  return message;
}

/** The platform's reads of one ticket since `from`. */
const readsOf = (f: BotFixture, t: SimTicket, from: number) =>
  f.platform.sim.requests
    .slice(from)
    .filter((r) => r.method === 'GET' && r.path === `/api/v3/tickets/${t.id}`).length;

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('link unfurls over HTTP', () => {
  const f = {} as BotFixture;
  useBot(f, { unfurlPatterns: patterns });
  // The simulator's links are on loopback: the app's unfurl domains, for this test.
  beforeAll(() => {
    f.slack.unfurlDomains = ['127.0.0.1'];
    // A fifth person with an account in Level 1 (with admin, alice, bob and carol).
    f.platform.sim.state.addUser({
      enterpriseId: 1,
      username: 'dan',
      password: SEED_PASSWORD,
      email: 'dan@acme.example',
      cellPhone: undefined,
      firstName: 'Dan',
      lastName: 'Moreau',
      role: 'agent',
      groups: [...f.platform.sim.state.users.values()].find((u) => u.username === 'alice')?.groups ?? [],
    });
    f.slack.addUser({ id: 'UCAROL', email: 'carol@acme.example', tz: 'UTC' });
    f.slack.addUser({ id: 'UDAN', email: 'dan@acme.example', tz: 'UTC' });
  });

  it('unfurls a pasted ticket link under the message, and leaves the one its poster may not see plain', async () => {
    const mine = ticketOf(f, 'ACME-1001');
    const theirs = ticketOf(f, 'ACME-1004');
    const message = await paste(f, people.alice.id, `look at ${linkTo(f, mine)} and ${linkTo(f, theirs)}`);
    const unfurls = await eventually(() => message.unfurls);
    expect(Object.keys(unfurls)).toEqual([linkTo(f, mine)]);
    const card = JSON.stringify(unfurls[linkTo(f, mine)]);
    expect(card).toContain('ACME-1001 — Router does not boot');
    expect(card).toContain('"action_id":"ticket_refresh"');
    expect(card).not.toContain('jane.doe@example.com');
    expect(f.slack.callsOf('chat.unfurl')).toHaveLength(1);
  });

  it('a click on the unfurl’s Refresh goes through the real receiver and unfurls it again', async () => {
    const t = ticketOf(f, 'ACME-1001');
    const url = linkTo(f, t);
    const message = f.slack.messages.find((m) => m.unfurls?.[url]) as SlackMessage;
    f.platform.sim.state.setTicketState(t, 'open', 'agent');
    const before = f.slack.callsOf('chat.unfurl').length;
    const res = await f.interact({
      type: 'block_actions',
      user: { id: people.bob.id },
      team: { id: f.slack.teamId },
      api_app_id: 'A1',
      token: 'legacy',
      trigger_id: 'trigger-unfurl',
      response_url: f.slack.responseUrl(),
      channel: { id: 'C1' },
      container: {
        type: 'message_attachment',
        channel_id: 'C1',
        message_ts: message.ts,
        attachment_id: 1,
        is_ephemeral: false,
        is_app_unfurl: true,
        app_unfurl_url: url,
      },
      actions: [
        { type: 'button', action_id: 'ticket_refresh', block_id: 'b', value: String(t.id), action_ts: '1' },
      ],
    });
    expect(res.status).toBe(200);
    await eventually(() => f.slack.callsOf('chat.unfurl').length > before);
    expect(JSON.stringify(message.unfurls?.[url])).toContain('*open*');
    // The poster's message itself was not edited.
    expect(message.edited).toBeUndefined();
  });

  it('leaves a link plain, and the channel untold, when its poster has no platform account', async () => {
    const t = ticketOf(f, 'ACME-1002');
    const calls = f.slack.callsOf('chat.unfurl').length;
    const posts = f.slack.callsOf('chat.postMessage').length + f.slack.callsOf('chat.postEphemeral').length;
    const message = await paste(f, people.nobody.id, `see ${linkTo(f, t)}`);
    await settle();
    expect(message.unfurls).toBeUndefined();
    expect(f.slack.callsOf('chat.unfurl')).toHaveLength(calls);
    expect(f.slack.callsOf('chat.postMessage').length + f.slack.callsOf('chat.postEphemeral').length).toBe(
      posts,
    );
  });

  it('a burst of one link (50 pastes by 5 people) costs one read of the ticket; a kept ticket costs none', async () => {
    const five = [people.admin.id, people.alice.id, people.bob.id, 'UCAROL', 'UDAN'];
    const t = ticketOf(f, 'ACME-1006');
    const from = f.platform.sim.requests.length;
    const messages = await Promise.all(
      Array.from({ length: 50 }, (_, i) => paste(f, five[i % 5] as string, `#${i} ${linkTo(f, t)}`)),
    );
    // A Level 1 ticket: the admin and Level 1's members see it unfurled, Carol (Level 2) does not.
    const seeing = messages.filter((m) => m.user !== 'UCAROL');
    await eventually(() => seeing.every((m) => m.unfurls), 15_000);
    expect(seeing).toHaveLength(40);
    await settle();
    expect(messages.filter((m) => m.user === 'UCAROL' && m.unfurls)).toEqual([]);
    expect(readsOf(f, t, from)).toBe(1);

    // Another ticket whose record the bot keeps (as the webhooks and the scans keep it): no read.
    const kept = ticketOf(f, 'ACME-1003');
    await keepTicketRecord(f.store, await f.platform.client.getTicket({ ticketId: String(kept.id) }));
    const after = f.platform.sim.requests.length;
    const m = await paste(f, people.alice.id, linkTo(f, kept));
    await eventually(() => m.unfurls);
    expect(readsOf(f, kept, after)).toBe(0);
  });

  it('unfurls a conference’s join link to a participant, with no pattern configured for it', async () => {
    const conf = [...f.platform.sim.state.conferences.values()].find((c) => c.name === 'Weekly support sync');
    const url = `${f.platform.sim.url}/join/${conf?.roomName}`;
    const m = await paste(f, people.bob.id, `join us: ${url}`);
    const unfurls = await eventually(() => m.unfurls);
    const card = JSON.stringify(unfurls[url]);
    expect(card).toContain('Weekly support sync');
    expect(card).toContain('"action_id":"conference_join"');
    expect(card).not.toContain('alice@acme.example');
  });
});

describe('link unfurls in Socket Mode', () => {
  const g = {} as BotFixture;
  useBot(g, { socket: true, unfurlPatterns: patterns });
  beforeAll(() => {
    g.slack.unfurlDomains = ['127.0.0.1'];
  });

  it('unfurls a pasted ticket link from a link_shared envelope', async () => {
    const t = ticketOf(g, 'ACME-1002');
    const message = await paste(g, people.bob.id, `ticket ${linkTo(g, t)}`);
    const unfurls = await eventually(() => message.unfurls);
    expect(JSON.stringify(unfurls[linkTo(g, t)])).toContain('ACME-1002 — Boiler error E42');
  });
});
