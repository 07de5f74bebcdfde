import type { Logger } from '../../observability/logger.js';
import type { PlatformClient } from '../../platform/client.js';
import { PlatformHttpError } from '../../platform/errors.js';
import type { ReadWant, Store } from '../../store/store.js';
import type { Collector } from './collector.js';

/** Timeline reads wait for every other background request: a scan (and its state lines) never queues behind them. */
const backfill = { priority: 'backfill' as const };

/**
 * What the read backlog holds, as `/readyz`, the log, the doctor and the playground show it (the jobs
 * add what waits for Slack: see `BacklogFacts`).
 */
export interface BacklogState {
  /** Tickets whose timeline still has to be read for a change no webhook told. */
  reads: number;
  /** Checks that the webhooks told everything (read when nothing else waits). */
  verify: number;
  /** How long the oldest change has waited (ms). */
  oldestMs: number | undefined;
  /** At the pace of the last five minutes' reads, when the reads are done (ms); undefined before any read. */
  drainMs: number | undefined;
  /** Messages waiting to be posted in Slack, and the oldest's wait (ms) (the jobs add them). */
  posts?: number | undefined;
  postsOldestMs?: number | undefined;
  /** Tickets whose cards wait for an update (the jobs add them). */
  cardUpdates?: number | undefined;
  /** Tickets no scan has shown yet, told by webhooks: their cards and lines follow the next scan. */
  awaitingScan?: number | undefined;
}

export interface ReadBacklogOptions {
  platform: PlatformClient;
  store: Store;
  collector: Collector;
  logger: Logger;
  /** A check read at most this often (default 20 s; the jobs give a third of the background share): checks never take the budget from changes. */
  verifyGapMs?: number;
  /**
   * A ticket is read again no sooner than this after its last read (default 1.5 s): a burst of
   * webhooks that each name it costs one read, then one more for what came during it.
   */
  gapMs?: number;
  /**
   * The least time between two reads (default none): the reads leave the scans their share of the
   * budget, so a scan (and the state lines it brings) never queues behind a long backlog.
   */
  paceMs?: () => number;
  /** A ticket whose read failed is tried again after this long (default 5 s); the drain stops meanwhile. */
  retryMs?: number;
  now?: () => number;
}

const paceWindowMs = 5 * 60_000;

/**
 * The tickets whose timeline is still to be read (`read_wants`, written with the version that asked
 * for it): read one at a time on the budget's backfill lane (after the scans and everything else
 * background work asks), changes before checks, and among
 * changes the channel served least recently first, then the oldest change, so a busy channel cannot
 * starve a quiet one and every channel's thread catches up oldest first.
 */
export class ReadBacklog {
  private readonly served = new Map<string, number>();
  /** When each ticket may be read next (after a read, or a failed one). */
  private readonly notBefore = new Map<string, number>();
  private readonly reads: number[] = [];
  private lastVerify = Number.NEGATIVE_INFINITY;
  private lastRead = Number.NEGATIVE_INFINITY;
  private running: Promise<number> | undefined;
  private readonly now: () => number;

  constructor(private readonly o: ReadBacklogOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The next ticket to read, if one is due. */
  private pick(wants: ReadWant[]): ReadWant | undefined {
    const now = this.now();
    const due = wants.filter((w) => (this.notBefore.get(w.ticketId) ?? 0) <= now);
    const changes = due.filter((w) => w.priority === 0);
    if (changes.length) {
      const lastServed = (w: ReadWant) =>
        w.channels.length ? Math.min(...w.channels.map((c) => this.served.get(c) ?? 0)) : 0;
      // wantedReads answers the oldest first: the first of the least recently served channel wins.
      let best = changes[0] as ReadWant;
      for (const w of changes) if (lastServed(w) < lastServed(best)) best = w;
      return best;
    }
    if (now - this.lastVerify < (this.o.verifyGapMs ?? 20_000)) return undefined;
    return due[0];
  }

  /** Reads one ticket of the backlog; answers how many items it wrote, undefined when none was due. */
  async readOne(): Promise<number | undefined> {
    const wants = await this.o.store.wantedReads(500);
    const want = this.pick(wants);
    if (!want) {
      // A change waits only for its ticket's gap after the last read: worth waiting for here.
      const soonest = Math.min(
        ...wants
          .filter((w) => w.priority === 0)
          .map((w) => (this.notBefore.get(w.ticketId) ?? 0) - this.now()),
      );
      if (!(soonest <= (this.o.gapMs ?? 1_500))) return undefined;
      // Then look again: a timer may fire a millisecond before Date.now() reaches the gap's end, and
      // the change would wait for the next drain instead.
      await new Promise((r) => setTimeout(r, soonest));
      return this.readOne();
    }
    const pause = this.lastRead + (this.o.paceMs?.() ?? 0) - this.now();
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
    this.lastRead = this.now();
    const { ticketId } = want;
    const readFrom = new Date(this.now()).toISOString();
    if (want.priority === 1) this.lastVerify = this.now();
    try {
      const kept = await this.o.collector.keptRecord(ticketId);
      const t = kept ?? (await this.o.platform.getTicket({ ticketId }, backfill));
      const written = await this.o.collector.collect(t, { readFrom, versionSeen: kept !== undefined });
      for (const c of want.channels) this.served.set(c, this.now());
      this.reads.push(this.now());
      this.notBefore.set(ticketId, this.now() + (this.o.gapMs ?? 1_500));
      return written;
    } catch (error) {
      if (error instanceof PlatformHttpError && error.status === 404) {
        // Deleted meanwhile: nothing left to read.
        await this.o.store.advance([], { ticketId, readFrom });
        return 0;
      }
      this.notBefore.set(ticketId, this.now() + (this.o.retryMs ?? 5_000));
      throw error;
    }
  }

  /**
   * Reads the backlog until nothing is due (or `keepGoing` says stop); one drain at a time (a
   * second call waits for the running one). Answers how many items were written.
   */
  drain(keepGoing: () => Promise<boolean> = async () => true): Promise<number> {
    this.running ??= (async () => {
      let written = 0;
      try {
        while (await keepGoing()) {
          const n = await this.readOne();
          if (n === undefined) break;
          written += n;
        }
      } finally {
        this.running = undefined;
      }
      return written;
    })();
    return this.running;
  }

  async state(): Promise<BacklogState> {
    const size = await this.o.store.backlogSize();
    const now = this.now();
    while (this.reads.length && (this.reads[0] as number) < now - paceWindowMs) this.reads.shift();
    const span = this.reads.length ? Math.max(now - (this.reads[0] as number), 60_000) : undefined;
    const perMs = span ? this.reads.length / span : undefined;
    return {
      reads: size.reads,
      verify: size.verify,
      oldestMs: size.oldest ? Math.max(0, now - Date.parse(size.oldest)) : undefined,
      drainMs: size.reads === 0 ? 0 : perMs ? size.reads / perMs : undefined,
    };
  }
}
