import { deliveryClient } from '../outbound/clients.js';
import { runInLane } from '../platform/lane.js';
import type { WebhookSignal } from '../platform/webhook-signal.js';
import { Pacing, writesAllHeard } from './pacing.js';
import { needsRead, Poller, settleMs } from './poller/poller.js';
import type { BacklogState } from './poller/read-backlog.js';
import { JobRunner } from './runner.js';
import type { LeftForNextStart } from './shutdown.js';
import {
  backlogLook,
  type JobCrew,
  type JobsOptions,
  processName,
  releaseLead,
  releaseReminders,
  startBacklog,
  startCards,
  startDelivery,
  startDigests,
  startDirectory,
  startLead,
  startReads,
  startReminders,
  startScans,
} from './starters.js';

export interface Jobs {
  poller: Poller;
  /**
   * What a platform webhook told (any replica): written at once when it tells enough, else its
   * ticket joins the read backlog, which the replica holding the poller's lease reads.
   */
  onWebhook(signal: WebhookSignal): Promise<unknown>;
  /** The read backlog now (the doctor, the playground, the benchmarks). */
  backlog(): Promise<BacklogState>;
  /** The read backlog as last looked at (every few seconds; `/readyz`, which answers at once). */
  lastBacklog(): BacklogState | undefined;
  /** Shutting down: no new run, no new claim; runs in progress finish (`stop` waits for them). */
  drain(): void;
  /** Waits for runs in progress, then hands the poller's lease over at once. */
  stop(): Promise<void>;
  /** When `stop` took too long: releases what is still claimed, for the next start; says what. */
  abandon(): Promise<Omit<LeftForNextStart, 'requestsFinished'>>;
}

/**
 * The background jobs: the poller (change scans every POLL_INTERVAL, on the budget's background
 * lane, so the budget can only stretch it) and the delivery worker, the digests, the cards and the
 * directory, each started by its own starter (`starters.ts`) on one runner, at the pace one `Pacing`
 * holds. With several replicas on one PostgreSQL store, one of them at a time holds the poller's
 * lease (the platform's budget is the account's, not the replica's); every replica delivers, each
 * channel by one replica at a time.
 */
export function startJobs(o: JobsOptions): Jobs {
  const owner = processName();
  const scale = o.timeScale ?? 1;
  const slack = deliveryClient(o.slack);
  const runner = new JobRunner(o.logger);
  const pacing: Pacing = new Pacing({
    pollIntervalMs: o.pollIntervalMs,
    timeScale: o.timeScale,
    budget: o.platform.budget,
    allHeard: writesAllHeard(o.store),
    lastScanPages: () => poller.lastScanPages(),
    backfillWaits: () => o.platform.estimateWaitMs('backfill') !== 0,
    // Something is watched again: the jobs that slept go back to their pace from their last run.
    onWatched: () => {
      for (const job of ['lead', 'poll', 'read', 'backlog']) runner.repace(job);
      delivery.runner.repace('deliver');
    },
  });
  const poller: Poller = new Poller({
    platform: o.platform,
    store: o.store,
    logger: o.logger.child({ job: 'poller' }),
    mayDeliver: (sub, ticket) => o.tickets.maySee(sub.createdBy, ticket),
    publisher: o.publisher,
    // The 'lead' job renews the lease; a long scan only reads what it last learnt.
    keepGoing: async () => pacing.leads(),
    settleMs: settleMs / scale,
    holdMs: settleMs / scale,
    verifyGapMs: pacing.verifyGapMs,
    readPaceMs: () => pacing.readPaceMs(),
    // A webhook about a ticket never seen asks for a scan (one list page for a burst of new tickets).
    wantScan: () => {
      pacing.askScan();
      runner.trigger('poll');
    },
  });
  const delivery = startDelivery(o, owner, slack, () => pacing.watching);
  const crew: JobCrew = { o, runner, pacing, poller, owner };
  startLead(crew);
  const digests = startDigests(crew, slack);
  startScans(crew);
  const look = backlogLook(crew);
  startReads(crew, look);
  startDirectory(crew);
  const cards = startCards(crew);
  startBacklog(crew, look);
  startReminders(crew, slack);
  // This process's writes wake the jobs they give work to (delivery listens by itself); idle, the
  // backlog is looked at too, so `/readyz` sees what now waits.
  const unlisten = o.wakes?.listen((w) => {
    if (w.job === 'digest') {
      pacing.scheduled = true;
      runner.trigger('digest');
    }
    if (w.job === 'poll') pacing.toldWatched();
    if (!pacing.watching && !look.waiting()) runner.trigger('backlog');
  });
  const drain = () => {
    unlisten?.();
    // A scan or a backlog read in progress stops at its next page or ticket; the cards at the next.
    pacing.stopLeading();
    cards.drain();
    delivery.drain();
    digests.drain();
  };
  return {
    poller,
    async onWebhook(signal) {
      pacing.webhookArrived();
      // Background work even though a request brought it: the reserve stays for people.
      await runInLane('background', () => poller.onSignal(signal));
      if (needsRead(signal) && pacing.leads()) runner.trigger('read');
    },
    backlog: () => look.backlog(),
    lastBacklog: () => look.last(),
    drain,
    async stop() {
      drain();
      await Promise.all([runner.stop(), delivery.stop(), poller.settled()]);
      await releaseLead(crew);
      await releaseReminders(crew);
    },
    async abandon() {
      const left = await delivery.abandon();
      const digest = await digests.abandon();
      await releaseLead(crew);
      return { ...left, digests: digest ? [digest] : [] };
    },
  };
}
