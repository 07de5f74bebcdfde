import { AsyncLocalStorage } from 'node:async_hooks';

/** A run the scheduler holds: cancelled by `Scheduler.cancel`. */
export interface Scheduled {
  readonly at: number;
  /** Its place in the heap; -1 once fired or cancelled. */
  index: number;
  readonly seq: number;
  readonly fire: () => void;
}

/** The longest delay `setTimeout` takes (about 24.8 days); a later time is reached in steps. */
const longestDelayMs = 2 ** 31 - 1;

/*
 * The context of this module's first import: no job, no request, no lane. The one timer is always
 * armed in it, so what it fires never inherits the lane, the people's turn or the job name of
 * whichever caller happened to arm it last (each job run sets its own).
 */
const outside = AsyncLocalStorage.snapshot();

/**
 * One timer for the process: every workspace's jobs wait in one heap ordered by their due time, and
 * one `setTimeout` is armed for the earliest. A thousand workspaces cost a thousand heap entries, not
 * a thousand timers; an idle job's entry is simply far in the future. The timer never keeps the
 * process alive (`unref`), as the jobs' own timers never did.
 */
export class Scheduler {
  private readonly heap: Scheduled[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (Infinity: none armed). */
  private armedAt = Number.POSITIVE_INFINITY;
  private seq = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Calls `fire` at `at` (epoch ms; a past time: at the next turn of the event loop). */
  at(at: number, fire: () => void): Scheduled {
    const entry: Scheduled = { at, index: this.heap.length, seq: this.seq++, fire };
    this.heap.push(entry);
    this.up(entry.index);
    this.arm();
    return entry;
  }

  /** Forgets a run not fired yet (a fired or cancelled one: nothing). */
  cancel(entry: Scheduled | undefined): void {
    if (!entry || entry.index < 0) return;
    const i = entry.index;
    const last = this.heap.pop() as Scheduled;
    entry.index = -1;
    if (last !== entry) {
      this.heap[i] = last;
      last.index = i;
      this.down(i);
      this.up(last.index);
    }
    // The timer stays armed for an earlier time than needed at worst: it fires, finds nothing, re-arms.
    if (!this.heap.length) this.disarm();
  }

  /** How many runs wait (the benchmarks, the tests). */
  get size(): number {
    return this.heap.length;
  }

  /** The earliest run's time, if any. */
  get nextAt(): number | undefined {
    return this.heap[0]?.at;
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first) {
      this.disarm();
      return;
    }
    if (this.timer && this.armedAt <= first.at) return;
    this.disarm();
    const delay = Math.min(longestDelayMs, Math.max(0, first.at - this.now()));
    this.armedAt = this.now() + delay;
    this.timer = outside(() => setTimeout(() => this.fireDue(), delay));
    this.timer.unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
  }

  /** Fires every run that is due, earliest first, then arms the timer for the next. */
  private fireDue(): void {
    this.timer = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    const due: Scheduled[] = [];
    for (let first = this.heap[0]; first && first.at <= now; first = this.heap[0]) {
      this.cancel(first);
      due.push(first);
    }
    try {
      for (const entry of due) {
        try {
          entry.fire();
        } catch (error) {
          // One job's fault never keeps the others from running: the last resort hears it.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    } finally {
      this.arm();
    }
  }

  private before(a: Scheduled, b: Scheduled): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private up(i: number): void {
    const h = this.heap;
    const entry = h[i] as Scheduled;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Scheduled;
      if (!this.before(entry, parent)) break;
      h[i] = parent;
      parent.index = i;
      i = p;
    }
    h[i] = entry;
    entry.index = i;
  }

  private down(i: number): void {
    const h = this.heap;
    const entry = h[i] as Scheduled;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const child = r < h.length && this.before(h[r] as Scheduled, h[l] as Scheduled) ? r : l;
      if (!this.before(h[child] as Scheduled, entry)) break;
      h[i] = h[child] as Scheduled;
      (h[i] as Scheduled).index = i;
      i = child;
    }
    h[i] = entry;
    entry.index = i;
  }
}

/** The process's scheduler: every `JobRunner` uses it unless given another (one workspace or a thousand). */
export const processScheduler = new Scheduler();
