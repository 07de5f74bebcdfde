import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';
import { idsOf } from '../helpers/event-stream.js';

/*
 * Webhook-first delivery (issue 21), through the real webhook route, the store and the Slack double:
 * what a webhook tells is posted with no platform request, exactly once whichever way it also comes
 * (a scan, a timeline read, a person's click), in the platform's order, and a card never goes back.
 */
const f = {} as BotFixture;
useBot(f, { pollIntervalMs: 300, webhookSecret: 'wf-hook' });

/** A stand-in webhook target that keeps the platform's real deliveries, to replay them as we like. */
let catcher: Server;
let caught: Record<string, unknown>[] = [];
let catcherUrl = '';
beforeAll(async () => {
  catcher = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      caught.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => catcher.listen(0, '127.0.0.1', r));
  catcherUrl = `http://127.0.0.1:${(catcher.address() as AddressInfo).port}/`;
});
afterAll(() => catcher.close());

const hookToBot = () =>
  f.platform.sim.setWebhook({
    url: `${f.url}/webhooks/platform`,
    header: 'X-Webhook-Secret',
    secret: 'wf-hook',
  });
const hookToCatcher = () => {
  caught = [];
  f.platform.sim.setWebhook({ url: catcherUrl, header: 'X-Webhook-Secret', secret: 'wf-hook' });
};
const replay = (body: unknown) =>
  fetch(`${f.url}/webhooks/platform`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': 'wf-hook' },
    body: JSON.stringify(body),
  }).then((r) => r.status);

const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;

/** Watches a ticket from a channel and waits until its card is there and its outbox is quiet. */
async function watched(reference: string, channel: string) {
  const t = ticket(reference);
  expect((await f.command(`watch ${reference}`, people.admin.id, channel, '/ticket')).status).toBe(200);
  const link = await eventually(() => f.store.find(String(t.id), channel));
  const card = await eventually(() =>
    f.slack.messages.find((m) => m.channel === channel && m.ts === link.ts),
  );
  await eventually(async () => (await f.store.outboxOf(String(t.id))).every((i) => i.status === 'delivered'));
  // The bot keeps the ticket's record (the scans do), so a webhook can be posted from.
  await eventually(async () => (await f.store.knownTicket(String(t.id))).record);
  await new Promise((r) => setTimeout(r, 1_600));
  return { t, card };
}
const threadOf = (card: SlackMessage) =>
  f.slack.messages.filter((m) => m.channel === card.channel && m.thread_ts === card.ts);
const timelineReads = (t: SimTicket) =>
  f.platform.sim.requests.filter((r) => r.path === `/api/v3/tickets/${t.id}/events`).length;

