import { type Priority, peoplesTurn, priorities, TurnHeldError } from './lane.js';

export interface RateBudgetOptions {
  /** Requests allowed per window (the platform's ~10 per minute per user). */
  perWindow: number;
  windowMs?: number;
  /**
   * Slots background work may never take, so a person is served within seconds even while the
   * poller is busy. Default: 20% of the budget, at least 1 when the budget is 2 or more.
   */
  interactiveReserve?: number;
  now?: () => number;
  /** A people's turn waiting in a background lane throws (tests) instead of being counted (see `inPeoplesTurn`). */
  strictTurns?: boolean;
}

/**
 * The grants of the current window, kept outside the process (the store), so that the next process
 * starts with the window as the platform sees it instead of an empty one.
 */
export interface GrantMemory {
  /** The grants remembered (epoch ms), an earlier process's included. */
  recall(): Promise<number[]>;
  /** Keeps the grants still in the window (a few; called at most every `keepEveryMs`). */
  keep(grants: readonly number[]): Promise<void>;
}

/** How long the budget waits for the memory at its start before granting without it. */
export const recallDeadlineMs = 2_000;
/** Grants are kept at most this often (each keep is one small store write). */
const keepEveryMs = 250;

/** See `leavesAt`: how much earlier than the announced reset a request must have been sent to be forgotten then. */
const alignMarginMs = 1_500;

/**
 * A request waiting for the budget: one record in its lane's queue, holding only what settles its
 * promise. Thousands may wait at once (a burst of people's requests as shipped, at 10 a minute), and
 * every young collection copies what they keep alive: no closure per waiter, no timer per waiter.
 * The record is itself the listener of its abort signal (`handleEvent`), so aborting needs no closure.
 */
class Waiter {
  /** Granted, rejected or aborted: a queue skips it (see `WaitQueue`). */
  done = false;

  constructor(
    readonly resolve: (grantedAt: number) => void,
    readonly reject: (e: unknown) => void,
    readonly signal: AbortSignal | undefined,
    private readonly queue: WaitQueue,
  ) {}

  /** The signal aborted: the request leaves its queue, rejected with the signal's reason. */
  handleEvent(): void {
    if (this.done) return;
    this.done = true;
    this.queue.left();
    this.reject(this.signal?.reason);
  }

  /** Settled by the budget: no longer listens to its signal. */
  settle(): void {
    this.done = true;
    this.signal?.removeEventListener('abort', this);
  }
}

/**
 * One lane's waiters, first come first served. Leaving (an abort) only marks the record, which
 * `shift` skips, so neither an abort nor a grant moves the others; the array is compacted now and then.
 */
class WaitQueue {
  private items: Waiter[] = [];
  private head = 0;
  /** Waiters still waiting. */
  length = 0;

  push(w: Waiter): void {
    this.items.push(w);
    this.length++;
  }

  /** The first waiter still waiting, taken out of the queue. */
  shift(): Waiter | undefined {
    while (this.head < this.items.length) {
      const w = this.items[this.head++] as Waiter;
      if (w.done) continue;
      this.length--;
      this.compact();
      return w;
    }
    return undefined;
  }

  /** A waiter marked done from outside (aborted) left. */
  left(): void {
    this.length--;
    if (this.length === 0) {
      this.items = [];
      this.head = 0;
    }
  }

  /** Every waiter still waiting, taken out of the queue. */
  drain(): Waiter[] {
    const live = this.items.slice(this.head).filter((w) => !w.done);
    this.items = [];
    this.head = 0;
    this.length = 0;
    return live;
  }

