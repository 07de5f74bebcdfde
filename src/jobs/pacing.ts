import type { RateBudget } from '../platform/rate-budget.js';
import type { Store } from '../store/store.js';

/**
 * An idle job's heartbeat: a workspace with nothing to watch (no subscription, no card, no digest
 * schedule, nothing waiting) runs each job this rarely, and is woken at once by the writes that give
 * it work (a command, a click, a webhook: see `replicas/wakes.ts`). The scan still lists one page at
 * this pace, so a subscription made later starts from a recent version of every ticket.
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

/** How often the type-ahead menus' directory is read again. */
export const directoryRefreshMs = 15 * 60_000;

/**
 * Whether this process is the store's only writer (the embedded store: one process per file), so
 * every write that gives a job work is heard (`replicas/wakes.ts`) and an idle job need not ask the
 * store between heartbeats. A thousand idle workspaces then open their files once a heartbeat each,
 * not every POLL_INTERVAL and every minute (each open and close of a SQLite file costs about a
 * millisecond of the event loop). PostgreSQL may have other replicas writing: they are asked.
 */
export const writesAllHeard = (store: Pick<Store, 'backend'>): boolean => store.backend === 'sqlite';

export interface PacingOptions {
  pollIntervalMs: number;
  /** Benchmarks run time faster: the jobs' own delays are divided by it. */
  timeScale?: number | undefined;
  /** The platform's budget: the scans and the reads share its background part. */
  budget: Pick<RateBudget, 'perWindow' | 'reserve' | 'windowMs'>;
  /** Whether every write that gives a job work is heard here (`writesAllHeard`). */
  allHeard: boolean;
  /** How many pages the last scan read (the poller knows). */
  lastScanPages: () => number;
  /** Whether a request on the backfill lane would wait now. */
  backfillWaits: () => boolean;
  /** Something is watched again: the jobs that slept go back to their pace (`JobRunner.repace`). */
  onWatched: () => void;
  /** The clock (tests move it). */
  now?: () => number;
}

/** What a scan run took when it began (`Pacing.scanBegins`): whether a webhook asked, and the tells so far. */
export interface ScanTurn {
  asked: boolean;
  told: number;
}

/**
 * When the jobs run: one object holds what decides it. Whether something is watched (a subscription
 * or a card keeps the jobs at their pace; idle, each runs at the heartbeat until a write wakes it),
 * whether a digest schedule exists, whether a webhook asked for a scan, when the last webhook came
 * (while they arrive, scans only reconcile), and whether this replica holds the poller's lease. No
 * timer and no store here: the jobs ask it their pace and tell it what they learnt.
 */
export class Pacing {
  /** Whether a subscription or a card keeps the jobs at their pace: asked at every scan, set at once by this process's writes. */
  watching = false;
  /** Whether a digest schedule exists: asked at every digest run, set at once by this process's writes. */
  scheduled = true;
  /** A webhook about a ticket never seen asked for a scan (it waits for it in memory). */
  scanAsked = false;
  /** When the last webhook arrived (epoch ms). */
  lastWebhook = Number.NEGATIVE_INFINITY;
  /** Whether this replica got the poller's lease when it last asked. */
  leading = false;
  /**
   * Until when that lease is ours: while idle it is renewed only at the heartbeat, longer than the
   * lease, so it is ours only until it runs out (another replica may hold it since).
   */
  leaseEnds = 0;
  /** How many writes told of something watched: one told while the store was being asked wins. */
  private watchTold = 0;
  /** When the idle scan last ran (one page a heartbeat keeps the versions recent). */
  private idleScanAt = Number.NEGATIVE_INFINITY;
  /** Idle (nothing watched, nothing waiting): each job at the heartbeat, woken by what gives it work. */
  readonly heartbeatMs: number;
  /** A leader that stops renewing (it crashed) is replaced after three intervals, a minute at least. */
  readonly leaseMs: number;
  /** The budget's background part: what the scans and the reads share. */
  readonly share: number;
  /**
   * Checks of webhook-told tickets take at most a third of the background share (one per 22.5 s at
   * 10 requests a minute), and only when no change waits.
   */
  readonly verifyGapMs: number;
  private readonly scale: number;
  private readonly now: () => number;

