import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { describeBacklog, somethingWaits } from '../domain/ticket-feed.js';
import type { Logger } from '../observability/logger.js';
import type { WorkspaceMetrics } from '../observability/metrics.js';
import type { ChannelPace } from '../outbound/channel-pace.js';
import { deliveryClient, type SlackTarget } from '../outbound/clients.js';
import type { SlackPublisher } from '../outbound/publisher.js';
import type { SlackAccess } from '../outbound/slack-access.js';
import type { PlatformClient } from '../platform/client.js';
import { runInLane } from '../platform/lane.js';
import type { WebhookSignal } from '../platform/webhook-signal.js';
import type { AccessService } from '../services/access.js';
import type { DigestService } from '../services/digest.js';
import type { Directory } from '../services/directory.js';
import type { TicketService } from '../services/tickets.js';
import { claimerPrefix, type Store } from '../store/store.js';
import { DeliveryWorker } from './delivery.js';
import { DigestJob } from './digest-job.js';
import { needsRead, Poller, settleMs } from './poller/poller.js';
import type { BacklogState } from './poller/read-backlog.js';
import type { StoreWakes, Wake } from './replicas/wakes.js';
import { JobRunner } from './runner.js';
import type { LeftForNextStart } from './shutdown.js';

export interface DeliveryJobOptions {
  store: Store;
  logger: Logger;
  slack: SlackTarget;
  /**
   * How often the delivery worker looks at the outbox when it is idle (default `deliverHeartbeatMs`:
   * the writes of this process wake it, see `wakes`; tests and benchmarks that write behind the
   * bot's back give a short one).
   */
  deliverEveryMs?: number;
  /** The writes of this process that give the jobs work (`wakeOnWrites`): idle jobs sleep until then. */
  wakes?: Pick<StoreWakes, 'listen'> | undefined;
  /** Gap between two posts in one channel (default Slack's ~1 s; tests shorten it). */
  paceMs?: number;
  /** The channels' pace, shared with people's posts (the publisher's). */
  channelPace?: ChannelPace | undefined;
  /** Renders what delivery posts (`outbound/publisher.ts`). */
  publisher: Pick<SlackPublisher, 'render' | 'notice' | 'gather'>;
  /** Whether Slack still takes the token (the jobs that post pause while it does not). */
  slackAccess: SlackAccess;
  /** The instance's metrics: deliveries, scans, digest runs. */
  metrics?: WorkspaceMetrics | undefined;
}

export interface JobsOptions extends DeliveryJobOptions {
  /** Renders and writes to Slack for the jobs: the cards of a changed ticket, what delivery posts, digests. */
  publisher: SlackPublisher;
  platform: PlatformClient;
  tickets: TicketService;
  /** The policy applied to a Slack person: a job that posts checks the rights of whom it posts for. */
  access: AccessService;
  /** The digests' figures (the same service the listeners use). */
  digests: DigestService;
  pollIntervalMs: number;
  /** The type-ahead menus' people and groups, refreshed by a job (absent: not refreshed). */
  directory?: Directory;
  /** Benchmarks run time faster: the jobs' own delays (settling, gaps, webhook health) are divided by it. */
  timeScale?: number;
}

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

const pollerLease = 'poller';

/** How often the type-ahead menus' directory is read again. */
export const directoryRefreshMs = 15 * 60_000;

/**
 * An idle job's heartbeat: a workspace with nothing to watch (no subscription, no card, no digest
 * schedule, nothing waiting) runs each job this rarely, and is woken at once by the writes that give
 * it work (a command, a click, a webhook: see `wakes.ts`). The scan still lists one page at this
 * pace, so a subscription made later starts from a recent version of every ticket.
 */
export const idleHeartbeatMs = 5 * 60_000;

/**
 * Delivery's heartbeat when idle: this process's writes wake it at once; this catches what only the
 * store knows (another replica's writes it did not deliver, a dead replica's claims freed after their
 * 60 s lease, `npm run outbox -- requeue` run beside the bot, Slack taking the token again).
 */
export const deliverHeartbeatMs = 60_000;

/**
 * Delivery's idle pace in a workspace that watches something: its events may be written by another
 * replica (a webhook is written where it arrives), which this process does not hear. Five times
 * rarer than the claim every second it replaces.
 */
export const deliverWatchedMs = 5_000;

/**
 * Whether this process is the store's only writer (the embedded store: one process per file), so
 * every write that gives a job work is heard (`wakes.ts`) and an idle job need not ask the store
 * between heartbeats. A thousand idle workspaces then open their files once a heartbeat each, not
 * every POLL_INTERVAL and every minute (each open and close of a SQLite file costs about a
 * millisecond of the event loop). PostgreSQL may have other replicas writing: they are asked.
 */
