import { runAs } from '../observability/last-resort.js';
import type { Logger } from '../observability/logger.js';
import { PlatformClosedError } from '../platform/errors.js';
import type { Priority } from '../platform/lane.js';
import { outsideTurns, runInLane } from '../platform/lane.js';
import { processScheduler, type Scheduled, type Scheduler } from './scheduler.js';

/** A named background job run every `everyMs`: never two runs at once, failures logged and isolated. */
export interface Job {
  name: string;
  /**
   * From the start of a run to the start of the next (asked again after each run when a function:
   * an idle job answers a long interval and is woken by `trigger` when there is work).
   */
  everyMs: number | (() => number);
  run: () => Promise<unknown>;
  /** `trigger()` never starts runs closer than this (default 1 s): a flood of triggers costs a few runs. */
  minGapMs?: number;
  /** The lane its platform requests wait in (default background; `backfill` waits for every other job). */
  lane?: Exclude<Priority, 'interactive'>;
}

const everyOf = (job: Job): number => (typeof job.everyMs === 'function' ? job.everyMs() : job.everyMs);

interface State {
  job: Job;
  /** The next run, in the scheduler. */
  next: Scheduled | undefined;
  running: Promise<unknown> | undefined;
  again: boolean;
  lastStart: number;
  /** Runs asked for at a later time (`triggerAt`), by that time. */
  wakes: Map<number, Scheduled>;
}

/**
 * Runs jobs: each `everyMs` after its previous run started (never two at once), or sooner when
 * triggered; `stop()` resolves once no run is in progress. Every runner's next runs wait in one
 * scheduler (the process's), so a workspace's jobs cost heap entries, not timers.
 */
export class JobRunner {
  private readonly jobs = new Map<string, State>();
  private stopped = false;

  constructor(
    private readonly logger: Logger,
    private readonly scheduler: Scheduler = processScheduler,
  ) {}

  start(job: Job): void {
    const state: State = {
      job,
      next: undefined,
      running: undefined,
      again: false,
      lastStart: 0,
      wakes: new Map(),
    };
    this.jobs.set(job.name, state);
    this.runNow(state);
  }

  /**
   * Runs the job as soon as its minimum gap allows (once more after the run in progress, if any);
   * never later than it was due anyway.
   */
  trigger(name: string): void {
    const state = this.jobs.get(name);
    if (!state || this.stopped) return;
    if (state.running) {
      state.again = true;
      return;
    }
    const at = state.lastStart + (state.job.minGapMs ?? 1_000);
    if (state.next && state.next.at <= at) return;
    this.schedule(state, at);
  }

  /**
   * Triggers the job at `at` (epoch ms), whatever runs before: work that becomes due later (an
   * outbox item held for a while, a retry's wait) wakes an idle job then. A time already asked for
   * costs nothing more.
   */
  triggerAt(name: string, at: number): void {
    const state = this.jobs.get(name);
    if (!state || this.stopped) return;
    if (at <= Date.now()) {
      this.trigger(name);
      return;
    }
    if (state.wakes.has(at)) return;
    const wake = this.scheduler.at(at, () => {
      state.wakes.delete(at);
      // A run that started at or after the time asked for has already seen what was due then.
      if (state.running === undefined || state.lastStart < at) this.trigger(name);
    });
    state.wakes.set(at, wake);
  }

  /**
   * Asks the job's `everyMs` again, now: a job that slept (idle) and has work again runs at its
   * pace from its last start (at once if that is past), not a heartbeat later.
   */
  repace(name: string): void {
    const state = this.jobs.get(name);
    if (!state || this.stopped || state.running) return;
    const at = state.lastStart + everyOf(state.job);
    if (!state.next || at < state.next.at) this.schedule(state, at);
  }

  private schedule(state: State, at: number): void {
    this.scheduler.cancel(state.next);
    state.next = this.scheduler.at(Math.max(Date.now(), at), () => {
      state.next = undefined;
      this.runNow(state);
    });
  }

  private runNow(state: State): void {
    if (this.stopped || state.running) return;
    this.scheduler.cancel(state.next);
    state.next = undefined;
    state.lastStart = Date.now();
    state.again = false;
    // Wakes asked for by now are answered by this run (two asks a millisecond apart: one run).
    for (const [at, wake] of state.wakes)
      if (at <= state.lastStart) {
        this.scheduler.cancel(wake);
        state.wakes.delete(at);
      }
    // Everything a job asks of the platform waits in its background lane (see `runInLane`), outside
    // the people's turn a wake may have come from; a run that throws at once is a failed run like one
    // that rejects.
    state.running = runAs(`job ${state.job.name}`, () =>
      outsideTurns(() => runInLane(state.job.lane ?? 'background', async () => state.job.run())),
    )
      .catch((error: unknown) => {
        // Ended by the stop (the platform client closed: its request was not sent): not a failure.
        if (error instanceof PlatformClosedError)
          this.logger.info({ job: state.job.name }, 'background job ended by the stop');
        else this.logger.error({ err: error, job: state.job.name }, 'background job failed');
      })
      .finally(() => {
        state.running = undefined;
        if (this.stopped) return;
        if (state.again) this.trigger(state.job.name);
        else {
          // A steady rate: the next run is `everyMs` after this one started (at once if it ran longer).
          this.schedule(state, state.lastStart + everyOf(state.job));
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.jobs.values()) {
      this.scheduler.cancel(s.next);
      s.next = undefined;
      for (const wake of s.wakes.values()) this.scheduler.cancel(wake);
      s.wakes.clear();
    }
    await Promise.all([...this.jobs.values()].map((s) => s.running));
  }
}
