import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildJobNotice } from '../../src/blocks/job-notices.js';
import { message } from '../../src/blocks/kit.js';
import { md } from '../../src/blocks/mrkdwn.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type DeliveryOptions, eventMetadataType, gatherable } from '../../src/jobs/delivery.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import { deliveryClient } from '../../src/outbound/clients.js';
import { gatheredMessage, outboxMessage, SlackPublisher } from '../../src/outbound/publisher.js';
import { openStore, type Store } from '../../src/store/store.js';
import { testDeliveryWorker } from '../helpers/delivery-worker.js';

let slack: SlackDouble;
let store: Store;
let dir: string;
let clock: number;

beforeEach(async () => {
  slack = await new SlackDouble().start();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-delivery-'));
  // Near Slack's (the double's) own clock: the ledger looks for earlier posts from an item's creation on.
  clock = Date.now();
  store = await openStore({ dataDir: dir, now: () => new Date(clock) });
});
afterEach(async () => {
  await store.close();
  await slack.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A worker on the test's clock; one message an item (gathering has tests of its own below). */
const worker = (paceMs = 0, more: Partial<DeliveryOptions> = {}) =>
  testDeliveryWorker(
    store,
    slack.apiUrl,
    {
      now: () => clock,
      advance: (ms) => {
        clock += ms;
      },
    },
    { paceMs, gatherMax: 1, ...more },
  );

/** A logger writing into `lines`, to read what the operator sees. */
function capture(lines: string[]): Logger {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return createLogger('info', sink);
}

/** The event id a chat.postMessage call carries in its metadata. */
const eventOf = (args: Record<string, unknown>) =>
  (args.metadata as { event_payload?: { event_id?: string } } | undefined)?.event_payload?.event_id;

/** Slack refuses the posts of these events with this error, whatever their turn. */
function refuse(error: string, ...eventIds: string[]) {
  slack.refuse = (method, args) =>
    method === 'chat.postMessage' && eventIds.includes(eventOf(args) ?? '') ? error : undefined;
}

const watch = (channel: string, createdBy: string) =>
  store.addSubscription({ id: `s-${channel}`, channel, kind: 'watch', ticketId: '7', filter: {}, createdBy });
const toldTo = (user: string) => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === user);

const event = (eventId: string, channel = 'C1') => ({
  ticketId: '7',
  eventId,
  channel,
  payload: { eventName: `event.${eventId}`, timestamp: '2027-01-01T09:59:00Z', source: 'agent' },
});
const postsOf = (eventId: string) =>
  slack.messages.filter(
    (m) =>
      (m.metadata as { event_payload?: { event_id?: string } } | undefined)?.event_payload?.event_id ===
      eventId,
  );

/** The card the events thread under. */
async function card(channel = 'C1') {
  const ts = '1700000000.000001';
  slack.messages.push({
    channel,
    ts,
    text: 'card',
    blocks: [],
    thread_ts: undefined,
    metadata: undefined,
    user: slack.botUserId,
  });
  await store.save({ ticketId: '7', channel, ts });
  return ts;
}

describe('the delivery worker', () => {
  it('posts each event once into its ticket’s thread, tagged with the event id', async () => {
    const ts = await card();
    await store.advance([event('e1'), event('e2')]);
    expect(await worker().runOnce()).toBe(2);
    expect(await worker().runOnce()).toBe(0);
    for (const id of ['e1', 'e2']) {
      const [post] = postsOf(id);
      expect(postsOf(id)).toHaveLength(1);
      expect(post?.thread_ts).toBe(ts);
      expect(post?.metadata).toMatchObject({
        event_type: eventMetadataType,
        event_payload: { ticket_id: '7', event_id: id },
      });
      expect(post?.text).toContain(`*event.${id}*`);
    }
    expect((await store.outboxOf('7')).every((i) => i.status === 'delivered' && i.slackTs)).toBe(true);
  });

  it('after a 429 posts nothing, and tries again once Retry-After has passed', async () => {
    await card();
    await store.advance([event('e1')]);
    slack.failNext('chat.postMessage', { kind: 'rate_limited', retryAfter: 3 });
    const w = worker();
    expect(await w.runOnce()).toBe(0);
    expect(postsOf('e1')).toHaveLength(0);
    expect(await w.runOnce()).toBe(0); // not due yet
    clock += 3_000;
    expect(await w.runOnce()).toBe(1);
    expect(postsOf('e1')).toHaveLength(1);
  });

  it('resolves a lost answer without posting twice: the message is found by its metadata', async () => {
    await card();
    await store.advance([event('e1')]);
    slack.failNext('chat.postMessage', { kind: 'lost_response' });
    const w = worker();
    expect(await w.runOnce()).toBe(0);
    expect((await store.outboxOf('7'))[0]?.status).toBe('unknown');
    clock += 2_000;
    expect(await w.runOnce()).toBe(1);
    expect(postsOf('e1')).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
  });

  it('when Slack cannot say whether a lost answer was posted, asks again later instead of posting', async () => {
    await card();
    await store.advance([event('e1')]);
    slack.failNext('chat.postMessage', { kind: 'lost_response' });
    slack.failNext('conversations.replies', { kind: 'http', status: 503 });
    const w = worker();
    await w.runOnce();
    clock += 2_000;
    expect(await w.runOnce()).toBe(0); // the lookup failed: nothing posted
    clock += 2_000;
    expect(await w.runOnce()).toBe(1); // found by its metadata
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(postsOf('e1')).toHaveLength(1);
  });

  it('gathers the lines of one thread that wait together into one message, in order; other threads apart', async () => {
    const ts = await card();
    await store.save({ ticketId: '8', channel: 'C1', ts: '1700000000.000008' });
    await store.advance([
      event('e1'),
      { ...event('f1'), ticketId: '8' },
      event('e2'),
      event('e3'),
      { ...event('f2'), ticketId: '8' },
    ]);
    const w = worker(1_000, { gatherMax: 10 });
    expect(await w.runOnce()).toBe(5);
    const posts = slack.callsOf('chat.postMessage').map((c) => c.args);
    // Two posts for five lines, each in its own thread, each line in its order.
    expect(posts.map((p) => [p.thread_ts, (p.metadata as { event_payload: unknown }).event_payload])).toEqual(
      [
        [ts, { ticket_id: '7', event_id: 'e1', event_ids: 'e1 e2 e3' }],
        ['1700000000.000008', { ticket_id: '8', event_id: 'f1', event_ids: 'f1 f2' }],
      ],
    );
    expect(
      String(posts[0]?.text)
        .split('\n')
        .map((l) => /event\.(e\d)/.exec(l)?.[1]),
    ).toEqual(['e1', 'e2', 'e3']);
    const first = slack.messages.find((m) => m.thread_ts === ts)?.ts;
    expect((await store.outboxOf('7')).map((i) => [i.eventId, i.status, i.slackTs])).toEqual(
      ['e1', 'e2', 'e3'].map((id) => [id, 'delivered', first]),
    );
  });

  it('finds a gathered message whose answer was lost by any of its lines: nothing posted twice', async () => {
    await card();
    await store.advance([event('e1'), event('e2')]);
    slack.failNext('chat.postMessage', { kind: 'lost_response' });
    const w = worker(0, { gatherMax: 10 });
    expect(await w.runOnce()).toBe(0);
    expect((await store.outboxOf('7')).map((i) => i.status)).toEqual(['unknown', 'unknown']);
    clock += 2_000;
    // Each is looked for alone; both are found in the one message that reached Slack.
    expect(await w.runOnce()).toBe(2);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(new Set((await store.outboxOf('7')).map((i) => i.slackTs)).size).toBe(1);
  });

  it('never gathers a line whose id has a space (it could not be found again among the ids)', () => {
    const items = ['a b', 'c', 'd'].map((eventId) => ({
      ...event(eventId),
      status: 'pending' as const,
      attempts: 1,
      slackTs: undefined,
      createdAt: new Date(clock),
    }));
    expect(gatherable(items).map((g) => g.map((i) => i.eventId))).toEqual([['a b'], ['c', 'd']]);
  });

  it('retries after a 429 without looking first (a 429 posted nothing)', async () => {
    await card();
    await store.advance([event('e1')]);
    slack.failNext('chat.postMessage', { kind: 'rate_limited', retryAfter: 1 });
    const w = worker();
    await w.runOnce();
    clock += 1_000;
    expect(await w.runOnce()).toBe(1);
    expect(slack.callsOf('conversations.replies')).toHaveLength(0);
  });

  it('resolves a lost answer for a broadcast (a channel message, not in a thread) the same way', async () => {
    await store.advance([
      {
        ticketId: '7',
        eventId: 'state:open:1',
        channel: 'C1',
        payload: { broadcast: true, text: 'ACME-7 is now *open*' },
      },
    ]);
    slack.failNext('chat.postMessage', { kind: 'lost_response' });
    const w = worker();
    expect(await w.runOnce()).toBe(0);
    clock += 2_000;
    expect(await w.runOnce()).toBe(1);
    expect(postsOf('state:open:1')).toHaveLength(1);
    expect(postsOf('state:open:1')[0]?.thread_ts).toBeUndefined();
  });

  it('posts again after a 5xx that posted nothing, once', async () => {
    await card();
    await store.advance([event('e1')]);
    slack.failNext('chat.postMessage', { kind: 'http', status: 503 });
    const w = worker();
    await w.runOnce();
    clock += 2_000;
    expect(await w.runOnce()).toBe(1);
    expect(postsOf('e1')).toHaveLength(1);
  });

  it('does not post twice when a worker died after posting: the next lease finds the message', async () => {
    const ts = await card();
    await store.advance([event('e1')]);
    // A first worker claims, posts, and dies before recording the outcome.
    const [claimed] = await store.claim('dead', 10, 60_000);
    expect(claimed?.eventId).toBe('e1');
    slack.messages.push({
      channel: 'C1',
      ts: `${Math.floor(clock / 1000)}.000002`,
      text: 'event',
      blocks: undefined,
      thread_ts: ts,
      metadata: { event_type: eventMetadataType, event_payload: { ticket_id: '7', event_id: 'e1' } },
      user: slack.botUserId,
    });
    expect(await worker().runOnce()).toBe(0); // still leased to the dead one
    clock += 61_000;
    expect(await worker().runOnce()).toBe(1);
    expect(postsOf('e1')).toHaveLength(1);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(0);
  });

  it('keeps the events of a channel the bot was removed from, stops posting there, and tells the subscriber once', async () => {
    await card('CGONE');
    await store.addSubscription({
      id: 's1',
      channel: 'CGONE',
      kind: 'watch',
      ticketId: '7',
      filter: {},
      createdBy: 'UWATCHER',
    });
    slack.notInChannel.add('CGONE');
    await store.advance([event('e1', 'CGONE'), event('e2', 'CGONE')]);
    await worker().runOnce();
    await store.advance([event('e3', 'CGONE')]);
    clock += 60_000;
    await worker().runOnce();
    expect((await store.outboxOf('7')).map((i) => i.status)).toEqual(['parked', 'parked', 'parked']);
    const posts = slack.callsOf('chat.postMessage');
    expect(posts.filter((c) => c.args.channel === 'CGONE')).toHaveLength(1);
    const told = posts.filter((c) => c.args.channel === 'UWATCHER');
    expect(told).toHaveLength(1);
    expect(String(told[0]?.args.text)).toContain('/invite @confdesk');
    // Invited back: the kept events go out, in order.
    slack.notInChannel.delete('CGONE');
    expect(await store.backInChannel('CGONE')).toBe(3);
    expect(await worker().runOnce()).toBe(3);
    expect(['e1', 'e2', 'e3'].map((id) => postsOf(id).length)).toEqual([1, 1, 1]);
  });

  it('tells each subscriber of a channel it lost in their own language, not the channel’s', async () => {
    await card('CGONE');
    for (const user of ['UFR', 'UEN'])
      await store.addSubscription({
        id: `s-${user}`,
        channel: 'CGONE',
        kind: 'watch',
        ticketId: '7',
        filter: {},
        createdBy: user,
      });
    slack.notInChannel.add('CGONE');
    await store.advance([event('e1', 'CGONE')]);
    // The real publisher, in a French workspace; each person's language as their Slack profile says.
    const publisher = new SlackPublisher({
      slack: deliveryClient({ token: 'xoxb-delivery', apiUrl: slack.apiUrl }),
      store,
      tickets: { summary: () => Promise.reject(new Error('no cards here')) },
      logger: createLogger('silent'),
      channelLocale: 'fr',
      personLocale: async (user) => (user === 'UFR' ? 'fr' : 'en'),
    });
    await worker(0, {
      publisher: {
        render: (item) => outboxMessage(item, () => Promise.reject(new Error('no cards here')), 'fr'),
        notice: (n, user) => publisher.notice(n, user),
        gather: (items) => gatheredMessage(items, 'fr'),
      },
    }).runOnce();
    expect(toldTo('UFR')).toHaveLength(1);
    expect(String(toldTo('UFR')[0]?.args.text)).toContain(
      'Je ne peux plus publier les événements des tickets',
    );
    expect(toldTo('UEN')).toHaveLength(1);
    expect(String(toldTo('UEN')[0]?.args.text)).toContain('I can no longer post ticket events');
  });

  it('posts a queued card first, saves its link, and threads the events after it under it', async () => {
    await store.advance([
      { ticketId: '7', eventId: 'card', channel: 'CNEW', payload: { card: true } },
      event('e1', 'CNEW'),
    ]);
    expect(await worker().runOnce()).toBe(2);
    const link = await store.find('7', 'CNEW');
    expect(postsOf('card')).toHaveLength(1);
    expect(postsOf('card')[0]).toMatchObject({ ts: link?.ts, thread_ts: undefined, text: 'Ticket 7' });
    expect(postsOf('e1')[0]?.thread_ts).toBe(link?.ts);
  });

  it('after a failure holds the rest of the channel back, so nothing overtakes it', async () => {
    await card();
    await store.advance([event('e1'), event('e2')]);
    slack.failNext('chat.postMessage', { kind: 'rate_limited', retryAfter: 2 });
    const w = worker();
    expect(await w.runOnce()).toBe(0);
    expect(await w.runOnce()).toBe(0);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    clock += 2_000;
    expect(await w.runOnce()).toBe(2);
    const order = slack.messages.filter((m) => m.thread_ts).map((m) => m.text);
    expect(order).toEqual([expect.stringContaining('event.e1'), expect.stringContaining('event.e2')]);
  });

  it('paces each channel at Slack’s one message a second, channels in parallel', async () => {
    await card('C1');
    await card('C2');
    await store.advance([event('a1'), event('a2'), event('a3'), event('b1', 'C2'), event('b2', 'C2')]);
    const start = clock;
    expect(await worker(1_100).runOnce()).toBe(5);
    const at = (channel: string) =>
      slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel).length;
    expect(at('C1')).toBe(3);
    expect(at('C2')).toBe(2);
    // Three posts in one channel take at least two gaps of 1.1 s on the worker's clock.
    expect(clock - start).toBeGreaterThanOrEqual(2_200);
  });

  it('sets aside a message Slack refuses for good, delivers the rest of its channel in order, once, and tells the subscriber once', async () => {
    const ts = await card();
    await watch('C1', 'UWATCHER');
    await store.advance(['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => event(id)));
    refuse('invalid_blocks', 'e3', 'e6');
    const lines: string[] = [];
    // One pass: the refused item holds nothing back.
    expect(await worker(0, { logger: capture(lines) }).runOnce()).toBe(4);
    const thread = slack.messages.filter((m) => m.thread_ts === ts).map((m) => m.text);
    expect(thread).toEqual(['e1', 'e2', 'e4', 'e5'].map((id) => expect.stringContaining(`event.${id}`)));
    expect(['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => postsOf(id).length)).toEqual([1, 1, 0, 1, 1]);
    const e3 = (await store.outboxOf('7')).find((i) => i.eventId === 'e3');
    expect(e3?.status).toBe('dead');
    expect(await store.deadLetters()).toEqual([
      expect.objectContaining({ eventId: 'e3', channel: 'C1', ticketId: '7', reason: 'invalid_blocks' }),
    ]);
    // The operator's log line: where, what and why; never the message.
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reason);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 40,
        channel: 'C1',
        ticket: '7',
        event: 'e3',
        reason: 'invalid_blocks',
      }),
    ]);
    expect(lines.join('')).not.toContain('event.e3');
    const [told] = toldTo('UWATCHER');
    expect(toldTo('UWATCHER')).toHaveLength(1);
    expect(String(told?.args.text)).toContain('<#C1>');
    expect(String(told?.args.text)).toContain('`invalid_blocks`');
    expect(String(told?.args.text)).toContain('npm run outbox -- dead');
    expect(String(told?.args.text)).not.toContain('event.e3');
    // Not tried again, however long one waits.
    clock += 3_600_000;
    expect(await worker().runOnce()).toBe(0);
    expect(slack.callsOf('chat.postMessage').filter((c) => eventOf(c.args) === 'e3')).toHaveLength(1);
    // A second refusal of the same kind in that channel: set aside too, nobody told again.
    await store.advance([event('e6'), event('e7')]);
    expect(await worker().runOnce()).toBe(1);
    expect((await store.deadLetters()).map((d) => d.eventId)).toEqual(['e6', 'e3']);
    expect(postsOf('e7')).toHaveLength(1);
    expect(toldTo('UWATCHER')).toHaveLength(1);
  });

  it('still retries a 5xx (an unknown outcome), holding the channel back, and delivers it once', async () => {
    await card();
    await watch('C1', 'UWATCHER');
    await store.advance([event('e1'), event('e2')]);
    slack.failNext('chat.postMessage', { kind: 'http', status: 502 });
    const w = worker();
    expect(await w.runOnce()).toBe(0);
    expect((await store.outboxOf('7')).map((i) => i.status)).toEqual(['unknown', 'pending']);
    clock += 2_000;
    expect(await w.runOnce()).toBe(2);
    expect([postsOf('e1').length, postsOf('e2').length]).toEqual([1, 1]);
    expect(await store.deadLetters()).toEqual([]);
    expect(toldTo('UWATCHER')).toHaveLength(0);
  });

  it('when Slack refuses a queued card for good, sets it aside and posts the ticket’s events in the channel instead of waiting for it', async () => {
    await watch('CNEW', 'UWATCHER');
    await store.advance([
      { ticketId: '7', eventId: 'card', channel: 'CNEW', payload: { card: true } },
      event('e1', 'CNEW'),
      event('e2', 'CNEW'),
    ]);
    refuse('msg_too_long', 'card');
    expect(await worker().runOnce()).toBe(2);
    expect(await store.find('7', 'CNEW')).toBeUndefined();
    expect(await store.deadLetters()).toEqual([
      expect.objectContaining({ eventId: 'card', reason: 'msg_too_long' }),
    ]);
    const posted = slack.messages.filter((m) => m.channel === 'CNEW');
    expect(posted.map((m) => [m.text, m.thread_ts])).toEqual([
      [expect.stringContaining('event.e1'), undefined],
      [expect.stringContaining('event.e2'), undefined],
    ]);
    expect(toldTo('UWATCHER')).toHaveLength(1);
    expect(String(toldTo('UWATCHER')[0]?.args.text)).toContain('a ticket card');
  });

  it('posts a card whose blocks Slack refuses as its text alone, so the ticket’s events still thread under it', async () => {
    await store.advance([
      { ticketId: '7', eventId: 'card', channel: 'CNEW', payload: { card: true } },
      event('e1', 'CNEW'),
    ]);
    // 51 blocks: over Slack's limit, so the double answers invalid_blocks as Slack does.
    const renderCard = async () =>
      message(
        md`Ticket 7`,
        Array.from({ length: 51 }, () => ({ type: 'divider' as const })),
      );
    expect(
      await worker(0, {
        publisher: {
          render: (item) => outboxMessage(item, renderCard, 'en'),
          notice: async (n) => buildJobNotice('en', n),
          gather: (items) => gatheredMessage(items, 'en'),
        },
      }).runOnce(),
    ).toBe(2);
    expect(slack.violations).toHaveLength(1);
    const link = await store.find('7', 'CNEW');
    expect(postsOf('card')).toEqual([expect.objectContaining({ ts: link?.ts, text: 'Ticket 7' })]);
    expect(postsOf('card')[0]?.blocks).toBeUndefined();
    expect(postsOf('e1')[0]?.thread_ts).toBe(link?.ts);
    expect(await store.deadLetters()).toEqual([]);
  });

  it('posts an event in the channel when its card was deleted, and resolves a lost answer there', async () => {
    const ts = await card();
    slack.messages.splice(
      slack.messages.findIndex((m) => m.ts === ts),
      1,
    );
    const exists = (t: unknown) => slack.messages.some((m) => m.channel === 'C1' && m.ts === t);
    let lose = true;
    slack.refuse = (method, args) => {
      if (method === 'conversations.replies' && !exists(args.ts)) return 'thread_not_found';
      if (method !== 'chat.postMessage' || !args.thread_ts || exists(args.thread_ts)) return undefined;
      // The first post in the channel instead takes effect, but its answer is lost.
      if (lose) slack.failNext('chat.postMessage', { kind: 'lost_response' });
      lose = false;
      return 'thread_not_found';
    };
    await store.advance([event('e1'), event('e2')]);
    const w = worker();
    expect(await w.runOnce()).toBe(0);
    clock += 2_000;
    expect(await w.runOnce()).toBe(2);
    expect(['e1', 'e2'].map((id) => postsOf(id).map((m) => m.thread_ts))).toEqual([[undefined], [undefined]]);
    expect(slack.messages.map((m) => m.text)).toEqual([
      expect.stringContaining('event.e1'),
      expect.stringContaining('event.e2'),
    ]);
    expect(await store.deadLetters()).toEqual([]);
  });
});
