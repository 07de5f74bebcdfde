import type { WebhookSignal } from '../platform/webhook-signal.js';
import { webhookIntake } from './replicas/intake.js';
import type { StoreWakes, Wake } from './replicas/wakes.js';
import { type LeftForNextStart, nothingLeft, within } from './shutdown.js';
import { type Jobs, startJobs } from './start-jobs.js';
import { type JobsOptions, startDelivery } from './starters.js';

/** How the jobs are paced; without `pollIntervalMs`, only delivery runs (tests that drive the platform's changes themselves). */
export type JobPace = Partial<Pick<JobsOptions, 'pollIntervalMs'>> &
  Pick<JobsOptions, 'deliverEveryMs' | 'paceMs' | 'timeScale' | 'reminderScanMs'>;

/** What the jobs work with, built once by the composition root. */
export type JobParts = Omit<JobsOptions, keyof JobPace | 'wakes'>;

export interface JobHostOptions {
  /** Set: the jobs run (paced so); unset: none, and a webhook's signal is not taken. */
  pace: JobPace | undefined;
  parts: JobParts;
  /** The writes of this process that give the jobs work (`wakeOnWrites` over `parts.store`). */
  writes: Pick<StoreWakes, 'listen'>;
  /**
   * Set: `start` leaves the jobs off, `runJobs` starts and stops them (distribution mode: they run on
   * the replica holding the workspace's share); meanwhile its webhooks are written to the store.
   */
  whenAsked?: boolean | undefined;
  /**
   * With `whenAsked`: told of each write of this process that gives the jobs work while they run on
   * another replica (a webhook taken here, a person's line), for that replica to hear it.
   */
  writesElsewhere?: ((wake: Wake) => void) | undefined;
}

/** What stops the same way whether the poller runs or only delivery. */
type Background = Pick<Jobs, 'drain' | 'stop' | 'abandon'>;

/**
 * The one owner of a workspace's jobs' life: where they run (here from the start, or here only
 * while `runJobs(true)` says so), what a webhook's signal goes to (the running jobs, or the intake
 * that writes it for the replica running them), what wakes them (this process's writes, and another
 * replica's relayed by `wake`; this process's writes relayed out while they run elsewhere), and how
 * they stop.
 */
export class JobHost {
  private jobs: Jobs | undefined;
  /** Delivery alone (no `pollIntervalMs`). */
  private delivery: Background | undefined;
  /** Where the jobs run elsewhere, what a webhook tells is written here for them. */
  private readonly intake: ReturnType<typeof webhookIntake> | undefined;
  /** The jobs' listeners: they hear this process's writes, and those another replica tells of (`wake`). */
  private readonly relayed = new Set<(wake: Wake) => void>();
  private readonly wakes: Pick<StoreWakes, 'listen'>;
  private stopping: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly o: JobHostOptions) {
    this.wakes = {
      listen: (listener) => {
        const unlisten = o.writes.listen(listener);
        this.relayed.add(listener);
        return () => {
          unlisten();
          this.relayed.delete(listener);
        };
      },
    };
    const tell = o.writesElsewhere;
    if (tell)
      o.writes.listen((wake) => {
        if (!this.background()) tell(wake);
      });
    const { parts } = o;
    this.intake =
      o.whenAsked && o.pace?.pollIntervalMs !== undefined
        ? webhookIntake({
            platform: parts.platform,
            store: parts.store,
            logger: parts.logger,
            publisher: parts.publisher,
            tickets: parts.tickets,
            timeScale: o.pace.timeScale,
          })
        : undefined;
  }

  /** The running poller and its jobs (when they run here, with a `pollIntervalMs`). */
  running(): Jobs | undefined {
    return this.jobs;
  }

  /** Whether the jobs (or delivery alone) run here now. */
  here(): boolean {
    return this.background() !== undefined;
  }

  /** Starts the jobs here, unless `whenAsked` (then as where they run elsewhere, until `runJobs`). */
  start(): void {
    if (this.o.whenAsked) this.withoutJobs();
    else this.startHere();
  }

  /** What a platform webhook told: to the running jobs, else to the intake (before the jobs start: the first scan finds it). */
  async onWebhook(signal: WebhookSignal): Promise<unknown> {
    return (this.jobs ?? this.intake)?.onWebhook(signal);
  }

  /** Another replica's write gave the jobs work: they hear it as they hear this process's own writes. */
  wake(wake: Wake): void {
    for (const listener of this.relayed) listener(wake);
  }

  /** With `whenAsked`: starts the jobs (`here`), or stops them and resolves once they stopped. */
  async runJobs(here: boolean): Promise<void> {
    await this.stopping;
    if (this.stopped || !this.o.whenAsked) return;
    if (here) return this.startHere();
    const background = this.background();
    this.jobs = undefined;
    this.delivery = undefined;
    if (!background) return;
    // Waits for runs in progress and releases the poller's lease: the next replica leads at once.
    this.stopping = background.stop().finally(() => {
      this.stopping = undefined;
      this.withoutJobs();
    });
    await this.stopping;
  }

  /**
   * Stops for good: no new run nor claim, then `meanwhile` (Slack's requests stopping) and the runs
   * in progress may finish until `deadline` (epoch ms); what is still claimed is released after both.
   * Resolves with what is left for the next start, and whether `meanwhile` finished in time.
   */
  async stop(deadline: number, meanwhile: () => Promise<unknown>): Promise<LeftForNextStart> {
    this.stopped = true;
    await within(this.stopping ?? Promise.resolve(), deadline);
    const background = this.background();
    background?.drain();
    const [requestsFinished] = await Promise.all([
      within(meanwhile(), deadline),
      within(background?.stop() ?? Promise.resolve(), deadline),
      within(this.intake?.settled() ?? Promise.resolve(), deadline),
    ]);
    // What is still claimed (time ran out) is released now; what the drain released is counted too.
    const left = background ? await background.abandon() : nothingLeft();
    return { ...left, requestsFinished };
  }

  private background(): Background | undefined {
    return this.jobs ?? this.delivery;
  }

  /** The jobs, on this process (idempotent). */
  private startHere(): void {
    const { pace, parts } = this.o;
    if (!pace || this.background()) return;
    const { pollIntervalMs, ...rest } = pace;
    const common = { ...parts, ...rest, wakes: this.wakes };
    if (pollIntervalMs === undefined) this.delivery = startDelivery(common);
    else this.jobs = startJobs({ ...common, pollIntervalMs });
  }

  /** No jobs here (their runner stopped): the cards and the directory are refreshed as without jobs. */
  private withoutJobs(): void {
    this.intake?.listen();
    const { directory } = this.o.parts;
    directory?.whenStale(() => void directory.refresh().catch(() => undefined));
  }
}
