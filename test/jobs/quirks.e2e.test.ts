import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { buildTicketCard } from '../../src/blocks/ticket-card.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { summarizeTicket } from '../../src/domain/ticket.js';
import { eventMetadataType } from '../../src/jobs/delivery.js';
import { ticketJoinLinks } from '../../src/platform/join-links.js';
import type { SimTicket } from '../../src/sim/model.js';
import { allQuirks, type SimQuirks } from '../../src/sim/server.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';

/*
 * The bot end to end against a simulator with every quirk on (`allQuirks`, issue 12): `[]` for empty
 * objects, the enterprise id as `enterpriseId`, pages capped below the limit asked, join links under
 * names confdesk does not try first, `orderby` ignored (the poller falls back to a safe scan), only
 * the X-RateLimit-Reset header.
 */
const shapes: SimQuirks = allQuirks;

const f = {} as BotFixture;
useBot(f, { sim: { quirks: shapes }, pollIntervalMs: 200 });

type Json = Record<string, unknown>;
const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;
const replyTo = (responseUrl: string) =>
  eventually(() => f.slack.responses.find((r) => r.path === new URL(responseUrl).pathname)?.body);
const cardIn = (channel: string, reference: string) =>
  eventually(() =>
    f.slack.messages.find(
      (m) => m.channel === channel && !m.thread_ts && String(m.text).startsWith(reference),
    ),
  );
const eventPosts = (channel: string, eventName: string) =>
  f.slack.messages.filter(
    (m) =>
      m.channel === channel &&
      (m.metadata as { event_type?: string } | undefined)?.event_type === eventMetadataType &&
      String(m.text).includes(`*${eventName}*`),
  );

describe('identity and permissions when /users/me says enterpriseId and user pages are capped', () => {
  it('lets an agent list their group’s tickets, and finds the enterprise id where it is', async () => {
    const cmd = await f.command('list group Level 1', people.alice.id, 'CQ1', '/ticket');
    const page = JSON.stringify((await replyTo(cmd.responseUrl)).blocks);
    expect(page).toContain('ACME-1001');
    expect(f.platform.client.findings.snapshot().enterpriseIdField).toBe('enterpriseId');
  });

  it('does not refuse a person who is on the second page of the enterprise’s users', async () => {
    const state = f.platform.sim.state;
    const level1 = [...state.groups.values()].find((g) => g.name === 'Level 1');
    const filler = { password: 'x', cellPhone: undefined, firstName: 'Filler', role: 'agent' } as const;
    for (let i = 0; i < 25; i++)
      state.addUser({
        ...filler,
        enterpriseId: 1,
        username: `q${i}`,
        email: `q${i}@acme.example`,
        lastName: `${i}`,
      });
    // Created through the API, as an admin would: the client's cached user pages are dropped.
    const { id } = await f.platform.client.createUser({
      username: 'zoe',
      password: 'x',
      email: 'zoe@acme.example',
      firstName: 'Zoe',
    });
    const zoe = state.users.get(Number(id));
    if (!zoe || !level1) throw new Error('zoe and Level 1 exist');
    zoe.groups = [level1.id];
    expect(state.liveUsers(1).indexOf(zoe)).toBeGreaterThanOrEqual(20);
    f.slack.addUser({ id: 'UZOE', tz: 'UTC', email: 'zoe@acme.example' });
    const cmd = await f.command('list group Level 1', 'UZOE', 'CQ1', '/ticket');
    const reply = await replyTo(cmd.responseUrl);
    expect(JSON.stringify(reply)).not.toContain('only its members');
    expect(JSON.stringify(reply.blocks)).toContain('ACME-1001');
    expect(f.platform.client.findings.learnedPageCap).toBe(20);
  });
});