  private compact(): void {
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * How background work spreads through a window. It may take `burst` grants at once; beyond that, the
 * n-th request counted in the window waits until the window's oldest request is `(n - burst) * stepMs`
 * old. So when background work has filled its share, the window's requests span at least
 * `windowMs - maxWaitMs`, and the oldest leaves within `maxWaitMs`: a person asking beyond the reserve
 * waits seconds for the next slot, not the rest of a window a burst filled in a second (issue 38).
 * A background burst's throughput is unchanged (its share of every window); only its first seconds
 * are spread.
 */
export interface Spread {
  burst: number;
  stepMs: number;
  /** The longest a person beyond the reserve waits for a slot while background work holds its share. */
  maxWaitMs: number;
}

export function spreadOf(perWindow: number, reserve: number, windowMs: number): Spread {
  const share = perWindow - reserve;
  const burst = Math.max(1, Math.floor(share / 3));
  // 1.5 slots' worth of a window (9 s of a minute at 10 a minute).
  const maxWaitMs = Math.min(windowMs, Math.ceil((1.5 * windowMs) / perWindow));
  const stepMs = share > burst ? (windowMs - maxWaitMs) / (share - burst) : 0;
  return { burst, stepMs, maxWaitMs };
}

/** The requests of a window kept for people by default: 20%, at least 1 when the budget is 2 or more. */
export const defaultReserve = (perWindow: number) =>
  perWindow >= 2 ? Math.max(1, Math.floor(perWindow * 0.2)) : 0;

/**
 * The one scheduler every platform call goes through. It keeps a sliding window of the requests it
 * granted (stricter than the platform's fixed window, so it cannot overrun it), learns from
 * `X-RateLimit-Remaining`/`X-RateLimit-Reset` (or Reset alone) and 429s (another process may share the same user),
 * and serves waiting requests by priority: interactive, then background, then backfill (a scan never
 * queues behind a long read backlog). Background work spreads through the window (`Spread`), and the
 * grants of the window can be kept across a restart (`remember`).
 */
export class RateBudget {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly reserve: number;
  readonly spread: Spread;
  private readonly now: () => number;
  private granted: number[] = [];
  private readonly queues: Record<Priority, WaitQueue> = {
    interactive: new WaitQueue(),
    background: new WaitQueue(),
    backfill: new WaitQueue(),
  };
  private blockedUntil = 0;
  private serverRemaining: number | undefined;
  private serverResetAt = 0;
  /**
   * When the platform's own (fixed) window restarts, from `X-RateLimit-Reset` (the one header the
   * real service documents): requests sent before it then no longer count there (see `leavesAt`).
   */
  private windowResetAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly strictTurns: boolean;
  /** Acquires in a background lane made inside a people's turn (see `inPeoplesTurn`): should stay 0. */
  turnsHeld = 0;
  /** Until the memory answered (or its deadline passed), nothing is granted (see `remember`). */
  private recalling: Promise<void> | undefined;
  private memory: GrantMemory | undefined;
  private keepTimer: NodeJS.Timeout | undefined;
  private keeping: Promise<void> = Promise.resolve();

  constructor(options: RateBudgetOptions) {
    this.strictTurns = options.strictTurns ?? false;
    this.perWindow = options.perWindow;
    this.windowMs = options.windowMs ?? 60_000;
    this.reserve = Math.min(options.interactiveReserve ?? defaultReserve(this.perWindow), this.perWindow - 1);
    this.now = options.now ?? Date.now;
    this.spread = spreadOf(this.perWindow, this.reserve, this.windowMs);
  }

  /**
   * Starts from the grants `memory` remembers (an earlier process's, still in the window) and keeps
   * this process's there. Nothing is granted until it answered, for at most `recallDeadlineMs`: a
   * store that does not answer costs the memory, never the start. Resolves once recalled.
   */
  remember(memory: GrantMemory): Promise<void> {
    this.memory = memory;
    const recalled = memory
      .recall()
      .then((grants) => {
        const now = this.now();
        const recent = grants.filter((g) => Number.isFinite(g) && g <= now && g + this.windowMs > now);
        this.granted = [...recent, ...this.granted].slice(-Math.max(this.perWindow, recent.length));
      })
      .catch(() => undefined);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, recallDeadlineMs).unref?.());
    this.recalling = Promise.race([recalled, deadline]).then(() => {
      this.recalling = undefined;
      this.pump();
    });
    return this.recalling;
  }

  /**
   * Resolves when a request of this priority may be sent, with the instant it was granted (to give
   * to `answered`). Rejects with the signal's reason if aborted.
   */
  acquire(priority: Priority, signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    const turn = priority === 'interactive' ? undefined : peoplesTurn();
    if (turn) {
      this.turnsHeld++;
      if (this.strictTurns) return Promise.reject(new TurnHeldError(turn, priority));
    }
    const queue = this.queues[priority];
    let waiter: Waiter | undefined;
    const promise = new Promise<number>((resolve, reject) => {
      waiter = new Waiter(resolve, reject, signal, queue);
    });
    if (!waiter) throw new Error('unreachable: a promise runs its executor at once');
    signal?.addEventListener('abort', waiter, { once: true });
    queue.push(waiter);
    if (!this.recalling) this.pump();
    return promise;
  }

