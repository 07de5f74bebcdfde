import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { WebClient } from '@slack/web-api';
import { buildTicketCard } from '../blocks/ticket-card.js';
import type { Logger } from '../observability/logger.js';
import type { PlatformClient } from '../platform/client.js';
import type { TicketService } from '../services/tickets.js';
import type { Store } from '../store/store.js';
import { DeliveryWorker } from './delivery.js';
import { Poller } from './poller.js';
import { JobRunner } from './runner.js';

export interface JobsOptions {
  platform: PlatformClient;
  store: Store;
  tickets: TicketService;
  logger: Logger;
  slack: { token: string; apiUrl?: string | undefined };
  pollIntervalMs: number;
  /** How often the delivery worker looks at the outbox. */
  deliverEveryMs?: number;
  /** Gap between two posts in one channel (default Slack's ~1 s; tests shorten it). */
  paceMs?: number;
}

/**
 * The background jobs: the poller (change scans every POLL_INTERVAL, on the budget's background
 * lane, so the budget can only stretch it) and the delivery worker. Answers the runner (stop() waits
 * for runs in progress) and the poller (webhooks ask it to look at one ticket at once).
 */
export function startJobs(o: JobsOptions): { runner: JobRunner; poller: Poller } {
  // Its own Web API client: never retries by itself, so a lost answer can never post twice.
  const slack = new WebClient(o.slack.token, {
    ...(o.slack.apiUrl ? { slackApiUrl: o.slack.apiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const poller = new Poller({
    platform: o.platform,
    store: o.store,
    logger: o.logger.child({ job: 'poller' }),
    postCard: async (channel, ticketId) => {
      const posted = await slack.chat.postMessage({
        channel,
        ...buildTicketCard(await o.tickets.get(ticketId)),
      });
      await o.store.save({ ticketId, channel, ts: posted.ts as string });
    },
    refreshCard: async (channel, ticketId) => {
      const card = await o.store.find(ticketId, channel);
      if (card)
        await slack.chat.update({ channel, ts: card.ts, ...buildTicketCard(await o.tickets.get(ticketId)) });
    },
  });
  const worker = new DeliveryWorker({
    store: o.store,
    slack,
    logger: o.logger.child({ job: 'delivery' }),
    owner: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    ...(o.paceMs !== undefined ? { paceMs: o.paceMs } : {}),
  });
  const runner = new JobRunner(o.logger);
  runner.start({ name: 'poll', everyMs: o.pollIntervalMs, run: () => poller.scanOnce() });
  runner.start({ name: 'deliver', everyMs: o.deliverEveryMs ?? 1_000, run: () => worker.runOnce() });
  return { runner, poller };
}
