import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebClient } from '@slack/web-api';
import { describeBacklog, somethingWaits } from '../domain/ticket-feed.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import type { WorkspaceMetrics } from '../observability/metrics.js';
import type { ChannelPace } from '../outbound/channel-pace.js';
import { deliveryClient, type SlackTarget } from '../outbound/clients.js';
import { DirectMessages } from '../outbound/direct-messages.js';
import type { SlackPublisher } from '../outbound/publisher.js';
import type { SlackAccess } from '../outbound/slack-access.js';
import type { PlatformClient } from '../platform/client.js';
import type { AccessService } from '../services/access.js';
import type { DigestService } from '../services/digest.js';
import type { Directory } from '../services/directory.js';
import type { TicketService } from '../services/tickets.js';
import { claimerPrefix, type Store } from '../store/store.js';
import { DeliveryWorker } from './delivery.js';
import { DigestJob } from './digest-job.js';
import {
  deliverHeartbeatMs,
  deliverWatchedMs,
  directoryRefreshMs,
  idleHeartbeatMs,
  type Pacing,
  writesAllHeard,
} from './pacing.js';
import type { Poller } from './poller/poller.js';
import type { BacklogState } from './poller/read-backlog.js';
import { ReminderJob } from './reminder-job.js';
import type { StoreWakes } from './replicas/wakes.js';
import { JobRunner } from './runner.js';

/*
 * One starter per job: each puts its job on the workspace's runner, at the pace `Pacing` gives it.
 * `startJobs` (start-jobs.ts) calls them in turn.
 */

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
  /** The language of what the jobs post in channels (thread lines, digests); unset: English. */
  channelLocale?: Locale | undefined;
  pollIntervalMs: number;
  /** The type-ahead menus' people and groups, refreshed by a job (absent: not refreshed). */
  directory?: Directory;
  /** Benchmarks run time faster: the jobs' own delays (settling, gaps, webhook health) are divided by it. */
  timeScale?: number;
  /**
   * How often the conference reminders read the conference list (REMINDER_INTERVAL); unset or 0: no
   * reminders (tests that count the platform's requests).
   */
  reminderScanMs?: number | undefined;
}

/** What the jobs of one workspace share: their options, one runner, one pace, the poller, this process's name in leases. */
export interface JobCrew {
  o: JobsOptions;
  runner: JobRunner;
  pacing: Pacing;
  poller: Poller;
  owner: string;
}

const pollerLease = 'poller';

