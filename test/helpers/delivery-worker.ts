import { buildJobNotice } from '../../src/blocks/job-notices.js';
import { message } from '../../src/blocks/kit.js';
import { md } from '../../src/blocks/mrkdwn.js';
import { type DeliveryOptions, DeliveryWorker } from '../../src/jobs/delivery.js';
import { createLogger } from '../../src/observability/logger.js';
import { deliveryClient } from '../../src/outbound/clients.js';
import { gatheredMessage, outboxMessage } from '../../src/outbound/publisher.js';
import { SlackAccess } from '../../src/outbound/slack-access.js';
import type { Store } from '../../src/store/store.js';

/** A clock the test moves: the worker's `now`, and its `sleep` moves it instead of waiting. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

/**
 * A delivery worker posting to the Slack double at `apiUrl` on a Web API client that never retries
 * by itself, on the test's clock, rendering with the publisher's own messages (a card is a line
 * naming its ticket unless `more.publisher` says otherwise).
 */
export function testDeliveryWorker(
  store: Store,
  apiUrl: string,
  clock: TestClock,
  more: Partial<DeliveryOptions> = {},
): DeliveryWorker {
  const client = deliveryClient({ token: 'xoxb-delivery', apiUrl });
  const now = () => new Date(clock.now());
  return new DeliveryWorker({
    store,
    slack: client,
    slackAccess: new SlackAccess({ slack: client, store, logger: createLogger('silent'), now }),
    logger: createLogger('silent'),
    owner: 'w1',
    paceMs: 0,
    now,
    sleep: async (ms) => clock.advance(ms),
    publisher: {
      render: (item) => outboxMessage(item, async (id) => message(md`Ticket ${id}`, []), 'en'),
      notice: async (n) => buildJobNotice('en', n),
      gather: (items) => gatheredMessage(items, 'en'),
    },
    ...more,
  });
}