export const writesAllHeard = (store: Store): boolean => store.backend === 'sqlite';

/** This process's name in leases. */
const processName = () => `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

/**
 * The delivery worker on its own runner: while channels deliver, each goes on by itself and the
 * outbox is looked at for the others every quarter second; idle, every `deliverEveryMs`, and at once
 * (at most every quarter second) when this process writes to the outbox, or when an item held or put
 * off becomes due.
 */
export function startDelivery(
  o: DeliveryJobOptions,
  owner = processName(),
  slack = deliveryClient(o.slack),
  /** Whether the workspace watches anything (the jobs know): its idle pace is then `deliverWatchedMs`. */
  watched: () => boolean = () => false,
) {
  const runner = new JobRunner(o.logger);
  const worker = new DeliveryWorker({
    store: o.store,
    slack,
    logger: o.logger.child({ job: 'delivery' }),
    owner,
    publisher: o.publisher,
    slackAccess: o.slackAccess,
    metrics: o.metrics,
    ...(o.paceMs !== undefined ? { paceMs: o.paceMs } : {}),
    channelPace: o.channelPace,
    onLater: (at) => runner.triggerAt('deliver', at.getTime()),
  });
  let stopping = false;
  const fixed = o.deliverEveryMs;
  runner.start({
    name: 'deliver',
    everyMs:
      fixed ??
      (() => (watched() ? deliverWatchedMs : writesAllHeard(o.store) ? idleHeartbeatMs : deliverHeartbeatMs)),
    minGapMs: Math.min(250, fixed ?? 250),
    run: async () => {
      if (!stopping) await worker.runUntilIdle();
    },
  });
  const unlisten = o.wakes?.listen((wake) => {
    if (wake.job !== 'deliver') return;
    if (wake.at === undefined) runner.trigger('deliver');
    else runner.triggerAt('deliver', wake.at);
  });
  return {
    runner,
    drain() {
      stopping = true;
      worker.drain();
    },
    async stop() {
      stopping = true;
      unlisten?.();
      worker.drain();
      await runner.stop();
      await o.store.releaseLease(`${claimerPrefix}${owner}`, owner);
    },
    async abandon() {
      const left = await worker.abandon();
      await o.store.releaseLease(`${claimerPrefix}${owner}`, owner);
      return { ...left, digests: [] };
    },
  };
}

/**
 * The background jobs: the poller (change scans every POLL_INTERVAL, on the budget's background
 * lane, so the budget can only stretch it) and the delivery worker. With several replicas on one
 * PostgreSQL store, one of them at a time holds the poller's lease (the platform's budget is the
 * account's, not the replica's); every replica delivers, each channel by one replica at a time.
 */
export function startJobs(o: JobsOptions): Jobs {
  const owner = processName();
  const scale = o.timeScale ?? 1;
  // Idle (nothing watched, nothing waiting): each job at the heartbeat, woken by what gives it work.
  const heartbeatMs = idleHeartbeatMs / scale;
  // Whether a subscription or a card keeps the jobs at their pace: asked at every scan, and set at
  // once by this process's writes (see `watchNow`).
  let watching = false;
  // How many writes told of something watched: one told while the store was being asked wins.
  let watchTold = 0;
  // Whether a digest schedule exists: asked at every digest run, set at once by this process's writes.
  let scheduled = true;
  // A webhook about a ticket never seen asked for a scan (it waits for it in memory).
  let scanAsked = false;
  // While webhooks arrive, scans only reconcile (webhooks can be lost): ten times rarer, so the
  // budget goes to the changes webhooks announce. Back to every POLL_INTERVAL after 10 quiet minutes.
  // And a scan never takes more than half the background share of the budget (a long list is read
  // less often), so the read backlog always gets the other half (see domain/ticket-feed.ts).
  let lastWebhook = Number.NEGATIVE_INFINITY;
  const { budget } = o.platform;
  const share = Math.max(1, budget.perWindow - budget.reserve);
  const scanEvery = (): number =>
    Math.max(
      Date.now() - lastWebhook < 600_000 / scale ? 10 * o.pollIntervalMs : o.pollIntervalMs,
      (poller.lastScanPages() * budget.windowMs) / (share / 2),
    );
  // While the budget is short, the reads take what the scans leave of the background share, so a
  // scan never waits behind them; while it has room, a read goes at once.
  const readPaceMs = (): number => {
    if (o.platform.estimateWaitMs('backfill') === 0) return 0;
    const scanShare: number = (poller.lastScanPages() * budget.windowMs) / scanEvery();
    return budget.windowMs / Math.max(1, share - scanShare);
  };
  const slack = deliveryClient(o.slack);
  // A leader that stops renewing (it crashed) is replaced after three intervals, a minute at least.
  const leaseMs = Math.max(3 * o.pollIntervalMs, 60_000);
  let leading = false;
  // While idle the lease is renewed only at the heartbeat, longer than the lease: it is ours only
  // until it runs out (another replica may hold it since).
  let leaseEnds = 0;
  const lead = async () => {
    const asked = Date.now();
    leading = await o.store.acquireLease(pollerLease, owner, leaseMs);
    leaseEnds = asked + leaseMs;
    return leading;
  };
  const leads = () => leading && Date.now() < leaseEnds;
  const poller: Poller = new Poller({
    platform: o.platform,
    store: o.store,
    logger: o.logger.child({ job: 'poller' }),
    mayDeliver: (sub, ticket) => o.tickets.maySee(sub.createdBy, ticket),
    publisher: o.publisher,
    // The 'lead' job below renews the lease; a long scan only reads what it last learnt.
    keepGoing: async () => leads(),
    settleMs: settleMs / scale,
    holdMs: settleMs / scale,
    // Checks of webhook-told tickets take at most a third of the background share (one per 22.5 s
    // at 10 requests a minute), and only when no change waits.
    verifyGapMs: (3 * budget.windowMs) / share,
    readPaceMs: () => readPaceMs(),
    // A webhook about a ticket never seen asks for a scan (one list page for a burst of new tickets).
    wantScan: () => {
      scanAsked = true;
      runner.trigger('poll');
    },
  });
  const delivery = startDelivery(o, owner, slack, () => watching);
  const runner = new JobRunner(o.logger);
  // The lease is renewed between scans too, so `leading` stays true while scans are rare.
  runner.start({
    name: 'lead',
    everyMs: () => (watching ? leaseMs / 3 : heartbeatMs),
    // Idle, the scan at the heartbeat takes the lease itself; nothing needs it meanwhile.
    run: async () => watching && lead(),
  });
  // Daily digests: every minute, what is due is sent (once per schedule and day, across replicas).
  const digests = new DigestJob({
    store: o.store,
    digests: o.digests,
    slack,
    publisher: o.publisher,
    slackAccess: o.slackAccess,
    logger: o.logger.child({ job: 'digest' }),
    owner,
    mayPost: async (user) => o.access.may(await o.access.asker(user), 'digest.set'),
    metrics: o.metrics,
    pace: o.channelPace,
  });
  runner.start({
    name: 'digest',
    everyMs: () => (scheduled ? 60_000 / scale : heartbeatMs),
    run: async () => {
      scheduled = (await o.store.digestSchedules()).length > 0;
      if (scheduled) await digests.runOnce();
    },
  });
  // Idle, the store is still asked every POLL_INTERVAL whether something is watched (one indexed row,
  // no platform request): a subscription made on another replica starts the scans within that time.
  // On the embedded store every write is this process's (heard at once): asked once a heartbeat. The scan itself runs once per heartbeat: the versions stay recent
  // for a subscription made later.
  let idleScanAt = Number.NEGATIVE_INFINITY;
  const allHeard = writesAllHeard(o.store);
  runner.start({
    name: 'poll',
    everyMs: () => (watching || scanAsked ? scanEvery() : allHeard ? heartbeatMs : o.pollIntervalMs),
    // Scans asked for by webhooks of new tickets: at most one per 15 s (a quarter of the budget).
    minGapMs: 15_000 / scale,
    run: async () => {
      const asked = scanAsked;
      scanAsked = false;
      const told = watchTold;
      if ((await o.store.watchesAnything()) || watchTold !== told) watchNow();
      else {
        watching = false;
        if (!asked && Date.now() - idleScanAt < heartbeatMs) return;
        idleScanAt = Date.now();
      }
      if (!(await lead())) return;
      const started = performance.now();
      await poller.findOnce().then(
        () => o.metrics?.scan((performance.now() - started) / 1000, true),
        (error: unknown) => {
          o.metrics?.scan((performance.now() - started) / 1000, false);
          throw error;
        },
      );
      runner.trigger('read');
    },
  });
  // The read backlog: one ticket's timeline at a time, on the backfill lane (the reserve stays for
  // people however long it is, and a scan never waits behind it); every few seconds, and after a scan.
  runner.start({
    name: 'read',
    lane: 'backfill',
    everyMs: () => (watching || (lastBacklog?.reads ?? 0) > 0 ? 5_000 / scale : heartbeatMs),
    run: async () => leads() && poller.backlog.drain(async () => leads()),
  });
  // The directory of the type-ahead menus (pickers), once loaded, every 15 minutes and 10 s
  // after the bot changed a user (`invalidate`; a burst of changes costs one refresh). A refresh costs
  // `directoryRefreshCost(users)` requests: 2,000 people, 5 pages of 500 + the groups (+ /users/me
  // when its cache expired) = 7 every 15 minutes, about 0.5 a minute of the ~10 (5%).
  if (o.directory) {
    const directory = o.directory;
    runner.start({
      name: 'directory',
      lane: 'backfill',
      everyMs: directoryRefreshMs / scale,
      minGapMs: 10_000 / scale,
      // Loaded first by the first person who types (nothing spent for a bot no one types in):
      // from then on kept fresh.
      run: async () => directory.snapshot() && directory.refresh(),
    });
    directory.whenStale(() => runner.trigger('directory'));
  }
  // The cards of what the platform changed: coalesced and paced (`CardRefresher`), at once after a
  // change; a person's own updates never wait here.
  let cardsStopping = false;
  o.publisher.cards.whenChanged(() => runner.trigger('cards'));
  runner.start({
    name: 'cards',
    // A change triggers it; the pace's pauses come back every few seconds while cards wait.
    everyMs: () => (o.publisher.cards.waiting > 0 ? 5_000 / scale : heartbeatMs),
    minGapMs: 100 / scale,
    run: () => o.publisher.cards.run(() => cardsStopping),
  });
  // The backlog is looked at every few seconds (for `/readyz`); while it lasts, one line a minute
  // says how long it is and when it should be read.
  let lastBacklog: BacklogState | undefined;
  // The read backlog, and what waits for Slack: posts (the outbox, every replica's) and card updates.
  const backlog = async (): Promise<BacklogState> => {
    const [reads, depth] = await Promise.all([poller.backlogState(), o.store.outboxDepth()]);
    const oldestAt = [depth.pending.oldestAt, depth.unknown.oldestAt]
      .filter((d): d is Date => d !== undefined)
      .reduce<number | undefined>((min, d) => Math.min(min ?? d.getTime(), d.getTime()), undefined);
    return {
      ...reads,
      posts: depth.pending.items + depth.unknown.items,
      postsOldestMs: oldestAt === undefined ? undefined : Math.max(0, Date.now() - oldestAt),
      cardUpdates: o.publisher.cards.waiting,
    };
  };
  let loggedAt = Number.NEGATIVE_INFINITY;
  // Idle with nothing waiting: at the heartbeat (`/readyz` reads an empty backlog meanwhile; the
  // writes that fill it wake it).
  const waitingNow = () => lastBacklog === undefined || somethingWaits(lastBacklog);
  runner.start({
    name: 'backlog',
    everyMs: () => (watching || waitingNow() ? 5_000 / scale : heartbeatMs),
    run: async () => {
      lastBacklog = await backlog();
      if (!leads() || !somethingWaits(lastBacklog) || Date.now() - loggedAt < 60_000 / scale) return;
      loggedAt = Date.now();
      o.logger.info({ job: 'read', ...lastBacklog }, describeBacklog(lastBacklog));
    },
  });
  // Something is watched (a subscription, a card; told by a write or found by a scan): the jobs that
  // slept go back to their pace from their last run.
  function watchNow(): void {
    if (watching) return;
    watching = true;
    for (const job of ['lead', 'poll', 'read', 'backlog']) runner.repace(job);
    delivery.runner.repace('deliver');
  }
  // This process's writes wake the jobs they give work to (delivery listens by itself); idle, the
  // backlog is looked at too, so `/readyz` sees what now waits.
  const wake = (w: Wake) => {
    if (w.job === 'digest') {
      scheduled = true;
      runner.trigger('digest');
    }
    if (w.job === 'poll') {
      watchTold++;
      watchNow();
    }
    if (!watching && !waitingNow()) runner.trigger('backlog');
  };
  const unlisten = o.wakes?.listen(wake);
  const drain = () => {
    unlisten?.();
    // A scan or a backlog read in progress stops at its next page or ticket; the cards at the next.
    leading = false;
    cardsStopping = true;
    delivery.drain();
    digests.drain();
  };
  return {
    poller,
    async onWebhook(signal) {
      lastWebhook = Date.now();
      // Background work even though a request brought it: the reserve stays for people.
      await runInLane('background', () => poller.onSignal(signal));
      if (needsRead(signal) && leads()) runner.trigger('read');
    },
    backlog,
    lastBacklog: () => lastBacklog,
    drain,
    async stop() {
      drain();
      await Promise.all([runner.stop(), delivery.stop(), poller.settled()]);
      await o.store.releaseLease(pollerLease, owner);
    },
    async abandon() {
      const left = await delivery.abandon();
      const digest = await digests.abandon();
      await o.store.releaseLease(pollerLease, owner);
      return { ...left, digests: digest ? [digest] : [] };
    },
  };
}