  /** About how long a request of this priority asked now would wait, in ms (0 when it would go at once). */
  estimateWaitMs(priority: Priority): number {
    const now = this.now();
    this.prune(now);
    // Those served before it: its own lane and every lane before it.
    const ahead = priorities
      .slice(0, priorities.indexOf(priority) + 1)
      .reduce((n, p) => n + this.queues[p].length, 0);
    const reserve = priority === 'interactive' ? 0 : this.reserve;
    const capacity = this.perWindow - reserve;
    const free = Math.max(0, capacity - this.granted.length);
    let at = now;
    if (ahead >= free) {
      // Our slot opens when enough granted requests have left the window; past the log, each
      // further window frees `capacity` slots.
      const index = ahead - free;
      const leaving = this.granted.map((g) => this.leavesAt(g)).sort((a, b) => a - b);
      at =
        index < leaving.length
          ? (leaving[index] as number)
          : (leaving[0] ?? now) +
            this.windowMs * (Math.floor((index - leaving.length) / Math.max(1, capacity)) + 1);
    }
    if (reserve > 0 && ahead === 0) at = Math.max(at, this.spreadAt(now));
    const serverBound = this.serverRemaining !== undefined && now < this.serverResetAt;
    if (serverBound && ahead >= (this.serverRemaining as number) - reserve)
      at = Math.max(at, this.serverResetAt);
    return Math.max(at, this.blockedUntil, now) - now;
  }

  /**
   * Learns from the platform's rate-limit headers (values as sent: remaining count, seconds until
   * reset). Reset aligns our window with the platform's (requests sent before that instant stop
   * counting then): with Reset alone (all the real service documents) that is all an answer that went
   * through tells, and it never blocks. With Remaining, the platform's count also bounds ours.
   */
  observe(remaining: number | undefined, resetSeconds: number | undefined): void {
    const now = this.now();
    // The platform's window restarts then (a fixed window): what was sent before stops counting.
    if (resetSeconds !== undefined && Number.isFinite(resetSeconds) && resetSeconds > 0)
      this.windowResetAt = now + resetSeconds * 1000;
    if (remaining !== undefined && Number.isFinite(remaining)) {
      this.serverRemaining = remaining;
      this.serverResetAt = now + Math.max(0, resetSeconds ?? this.windowMs / 1000) * 1000;
      if (remaining <= 0) this.blockedUntil = Math.max(this.blockedUntil, this.serverResetAt);
    }
    // A waiter may now go at the platform's restart, before our sliding window would let it.
    this.schedule();
  }

  /**
   * When a request granted at `grantedAt` stops counting: a window after it (our sliding window), or
   * sooner when the platform's window restarts after it was counted there. The platform's window is a
   * fixed minute ending at the announced reset, so it opened a window before: a request sent before
   * that (an earlier process's, kept across a restart) counts no more since. The margin covers the
   * header's rounding to the second and the request's time on the wire (counted on arrival).
   */
  private leavesAt(grantedAt: number): number {
    const reset = this.windowResetAt;
    const slide = grantedAt + this.windowMs;
    if (reset <= 0) return slide;
    const opened = reset - this.windowMs;
    if (grantedAt < opened - alignMarginMs) return Math.min(slide, opened);
    return grantedAt < reset - alignMarginMs ? Math.min(slide, reset) : slide;
  }

  /**
   * The answer to the request granted at `grantedAt` arrived: the platform counted it somewhere
   * between then and now, so it is counted from now (a slow first connection must not let the
   * request a window later arrive before the platform's window is over).
   */
  answered(grantedAt: number): void {
    const i = this.granted.indexOf(grantedAt);
    if (i < 0) return;
    this.granted.splice(i, 1);
    this.granted.push(Math.max(grantedAt, this.now()));
    this.keepSoon();
  }

