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

export interface Jobs {
  poller: Poller;
  /** Waits for runs in progress, then hands the poller's lease over at once. */
  stop(): Promise<void>;
}

const pollerLease = 'poller';

/**
 * The background jobs: the poller (change scans every POLL_INTERVAL, on the budget's background
 * lane, so the budget can only stretch it) and the delivery worker. With several replicas on one
 * PostgreSQL store, one of them at a time holds the poller's lease (the platform's budget is the
 * account's, not the replica's); every replica delivers, each channel by one replica at a time.
 */
export function startJobs(o: JobsOptions): Jobs {
  const owner = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  // Its own Web API client: never retries by itself, so a lost answer can never post twice.
  const slack = new WebClient(o.slack.token, {
    ...(o.slack.apiUrl ? { slackApiUrl: o.slack.apiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  // A leader that stops renewing (it crashed) is replaced after three intervals, a minute at least.
  const leaseMs = Math.max(3 * o.pollIntervalMs, 60_000);
  const lead = () => o.store.acquireLease(pollerLease, owner, leaseMs);
  const poller = new Poller({
    platform: o.platform,
    store: o.store,
    logger: o.logger.child({ job: 'poller' }),
    refreshCard: async (channel, ticket) => {
      const card = await o.store.find(String(ticket.id), channel);
      if (card)
        await slack.chat.update({
          channel,
          ts: card.ts,
          ...buildTicketCard(await o.tickets.summary(ticket)),
        });
    },
    keepGoing: lead,
  });
  const worker = new DeliveryWorker({
    store: o.store,
    slack,
    logger: o.logger.child({ job: 'delivery' }),
    owner,
    renderCard: async (ticketId) => buildTicketCard(await o.tickets.summary(ticketId)),
    ...(o.paceMs !== undefined ? { paceMs: o.paceMs } : {}),
  });
  const runner = new JobRunner(o.logger);
  runner.start({
    name: 'poll',
    everyMs: o.pollIntervalMs,
    run: async () => (await lead()) && poller.scanOnce(),
  });
  runner.start({ name: 'deliver', everyMs: o.deliverEveryMs ?? 1_000, run: () => worker.runOnce() });
  return {
    poller,
    async stop() {
      await runner.stop();
      await o.store.releaseLease(pollerLease, owner);
    },
  };
}
