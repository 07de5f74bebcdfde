import type { Logger } from '../observability/logger.js';

/** A named background job run every `everyMs`: never two runs at once, failures logged and isolated. */
export interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/** Runs jobs on their intervals; `stop()` resolves once no run is in progress. */
export class JobRunner {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Map<string, Promise<unknown>>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  start(job: Job): void {
    const tick = () => {
      if (this.stopped || this.running.has(job.name)) return; // no overlap
      const run = job
        .run()
        .catch((error: unknown) => this.logger.error({ err: error, job: job.name }, 'background job failed'))
        .finally(() => this.running.delete(job.name));
      this.running.set(job.name, run);
    };
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    this.timers.push(timer);
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.all(this.running.values());
  }
}