  /** A 429 arrived: nothing is sent before `waitMs` has passed. */
  pauseFor(waitMs: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + waitMs);
    this.serverRemaining = 0;
    this.serverResetAt = this.blockedUntil;
    this.schedule();
  }

  /**
   * Rejects every waiter (used at shutdown); resolves once the grants are kept in the memory, if any
   * (so the next process starts from them).
   */
  close(reason: unknown = new Error('rate budget closed')): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.keepTimer) {
      clearTimeout(this.keepTimer);
      this.keepTimer = undefined;
      this.keepNow();
    }
    for (const q of Object.values(this.queues)) {
      for (const w of q.drain()) {
        w.settle();
        w.reject(reason);
      }
    }
    return this.keeping;
  }

  /** Keeps the window's grants in the memory shortly (one write for a burst of grants). */
  private keepSoon(): void {
    if (!this.memory || this.keepTimer) return;
    this.keepTimer = setTimeout(() => {
      this.keepTimer = undefined;
      this.keepNow();
    }, keepEveryMs);
    this.keepTimer.unref?.();
  }

  private keepNow(): void {
    const memory = this.memory;
    if (!memory) return;
    this.prune(this.now());
    const grants = [...this.granted];
    // One write at a time, in order: a slow store never reorders what it keeps.
    this.keeping = this.keeping.then(() => memory.keep(grants)).catch(() => undefined);
  }

  /**
   * When background work may take its next grant by the spread (see `Spread`): at once while the
   * window holds fewer than `burst`, then as the window's oldest request ages.
   */
  private spreadAt(now: number): number {
    const n = this.granted.length;
    const { burst, stepMs } = this.spread;
    if (n < burst) return now;
    const oldest = this.granted.reduce((a, b) => Math.min(a, b), now);
    return oldest + (n + 1 - burst) * stepMs;
  }

  /** Requests counted in the window now (granted and not yet out of it): what the metrics call used. */
  get used(): number {
    this.prune(this.now());
    return this.granted.length;
  }

  /** Slots a person's request could take now (the reserve included): 0 when it would wait. */
  get free(): number {
    const now = this.now();
    this.prune(now);
    return Math.max(0, this.capacity('interactive', now) - this.queues.interactive.length);
  }

  /** Requests queued, per priority (for metrics and tests). */
  get queued(): Record<Priority, number> {
    return {
      interactive: this.queues.interactive.length,
      background: this.queues.background.length,
      backfill: this.queues.backfill.length,
    };
  }

  private prune(now: number): void {
    this.granted = this.granted.filter((g) => this.leavesAt(g) > now);
  }

  /** Slots this priority could take right now. */
  private capacity(priority: Priority, now: number): number {
    if (now < this.blockedUntil) return 0;
    let free = this.perWindow - this.granted.length;
    if (this.serverRemaining !== undefined && now < this.serverResetAt)
      free = Math.min(free, this.serverRemaining);
    if (priority === 'interactive') return Math.max(0, free);
    return this.spreadAt(now) > now ? 0 : Math.max(0, free - this.reserve);
  }

  private pump(): void {
    if (this.recalling) return;
    const now = this.now();
    this.prune(now);
    for (;;) {
      const priority = priorities.find((p) => this.queues[p].length > 0 && this.capacity(p, now) > 0);
      if (!priority) break;
      const waiter = this.queues[priority].shift() as Waiter;
      this.granted.push(now);
      if (this.serverRemaining !== undefined) this.serverRemaining--;
      waiter.settle();
      waiter.resolve(now);
      this.keepSoon();
    }
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (priorities.every((p) => !this.queues[p].length)) return;
    const now = this.now();
    const candidates = [
      this.blockedUntil,
      this.serverResetAt,
      this.windowResetAt,
      ...this.granted.slice(0, 1).map((g) => this.leavesAt(g)),
      (this.granted[0] ?? now) + this.windowMs,
      ...(this.queues.background.length || this.queues.backfill.length ? [this.spreadAt(now)] : []),
    ].filter((t) => t > now);
    const at = candidates.length ? Math.min(...candidates) : now + 1;
    this.timer = setTimeout(() => this.pump(), Math.max(1, at - now));
    this.timer.unref?.();
  }
}
