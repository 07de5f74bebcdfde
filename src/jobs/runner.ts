import { runAs } from '../observability/last-resort.js';
import type { Logger } from '../observability/logger.js';
import { runInLane } from '../platform/lane.js';
import type { Priority } from '../platform/rate-budget.js';

/** A named background job run every `everyMs`: never two runs at once, failures logged and isolated. */
export interface Job {
  name: string;
  /** From the start of a run to the start of the next (asked again after each run when a function). */
  everyMs: number | (() => number);
  run: () => Promise<unknown>;
  /** `trigger()` never starts runs closer than this (default 1 s): a flood of triggers costs a few runs. */
  minGapMs?: number;
  /** The lane its platform requests wait in (default background; `backfill` waits for every other job). */
  lane?: Exclude<Priority, 'interactive'>;
}

interface State {
  job: Job;
  timer: NodeJS.Timeout | undefined;
  running: Promise<unknown> | undefined;
  again: boolean;
  lastStart: number;
  /** When the timer is set to run it next. */
  dueAt: number;
}

/**
 * Runs jobs: each `everyMs` after its previous run started (never two at once), or sooner when
 * triggered; `stop()` resolves once no run is in progress.
 */
export class JobRunner {
  private readonly jobs = new Map<string, State>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  start(job: Job): void {
    const state: State = { job, timer: undefined, running: undefined, again: false, lastStart: 0, dueAt: 0 };
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
    if (state.timer && state.dueAt <= at) return;
    this.schedule(state, at - Date.now());
  }

  private schedule(state: State, inMs: number): void {
    clearTimeout(state.timer);
    state.dueAt = Date.now() + Math.max(0, inMs);
    state.timer = setTimeout(() => this.runNow(state), Math.max(0, inMs));
    state.timer.unref();
  }

  private runNow(state: State): void {
    if (this.stopped || state.running) return;
    clearTimeout(state.timer);
    state.timer = undefined;
    state.lastStart = Date.now();
    state.again = false;
    // Everything a job asks of the platform waits in its background lane (see `runInLane`).
    state.running = runAs(`job ${state.job.name}`, () =>
      runInLane(state.job.lane ?? 'background', () => state.job.run()),
    )
      .catch((error: unknown) =>
        this.logger.error({ err: error, job: state.job.name }, 'background job failed'),
      )
      .finally(() => {
        state.running = undefined;
        if (this.stopped) return;
        if (state.again) this.trigger(state.job.name);
        else {
          const every = state.job.everyMs;
          // A steady rate: the next run is `everyMs` after this one started (at once if it ran longer).
          this.schedule(
            state,
            state.lastStart + (typeof every === 'function' ? every() : every) - Date.now(),
          );
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.jobs.values()) clearTimeout(s.timer);
    await Promise.all([...this.jobs.values()].map((s) => s.running));
  }
}
