import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import type { DeliveryWorker } from '../../src/jobs/delivery.js';
import { Collector } from '../../src/jobs/poller/collector.js';
import { createLogger } from '../../src/observability/logger.js';
import { type TicketRecord, ticketRecord } from '../../src/platform/schemas.js';
import type { EventSignal } from '../../src/platform/webhook-signal.js';
import { type OutboxItem, openStore, type Store } from '../../src/store/store.js';
import { keepTicketRecord } from '../../src/store/ticket-records.js';
import { testDeliveryWorker } from '../helpers/delivery-worker.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';
import { storeBackends } from '../helpers/store-backends.js';

/*
 * A state change told by the list's state line and by the platform's state event must be told once,
 * whatever the timing of the delivery worker's claims against the writers of the two. Each test holds
 * a claim at the moment that once let both out: the real collector, store, delivery worker and Slack
 * double, with a clock the test moves.
 */

const backends = storeBackends('told-once tests');

let platform: PlatformFixture;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(async () => {
  await platform.close();
});

describe.each(backends)('a state change, told once ($name)', ({ options }) => {
  let slack: SlackDouble;
  let store: Store;
  let clock: number;

  beforeEach(async () => {
    slack = await new SlackDouble().start();
    // Near the double's own clock: the ledger looks for earlier posts from an item's creation on.
    clock = Date.now();
    store = await openStore({ ...options(), now: () => new Date(clock) });
  });
  afterEach(async () => {
    await store.close();
    await slack.stop();
  });

  const worker = () =>
    testDeliveryWorker(store, slack.apiUrl, {
      now: () => clock,
      advance: (ms) => {
        clock += ms;
      },
    });

  /** Delivers until nothing is due (claim by claim: the test's clock never waits on a timer). */
  const deliverAll = async (delivery: DeliveryWorker) => {
    let delivered = 0;
    for (let n = await delivery.runOnce(); n > 0; n = await delivery.runOnce()) delivered += n;
    return delivered;
  };

  /** The posts (gathered or not) carrying an outbox item's id. */
  const postsOf = (eventId: string) =>
    slack.messages.filter((m) => {
      const p = (m.metadata as { event_payload?: Record<string, string> } | undefined)?.event_payload;
      return p?.event_id === eventId || (p?.event_ids ?? '').split(' ').includes(eventId);
    });
  const stateLinePosts = () =>
    slack.messages.filter((m) =>
      String(
        (m.metadata as { event_payload?: Record<string, string> } | undefined)?.event_payload?.event_ids ??
          (m.metadata as { event_payload?: Record<string, string> } | undefined)?.event_payload?.event_id,
      ).includes('stateline:'),
    );

  /** Ticket 7, watched in C1 with its card posted, last seen open a minute ago. */
  async function watched(): Promise<{ v0: TicketRecord; v1: TicketRecord }> {
    const at = (ms: number) => new Date(Math.floor((clock - ms) / 1000) * 1000).toISOString();
    const v0 = ticketRecord.parse({ id: 7, state: 'open', modified: at(60_000) });
    const v1 = ticketRecord.parse({ id: 7, state: 'inprogress', modified: at(5_000) });
    await store.addSubscription({
      id: 's1',
      channel: 'C1',
      kind: 'watch',
      ticketId: '7',
      filter: {},
      createdBy: 'U1',
    });
    slack.messages.push({
      channel: 'C1',
      ts: '1700000000.000001',
      text: 'card',
      blocks: [],
      thread_ts: undefined,
      metadata: undefined,
      user: slack.botUserId,
    });
    await store.save({ ticketId: '7', channel: 'C1', ts: '1700000000.000001' });
    await keepTicketRecord(store, v0);
    await store.markSeen('7', (v0.modified as Date).toISOString(), 'open');
    return { v0, v1 };
  }

  /** The platform's own event of the move to `inprogress`, told by a webhook (the guest joined, or an agent started). */
  const stateEvent = (v1: TicketRecord, source = 'guest'): EventSignal => ({
    kind: 'event',
    ticketId: '7',
    eventId: 'ev-state',
    eventName: 'ticket.sessionStarted',
    timestamp: v1.modified as Date,
    source,
    data: undefined,
  });

  const collectorOver = (s: Store) =>
    new Collector({ platform: platform.client, store: s, logger: createLogger('silent'), now: () => clock });

  it.each(['guest', 'agent'])(
    'the event’s writer is slower than its hold: delivery claims it before the writer settles it (moved by the %s)',
    async (source) => {
      const { v1 } = await watched();
      const delivery = worker();
      // The scan's state line goes out first.
      await collectorOver(store).fromList(v1, false);
      expect(await deliverAll(delivery)).toBe(1);
      expect(stateLinePosts()).toHaveLength(1);
      // Then the webhook's event of the same move. Its write wakes the delivery job (`wakeOnWrites`),
      // which claims as soon as the event's hold is over; under load the writer's next call comes later.
      const writer: Store = {
        ...store,
        async advance(items, seen) {
          const fresh = await store.advance(items, seen);
          clock += 600;
          await deliverAll(delivery);
          return fresh;
        },
      };
      await collectorOver(writer).fromEvent(stateEvent(v1, source));
      clock += 2_000;
      await deliverAll(delivery);
      expect(postsOf('ev-state')).toHaveLength(0);
      expect(stateLinePosts()).toHaveLength(1);
    },
  );

  it('the event is claimed while the scan writes its line; released unposted, it is still told once', async () => {
    const { v1 } = await watched();
    const delivery = worker();
    let claimed: OutboxItem[] = [];
    let race = true;
    // The scan reads the outbox; meanwhile the webhook's event is written and, its hold over, claimed.
    const scanner: Store = {
      ...store,
      async outboxOf(ticketId) {
        const seen = await store.outboxOf(ticketId);
        if (race) {
          race = false;
          await collectorOver(store).fromEvent(stateEvent(v1));
          clock += 600;
          claimed = await store.claim('w1', 10, 60_000);
        }
        return seen;
      },
    };
    await collectorOver(scanner).fromList(v1, false);
    expect(claimed.map((i) => i.eventId)).toEqual(['ev-state']);
    // The claimer lets it go unposted (a shutdown, a 429), as it was.
    for (const i of claimed) expect(await store.settle(i, { status: i.status })).toBe(true);
    // A later event of the ticket, from a webhook.
    await collectorOver(store).fromEvent({
      ...stateEvent(v1),
      eventId: 'ev-picture',
      eventName: 'media.pictureTaken',
      timestamp: new Date(clock - 1_000),
    });
    clock += 2_000;
    await deliverAll(delivery);
    expect(postsOf('ev-state')).toHaveLength(1);
    expect(postsOf('ev-picture')).toHaveLength(1);
    expect(stateLinePosts()).toHaveLength(0);
  });
});