describe('webhook-first ticket events', () => {
  it('posts a webhook’s event with no platform request, and once when a scan and a read see it too', async () => {
    const { t, card } = await watched('ACME-1001', 'CWF1');
    hookToBot();
    const reads = timelineReads(t);
    const e = f.platform.sim.state.addEvent(t, 'media.pictureTaken', 'agent');
    await eventually(() => threadOf(card).some((m) => idsOf(m).includes(e.id)), 5_000);
    // Written from the webhook alone (what it carried), not from a read; a scan that lists the new
    // version reads the timeline at most once more, as a check, when nothing else waits.
    const item = (await f.store.outboxOf(String(t.id))).find((i) => i.eventId === e.id);
    expect(item?.payload).toMatchObject({ via: 'webhook', eventName: 'media.pictureTaken' });
    expect(timelineReads(t) - reads).toBeLessThanOrEqual(1);
    // A timeline read of the same version (the scans' check, or an operator's) writes nothing new.
    await f.confdesk.jobs.running()?.poller.checkTicket(String(t.id));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(threadOf(card).filter((m) => idsOf(m).includes(e.id))).toHaveLength(1);
  });

  it('keeps the platform’s order when webhooks arrive out of order or twice, and a card never goes back', async () => {
    const { t, card } = await watched('ACME-1003', 'CWF2');
    hookToCatcher();
    const first = f.platform.sim.state.addEvent(t, 'media.pictureTaken', 'agent');
    await new Promise((r) => setTimeout(r, 1_050)); // the next second: the platform's times are to the second
    f.platform.sim.state.setTicketState(t, 'closed', 'agent');
    const second = t.events.at(-1);
    await eventually(() => caught.length >= 3);
    const bodies = [...caught];
    hookToBot();
    // Newest first, then the oldest, then the newest again; the ticket's own deliveries in reverse.
    const events = bodies.filter((b) => b.object === 'conversationevent');
    const tickets = bodies.filter((b) => b.object === 'ticket');
    for (const b of [...events].reverse()) expect(await replay(b)).toBe(202);
    expect(await replay(events.at(-1))).toBe(202);
    const older = { ...(tickets.at(-1) as Record<string, unknown>), props: { state: 'open' }, time: 1 };
    expect(await replay(tickets.at(-1))).toBe(202);
    expect(await replay(older)).toBe(202);
    await eventually(() => threadOf(card).some((m) => idsOf(m).includes(second?.id as string)), 5_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const told = threadOf(card)
      .flatMap(idsOf)
      .filter((id) => id === first.id || id === second?.id);
    expect(told).toEqual([first.id, second?.id]);
    const latest = f.slack.messages.find((m) => m.ts === card.ts && m.channel === card.channel);
    expect(JSON.stringify(latest?.blocks)).toContain('closed');
    expect(JSON.stringify(latest?.blocks)).not.toContain('📂');
  });

  it('reads the timeline once for a webhook that carries less than expected, and still posts one line', async () => {
    const { t, card } = await watched('ACME-1004', 'CWF3');
    hookToCatcher();
    const e = f.platform.sim.state.addEvent(t, 'media.pictureTaken', 'agent');
    await eventually(() => caught.some((b) => b.objectId === e.id));
    hookToBot();
    const reads = timelineReads(t);
    const body = caught.find((b) => b.objectId === e.id) as Record<string, unknown>;
    const thin = { ...body, props: { ticketId: t.id } };
    expect(await replay(thin)).toBe(202);
    expect(await replay(thin)).toBe(202);
    await eventually(() => threadOf(card).some((m) => idsOf(m).includes(e.id)), 5_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(threadOf(card).filter((m) => idsOf(m).includes(e.id))).toHaveLength(1);
    expect(timelineReads(t) - reads).toBe(1);
    expect(f.platform.client.findings.statusOf('webhook.conversationevent.props')).toBe('ignored');
  });

  it('a click and the webhook its own change causes, milliseconds apart: one line, one card update', async () => {
    const { t, card } = await watched('ACME-1002', 'CWF4');
    hookToBot();
    expect(t.state).toBe('open');
    const updates = () =>
      f.slack.callsOf('chat.update').filter((c) => c.args.channel === card.channel && c.args.ts === card.ts)
        .length;
    const before = updates();
    const lines = threadOf(card).length;
    // The platform's events from before the click: the first read after a watch brings the minute
    // before it as context, whenever it comes.
    const older = new Set(t.events.map((e) => e.id));
    const deliveries = f.platform.sim.webhookDeliveries.length;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: `${ids.actions.ticketMove}:start`,
        value: String(t.id),
        channel: card.channel,
        ts: card.ts,
      }),
    );
    await eventually(() => t.state === 'inprogress');
    await eventually(() =>
      threadOf(card).some((m) => String(m.text).startsWith('<@UADMIN> moved the ticket')),
    );
    // The platform did call back for the change (its event and the ticket's new state).
    await eventually(() => f.platform.sim.webhookDeliveries.length >= deliveries + 2);
    await new Promise((r) => setTimeout(r, 3_500)); // the webhooks' hold, and a scan
    expect(
      threadOf(card)
        .slice(lines)
        .filter((m) => !idsOf(m).some((id) => older.has(id)))
        .map((m) => m.text),
    ).toEqual([expect.stringMatching(/^<@UADMIN> moved the ticket from .*open.* to .*inprogress.*\.$/)]);
    expect(updates() - before).toBe(1);
  });

  it('a burst of new tickets in a followed group gets its cards from one list page, with no read per ticket', async () => {
    hookToBot();
    expect((await f.command('follow group:"Level 2"', people.admin.id, 'CNEW', '/ticket')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_000));
    const sim = f.platform.sim.state;
    const group = [...sim.groups.values()].find((g) => g.name === 'Level 2');
    const agent = [...sim.users.values()].find((u) => u.username === 'carol');
    if (!group || !agent) throw new Error('the simulator has no Level 2 group or no carol');
    const from = f.platform.sim.requests.length;
    // What the scan asks to read of each ticket it writes (the collector writes through this store).
    const wants: { ticketId: string; priority: number }[] = [];
    const advance = f.store.advance.bind(f.store);
    f.store.advance = (items, seen) => {
      if (seen?.want) wants.push({ ticketId: seen.ticketId, priority: seen.want.priority });
      return advance(items, seen);
    };
    const made = Array.from({ length: 8 }, (_, i) =>
      sim.createTicket(agent, {
        reference: `BURST-${i}`,
        subject: `Burst ${i}`,
        emails: [`burst${i}@example.com`],
        phones: [],
        invite: false,
        groupId: group.id,
        agentId: agent.id,
      }),
    );
    // Every card, from the records the list page carried: the webhooks of tickets never seen asked
    // for a scan rather than a read each.
    for (const t of made) await eventually(() => f.store.find(String(t.id), 'CNEW'), 20_000);
    const reads = f.platform.sim.requests
      .slice(from)
      .filter((r) => made.some((t) => r.path === `/api/v3/tickets/${t.id}`));
    expect(reads).toEqual([]);
    const scans = f.platform.sim.requests.slice(from).filter((r) => r.path === '/api/v3/tickets');
    expect(scans.length).toBeGreaterThanOrEqual(1);
    const cards = f.slack.messages.filter((m) => m.channel === 'CNEW' && !m.thread_ts);
    expect(cards.map((m) => JSON.stringify(m.blocks)).filter((b) => b.includes('Burst'))).toHaveLength(8);
    // What the webhooks told is not read again in full: at most a check each, read when nothing else
    // waits (a full read per new ticket would hold the next scan back behind the budget).
    f.store.advance = advance;
    const ofMade = wants.filter((w) => made.some((t) => w.ticketId === String(t.id)));
    expect(ofMade.length).toBeGreaterThanOrEqual(8);
    expect(ofMade.filter((w) => w.priority === 0)).toEqual([]);
    const wanted = (await f.store.wantedReads(1_000)).filter((w) =>
      made.some((t) => w.ticketId === String(t.id)),
    );
    expect(wanted.filter((w) => w.priority === 0)).toEqual([]);
  });
});