/** This process's name in leases. */
export const processName = () => `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

/** Asks for the poller's lease (renews it when it is ours): whether this replica leads now. */
async function lead({ o, pacing, owner }: JobCrew): Promise<boolean> {
  const asked = Date.now();
  return pacing.leased(await o.store.acquireLease(pollerLease, owner, pacing.leaseMs), asked);
}

/** Hands the poller's lease over at once (the next replica leads without waiting for it to run out). */
export const releaseLead = ({ o, owner }: JobCrew): Promise<void> => o.store.releaseLease(pollerLease, owner);

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

/** The poller's lease, renewed between scans too, so this replica keeps leading while scans are rare. */
export function startLead(c: JobCrew): void {
  c.runner.start({
    name: 'lead',
    everyMs: () => c.pacing.leadEvery(),
    // Idle, the scan at the heartbeat takes the lease itself; nothing needs it meanwhile.
    run: async () => c.pacing.watching && lead(c),
  });
}

/** Daily digests: every minute, what is due is sent (once per schedule and day, across replicas). */
export function startDigests(c: JobCrew, slack: WebClient): DigestJob {
  const { o, pacing } = c;
  const digests = new DigestJob({
    store: o.store,
    digests: o.digests,
    slack,
    publisher: o.publisher,
    slackAccess: o.slackAccess,
    logger: o.logger.child({ job: 'digest' }),
    owner: c.owner,
    mayPost: async (user) => o.access.may(await o.access.asker(user), 'digest.set'),
    metrics: o.metrics,
    pace: o.channelPace,
    channelLocale: o.channelLocale,
  });
  c.runner.start({
    name: 'digest',
    everyMs: () => pacing.digestEvery(),
    run: async () => {
      pacing.scheduled = (await o.store.digestSchedules()).length > 0;
      if (pacing.scheduled) await digests.runOnce();
    },
  });
  return digests;
}

/**
 * The scans (the `poll` job): whether anything is watched is asked at each run (one indexed row, no
 * platform request); idle, the scan itself runs once a heartbeat, so the versions stay recent for a
 * subscription made later. A scan needs the poller's lease; after it, the reads go.
 */
export function startScans(c: JobCrew): void {
  const { o, pacing, poller, runner } = c;
  runner.start({
    name: 'poll',
    everyMs: () => pacing.pollEvery(),
    // Scans asked for by webhooks of new tickets: at most one per 15 s (a quarter of the budget).
    minGapMs: 15_000 / (o.timeScale ?? 1),
    run: async () => {
      const turn = pacing.scanBegins();
      if (!pacing.scans(turn, await o.store.watchesAnything())) return;
      if (!(await lead(c))) return;
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
}

/**
 * The read backlog: one ticket's timeline at a time, on the backfill lane (the reserve stays for
 * people however long it is, and a scan never waits behind it); every few seconds, and after a scan.
 */
export function startReads(c: JobCrew, look: BacklogLook): void {
  const { pacing, poller } = c;
  c.runner.start({
    name: 'read',
    lane: 'backfill',
    everyMs: () => pacing.busyEvery((look.last()?.reads ?? 0) > 0),
    run: async () => pacing.leads() && poller.backlog.drain(async () => pacing.leads()),
  });
}

/**
 * The directory of the type-ahead menus (pickers), once loaded, every 15 minutes and 10 s after the
 * bot changed a user (`invalidate`; a burst of changes costs one refresh). A refresh costs
 * `directoryRefreshCost(users)` requests: 2,000 people, 5 pages of 500 + the groups (+ /users/me when
 * its cache expired) = 7 every 15 minutes, about 0.5 a minute of the ~10 (5%).
 */
export function startDirectory({ o, runner }: JobCrew): void {
  const { directory } = o;
  if (!directory) return;
  const scale = o.timeScale ?? 1;
  runner.start({
    name: 'directory',
    lane: 'backfill',
    everyMs: directoryRefreshMs / scale,
    minGapMs: 10_000 / scale,
    // Loaded first by the first person who types (nothing spent for a bot no one types in): from
    // then on kept fresh.
    run: async () => directory.snapshot() && directory.refresh(),
  });
  directory.whenStale(() => runner.trigger('directory'));
}

/**
 * The cards of what the platform changed: coalesced and paced (`CardRefresher`), at once after a
 * change; a person's own updates never wait here. Answers how to stop it at the next card.
 */
export function startCards({ o, runner, pacing }: JobCrew): { drain(): void } {
  let stopping = false;
  const { cards } = o.publisher;
  cards.whenChanged(() => runner.trigger('cards'));
  runner.start({
    name: 'cards',
    // A change triggers it; the pace's pauses come back every few seconds while cards wait.
    everyMs: () => (cards.waiting > 0 ? 5_000 / (o.timeScale ?? 1) : pacing.heartbeatMs),
    minGapMs: 100 / (o.timeScale ?? 1),
    run: () => cards.run(() => stopping),
  });
  return {
    drain() {
      stopping = true;
    },
  };
}

/** The read backlog and what waits for Slack, as `/readyz`, the doctor and the log line read them. */
export interface BacklogLook {
  /** Asked now: the read backlog, the posts waiting (the outbox, every replica's) and the card updates. */
  backlog(): Promise<BacklogState>;
  /** As last looked at (every few seconds while something waits or is watched). */
  last(): BacklogState | undefined;
  /** Whether something waited at the last look (or none was made yet). */
  waiting(): boolean;
  /** Looks again; while it lasts, one line a minute says how long it is and when it should be read. */
  look(): Promise<void>;
}

export function backlogLook({ o, pacing, poller }: JobCrew): BacklogLook {
  let last: BacklogState | undefined;
  let loggedAt = Number.NEGATIVE_INFINITY;
  const scale = o.timeScale ?? 1;
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
  return {
    backlog,
    last: () => last,
    waiting: () => last === undefined || somethingWaits(last),
    async look() {
      last = await backlog();
      if (!pacing.leads() || !somethingWaits(last) || Date.now() - loggedAt < 60_000 / scale) return;
      loggedAt = Date.now();
      o.logger.info({ job: 'read', ...last }, describeBacklog(last));
    },
  };
}

/**
 * The backlog is looked at every few seconds (for `/readyz`); idle with nothing waiting, at the
 * heartbeat (`/readyz` reads an empty backlog meanwhile; the writes that fill it wake it).
 */
export function startBacklog({ runner, pacing }: JobCrew, look: BacklogLook): void {
  runner.start({
    name: 'backlog',
    everyMs: () => pacing.busyEvery(look.waiting()),
    run: () => look.look(),
  });
}

const reminderLease = 'reminders';

/** Hands the reminders' lease over at once (the next replica, or the next start, scans without waiting). */
export const releaseReminders = ({ o, owner }: JobCrew): Promise<void> =>
  o.store.releaseLease(reminderLease, owner);

/**
 * Conference reminders: one conference list read a scan (background lane), every `reminderScanMs`
 * while a conference is coming within the look-ahead, five times rarer (at most the heartbeat) while
 * none is; one replica at a time scans (a lease), while every replica delivers. What a scan writes
 * wakes delivery at each reminder's time.
 */
export function startReminders({ o, runner, pacing, owner }: JobCrew, slack: WebClient): void {
  const scanMs = o.reminderScanMs;
  if (!scanMs) return;
  const leaseMs = Math.max(2 * scanMs, 30_000 / (o.timeScale ?? 1));
  let upcoming = true;
  let retryAt: number | undefined;
  const job = new ReminderJob({
    platform: o.platform,
    store: o.store,
    slack: new DirectMessages(slack),
    directory: o.directory,
    logger: o.logger.child({ job: 'reminders' }),
    // Each recipient's language: their cached Slack profile (users.info, kept), no platform request.
    localeOf: (user) => o.access.locale(user),
    scanEveryMs: () => scanMs,
  });
  runner.start({
    name: 'reminders',
    everyMs: () => {
      const every = upcoming ? scanMs : Math.min(5 * scanMs, Math.max(scanMs, pacing.heartbeatMs));
      return retryAt === undefined ? every : Math.max(0, Math.min(every, retryAt - Date.now()));
    },
    minGapMs: Math.min(1_000, scanMs),
    run: async () => {
      if (!(await o.store.acquireLease(reminderLease, owner, leaseMs))) return;
      const scan = await job.runOnce();
      upcoming = scan.conferences > 0;
      retryAt = scan.retryInMs === undefined ? undefined : Date.now() + scan.retryInMs;
    },
  });
}
