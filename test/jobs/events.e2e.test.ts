import { describe, expect, it } from 'vitest';
import { eventMetadataType } from '../../src/jobs/delivery.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, eventually, people, useBot } from '../helpers/bot.js';
import { idsOf } from '../helpers/event-stream.js';

const f = {} as BotFixture;
useBot(f, { pollIntervalMs: 200 });

const eventPosts = (channel: string, eventName: string) =>
  f.slack.messages.filter(
    (m) =>
      m.channel === channel &&
      (m.metadata as { event_type?: string } | undefined)?.event_type === eventMetadataType &&
      String(m.text).includes(`*${eventName}*`),
  );

describe('ticket events into a watching channel, end to end', () => {
  it('posts a new platform event once, in the card’s thread', async () => {
    const from = f.platform.sim.requests.length;
    const cmd = await f.command('watch ACME-1004', people.admin.id, 'CE1', '/ticket');
    expect(cmd.status).toBe(200);
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1004',
    ) as SimTicket;
    const card = await eventually(async () => f.store.find(String(t.id), 'CE1'));
    // The watch read the ticket once (its rights and its card from the same read).
    const reads = f.platform.sim.requests
      .slice(from)
      .filter((r) => r.query.reference === 'ACME-1004' || r.path === `/api/v3/tickets/${t.id}`);
    expect(reads).toHaveLength(1);
    // The seeded events are from the minute before the watch: they come as context; then a new one.
    await eventually(() => eventPosts('CE1', 'media.pictureTaken').length === 1, 10_000);
    const before = eventPosts('CE1', 'session.established').length;
    f.platform.sim.state.guestJoins(t);
    const joined = await eventually(() => {
      const posts = eventPosts('CE1', 'session.established');
      return posts.length > before && posts.at(-1);
    }, 10_000);
    expect(joined.thread_ts).toBe(card.ts);
    // A few more scans change nothing: each event exactly once.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eventPosts('CE1', 'media.pictureTaken')).toHaveLength(1);
    const ids = f.slack.messages.filter((m) => m.channel === 'CE1').flatMap(idsOf);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(t.events.length);
  });
});

describe('a channel the bot is invited back into', () => {
  it('gets the ticket events kept for it while the bot could not post there', async () => {
    await f.store.markGone('CBACK', 'not_in_channel');
    await f.store.advance([
      { ticketId: '1', eventId: 'kept-1', channel: 'CBACK', payload: { eventName: 'kept.event' } },
    ]);
    const [parked] = await f.store.claim('someone', 10, 1);
    await f.store.settle(parked as NonNullable<typeof parked>, { status: 'parked' });
    // Another person joining changes nothing; the bot joining brings the kept events.
    await f.event({ type: 'member_joined_channel', user: people.alice.id, channel: 'CBACK' });
    await f.event({ type: 'member_joined_channel', user: f.slack.botUserId, channel: 'CBACK' });
    await eventually(() => eventPosts('CBACK', 'kept.event').length === 1, 5_000);
    expect(await f.store.isGone('CBACK')).toBe(false);
  });
});

describe('platform webhooks', () => {
  // Scans are rare here (one at start): what arrives fast arrives by webhook.
  const w = {} as BotFixture;
  useBot(w, { pollIntervalMs: 3_600_000, webhookSecret: 's3cret-hook' });

  const post = (secret: string | undefined, body: unknown) =>
    fetch(`${w.url}/webhooks/platform`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { 'x-webhook-secret': secret } : {}) },
      body: JSON.stringify(body),
    });

  it('refuses a delivery without the secret or with a wrong one, and one that is not a delivery', async () => {
    const body = { event: 'update', time: 1, object: 'ticket', objectId: 1, props: {} };
    expect((await post(undefined, body)).status).toBe(401);
    expect((await post('s3cret-hooK', body)).status).toBe(401);
    expect((await post('s3cret-hook', { hello: 'world' })).status).toBe(400);
    // Refused deliveries are not "the last delivery" the doctor reports.
    expect((await w.store.inspect()).lastWebhookAt).toBeUndefined();
    expect(w.platform.client.findings.snapshot().lastWebhookAt).toBeUndefined();
  });

  it('brings a new event to the thread within seconds when the platform calls back', async () => {
    const t = [...w.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1002',
    ) as SimTicket;
    await w.command('watch ACME-1002', people.admin.id, 'CH1', '/ticket');
    await eventually(async () => w.store.find(String(t.id), 'CH1'));
    w.platform.sim.setWebhook({
      url: `${w.url}/webhooks/platform`,
      header: 'X-Webhook-Secret',
      secret: 's3cret-hook',
    });
    const started = Date.now();
    w.platform.sim.state.takePicture(t);
    await eventually(
      () =>
        w.slack.messages.some(
          (m) =>
            m.channel === 'CH1' &&
            String(m.text).includes('*media.pictureTaken*') &&
            m.thread_ts !== undefined,
        ),
      10_000,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(w.platform.sim.webhookDeliveries.some((d) => d.status === 202)).toBe(true);
    // The doctor (in Slack, or `npm run doctor` beside the bot) sees when the last one arrived.
    expect(w.platform.client.findings.snapshot().lastWebhookAt).toBeGreaterThanOrEqual(started);
    const kept = await eventually(async () => (await w.store.inspect()).lastWebhookAt);
    expect(Date.parse(kept)).toBeGreaterThanOrEqual(started - 1_000);
  });
});

describe('state changes found by the poller', () => {
  it('refresh the ticket’s card where it is watched, and are broadcast where a follow asked for it', async () => {
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1001',
    ) as SimTicket;
    await f.command('watch ACME-1001', people.admin.id, 'CR1', '/ticket');
    await f.command('follow group:"Level 1" broadcast', people.admin.id, 'CR2', '/ticket');
    const card = await eventually(async () => f.store.find(String(t.id), 'CR1'));
    const message = await eventually(() =>
      f.slack.messages.find((m) => m.channel === 'CR1' && m.ts === card.ts),
    );
    // Let the first scans see the ticket as it is, then change it on the platform.
    await eventually(async () => (await f.store.lastSeen(String(t.id)))?.state === t.state);
    const from = t.state;
    f.platform.sim.state.setTicketState(t, from === 'open' ? 'inprogress' : 'open', 'agent');
    await eventually(() => String(message.text).endsWith(`: ${t.state}`), 10_000);
    const broadcast = await eventually(
      () =>
        f.slack.messages.find(
          (m) => m.channel === 'CR2' && !m.thread_ts && String(m.text).includes(`is now *${t.state}*`),
        ),
      10_000,
    );
    expect(broadcast.text).toContain(`(was ${from})`);
  });
});