  constructor(private readonly o: PacingOptions) {
    this.scale = o.timeScale ?? 1;
    this.now = o.now ?? Date.now;
    this.heartbeatMs = idleHeartbeatMs / this.scale;
    this.leaseMs = Math.max(3 * o.pollIntervalMs, 60_000);
    this.share = Math.max(1, o.budget.perWindow - o.budget.reserve);
    this.verifyGapMs = (3 * o.budget.windowMs) / this.share;
  }

  /**
   * The scans' pace. While webhooks arrive, scans only reconcile (webhooks can be lost): ten times
   * rarer, so the budget goes to the changes webhooks announce; back to every POLL_INTERVAL after 10
   * quiet minutes. And a scan never takes more than half the background share (a long list is read
   * less often), so the read backlog always gets the other half (see domain/ticket-feed.ts).
   */
  scanEvery(): number {
    const recent = this.now() - this.lastWebhook < 600_000 / this.scale;
    return Math.max(
      recent ? 10 * this.o.pollIntervalMs : this.o.pollIntervalMs,
      (this.o.lastScanPages() * this.o.budget.windowMs) / (this.share / 2),
    );
  }

  /**
   * The reads' pace: while the budget is short, the reads take what the scans leave of the background
   * share, so a scan never waits behind them; while it has room, a read goes at once.
   */
  readPaceMs(): number {
    if (!this.o.backfillWaits()) return 0;
    const { windowMs } = this.o.budget;
    const scanShare = (this.o.lastScanPages() * windowMs) / this.scanEvery();
    return windowMs / Math.max(1, this.share - scanShare);
  }

  /** The lease is renewed between scans too, so `leading` stays true while scans are rare. */
  leadEvery(): number {
    return this.watching ? this.leaseMs / 3 : this.heartbeatMs;
  }

  /**
   * Idle, the store is still asked every POLL_INTERVAL whether something is watched (a subscription
   * made on another replica starts the scans within that time); where every write is heard, once a
   * heartbeat. Asked for by a webhook, or watching: the scans' pace.
   */
  pollEvery(): number {
    if (this.watching || this.scanAsked) return this.scanEvery();
    return this.o.allHeard ? this.heartbeatMs : this.o.pollIntervalMs;
  }

  /** The digests look every minute while a schedule exists. */
  digestEvery(): number {
    return this.scheduled ? 60_000 / this.scale : this.heartbeatMs;
  }

  /** Every few seconds while `busy` (or something is watched), else at the heartbeat. */
  busyEvery(busy: boolean): number {
    return this.watching || busy ? 5_000 / this.scale : this.heartbeatMs;
  }

  /** The poller's lease was asked for at `askedAt`: whether it is ours, and until when. */
  leased(got: boolean, askedAt: number): boolean {
    this.leading = got;
    this.leaseEnds = askedAt + this.leaseMs;
    return got;
  }

  /** Whether this replica leads now (its lease not run out). */
  leads(): boolean {
    return this.leading && this.now() < this.leaseEnds;
  }

  /** Shutting down: a scan or a read in progress stops at its next page or ticket. */
  stopLeading(): void {
    this.leading = false;
  }

  /** A webhook arrived: the scans only reconcile for the next 10 minutes. */
  webhookArrived(): void {
    this.lastWebhook = this.now();
  }

  /** A webhook about a ticket never seen asks for a scan. */
  askScan(): void {
    this.scanAsked = true;
  }

  /** A scan run begins: it takes the ask, and notes the tells so far. */
  scanBegins(): ScanTurn {
    const asked = this.scanAsked;
    this.scanAsked = false;
    return { asked, told: this.watchTold };
  }

  /**
   * Whether the run that began with `turn` scans, once the store said whether anything is `watched`:
   * yes while something is (or a write told so meanwhile); idle, when a webhook asked, else once a
   * heartbeat.
   */
  scans(turn: ScanTurn, watched: boolean): boolean {
    if (watched || this.watchTold !== turn.told) {
      this.watchNow();
      return true;
    }
    this.watching = false;
    if (!turn.asked && this.now() - this.idleScanAt < this.heartbeatMs) return false;
    this.idleScanAt = this.now();
    return true;
  }

  /** A write of this process (or another replica's, relayed) made something watched. */
  toldWatched(): void {
    this.watchTold++;
    this.watchNow();
  }

  /**
   * Something is watched (a subscription, a card; told by a write or found by a scan): the jobs that
   * slept go back to their pace from their last run.
   */
  private watchNow(): void {
    if (this.watching) return;
    this.watching = true;
    this.o.onWatched();
  }
}