describe('the ticket card with an empty requestor and join links under unknown names', () => {
  it('shows the card, a Join button, and gives the links privately on a click', async () => {
    const state = f.platform.sim.state;
    const admin = [...state.users.values()].find((u) => u.username === 'admin');
    if (!admin) throw new Error('seeded admin');
    state.createTicket(admin, {
      reference: 'QUIRK-1',
      subject: 'Nobody asked',
      emails: [],
      phones: [],
      invite: false,
    });
    await f.command('show QUIRK-1', people.admin.id, 'CQ2', '/ticket');
    const card = await cardIn('CQ2', 'QUIRK-1');
    const json = JSON.stringify(card.blocks);
    expect(json).toContain('_unknown_'); // the requestor, sent as []
    expect(json).toContain(`"action_id":"${ids.actions.ticketJoin}"`);
    expect(json).not.toContain('/assist/');
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: ids.actions.ticketJoin,
        value: String(ticket('QUIRK-1').id),
        channel: 'CQ2',
        ts: card.ts,
      }),
    );
    const links = await eventually(() =>
      f.slack.responses.find((r) => JSON.stringify(r.body.blocks ?? '').includes('/assist/')),
    );
    expect(links.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const id = ticket('QUIRK-1').id;
    expect(JSON.stringify(links.body.blocks)).toContain(`/assist/${id}/agent`);
    expect(JSON.stringify(links.body.blocks)).toContain(`/assist/${id}/guest`);
    expect(f.platform.client.findings.snapshot().joinLinkFields).toMatchObject({
      'ticket.agent': 'links.agent',
      'ticket.guest': 'links.guest',
    });
  });

  it('offers no Join when the record carries no link', () => {
    const record = { id: 9, state: 'open', links: [], url: 'not a link' } as never;
    const card = buildTicketCard('en', summarizeTicket(record, new Map(), ticketJoinLinks(record)));
    expect(JSON.stringify(card.blocks)).not.toContain(ids.actions.ticketJoin);
  });

  it('gives a conference’s joinLink privately on a Join click', async () => {
    const conf = [...f.platform.sim.state.conferences.values()].find((c) => c.name === 'Weekly support sync');
    const shown = await f.command(`show ${conf?.id}`, people.admin.id, 'CQ3');
    const details = (await replyTo(shown.responseUrl)) as Json;
    const join = (details.blocks as Json[])
      .flatMap((b) => [
        ...((b.elements as Json[] | undefined) ?? []),
        ...(b.accessory ? [b.accessory as Json] : []),
      ])
      .find((e) => e.action_id === ids.actions.conferenceJoin);
    expect(join).toBeDefined();
    expect(JSON.stringify(details)).not.toContain('/join/');
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: ids.actions.conferenceJoin,
        value: String(join?.value),
        channel: 'CQ3',
        ephemeral: true,
      }),
    );
    const link = await eventually(() =>
      f.slack.responses.find((r) => JSON.stringify(r.body.blocks ?? '').includes(`/join/${conf?.roomName}`)),
    );
    expect(link.body).toMatchObject({ response_type: 'ephemeral' });
    expect(f.platform.client.findings.snapshot().joinLinkFields.conference).toBe('joinLink');
  });
});

describe('ticket events whose data is []', () => {
  it('reach the card’s thread, and the thread keeps moving after them', async () => {
    const t = ticket('ACME-1003');
    await f.command('watch ACME-1003', people.admin.id, 'CQ4', '/ticket');
    const card = await eventually(async () => f.store.find(String(t.id), 'CQ4'));
    f.platform.sim.state.addEvent(t, 'quirk.emptyData', 'system'); // data {} → [] on the wire
    f.platform.sim.state.changed(t, 'update');
    const first = await eventually(() => eventPosts('CQ4', 'quirk.emptyData').at(0), 10_000);
    expect(first.thread_ts).toBe(card.ts);
    f.platform.sim.state.addEvent(t, 'quirk.after', 'agent');
    f.platform.sim.state.changed(t, 'update');
    const second = await eventually(() => eventPosts('CQ4', 'quirk.after').at(0), 10_000);
    expect(second.thread_ts).toBe(card.ts);
    expect(eventPosts('CQ4', 'quirk.emptyData')).toHaveLength(1);
  });
});

describe('the digest when the report’s sections are []', () => {
  it('renders the day’s report without crashing', async () => {
    const r = await f.command('digest now', people.admin.id, 'CQ5');
    const reply = await replyTo(r.responseUrl);
    const blocks = JSON.stringify(reply.blocks);
    expect(blocks).toContain('Daily digest');
    expect(blocks).toContain('*Tickets created*: 0');
    expect(blocks).not.toContain('did not give the tickets report');
    // The simulator did write the sections as [] (nothing that day).
    const report = f.platform.sim.requests.find((q) => q.path.endsWith('/tickets/report'));
    expect(report?.status).toBe(200);
  });
});

describe('platform webhooks whose props are []', () => {
  const w = {} as BotFixture;
  useBot(w, { sim: { quirks: shapes }, pollIntervalMs: 3_600_000, webhookSecret: 'quirky-hook' });
  const post = (body: unknown) =>
    fetch(`${w.url}/webhooks/platform`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-secret': 'quirky-hook' },
      body: JSON.stringify(body),
    });

  it('are accepted, and the ticket’s new event reaches its thread', async () => {
    const t = [...w.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1002',
    ) as SimTicket;
    await w.command('watch ACME-1002', people.admin.id, 'CQ6', '/ticket');
    const card = await eventually(async () => w.store.find(String(t.id), 'CQ6'));
    // Let the first scan settle, then change the ticket with no scan to come: only the webhook can tell.
    await eventually(async () => (await w.store.lastSeen(String(t.id)))?.modified !== undefined);
    w.platform.sim.state.addEvent(t, 'quirk.byWebhook', 'guest');
    w.platform.sim.state.changed(t, 'update');
    const res = await post({ event: 'update', time: 1, object: 'ticket', objectId: t.id, props: [] });
    expect(res.status).toBe(202);
    const posted = await eventually(
      () =>
        w.slack.messages.find(
          (m: SlackMessage) => m.channel === 'CQ6' && String(m.text).includes('*quirk.byWebhook*'),
        ),
      // A thin webhook costs a timeline read, which waits its turn in the read backlog: while the
      // first scans have used the budget, reads are paced (up to ~10 s at 10 requests a minute).
      15_000,
    );
    expect(posted.thread_ts).toBe(card.ts);
    // A media delivery with props [] (as the quirky simulator sends them) is accepted too.
    expect((await post({ event: 'delete', time: 1, object: 'media', objectId: 5, props: [] })).status).toBe(
      202,
    );
  });
});
