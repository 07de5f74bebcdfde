import { version } from './version.js';

/** A check's outcome: what it learnt, or the one sentence naming the fix (no secret in it). */
export type CheckResult<T = undefined> = { ok: true; info: T } | { ok: false; problem: string };

/** What the platform client records of its own failures (its `findings`), as readiness reads it. */
interface PlatformFailures {
  findings: {
    readonly auth: { message: string } | undefined;
    readonly unreachable: { message: string } | undefined;
  };
}

/** One readiness check: ok, or the sentence saying what is wrong (no secret in it). */
export interface CheckState {
  ok: boolean;
  problem?: string;
  /** What an operator may want to know while it is ok (the ticket events' backlog). */
  detail?: string;
}

/** The body of `/readyz`: every check, with a sentence for the failing ones. */
export interface ReadinessReport {
  ok: boolean;
  /** The release answering (package.json's version): which one a replica runs, mid-upgrade. */
  version: string;
  checks: Record<string, CheckState>;
}

/** Minimal logger (pino-compatible). */
interface ReadinessLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/**
 * Whether the platform is usable: the last `/users/me` check passed, no request has since gone
 * unanswered, and the platform has not refused our credentials (`findings.auth`, recorded by the
 * client on a 401). While it is not, `/users/me` is asked again once per `intervalMs`, in the
 * background lane (people in Slack come first), and never more often: `/readyz` itself sends nothing.
 */
export class PlatformReadiness {
  private last: CheckResult<unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly platform: PlatformFailures,
    private readonly recheck: () => Promise<CheckResult<unknown>>,
    private readonly logger: ReadinessLogger,
    private readonly intervalMs = 60_000,
  ) {}

  /** Records a check's result (the start-up check, then each re-check). */
  record(result: CheckResult<unknown>): void {
    const wasOk = this.state().ok;
    this.last = result;
    const now = this.state();
    if (now.ok && !wasOk && this.timer) this.logger.info({}, 'platform: reachable and authenticated again');
    else if (!now.ok && wasOk) this.logger.warn({}, now.problem ?? 'platform: not ready');
  }

  state(): CheckState {
    if (!this.last) return { ok: false, problem: 'platform: not checked yet' };
    if (!this.last.ok) return { ok: false, problem: this.last.problem };
    const auth = this.platform.findings.auth;
    if (auth) return { ok: false, problem: auth.message };
    const down = this.platform.findings.unreachable;
    if (down) return { ok: false, problem: down.message };
    return { ok: true };
  }

  /** Starts the re-checks (unref'd: they never keep the process alive). */
  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.running || this.state().ok) return;
    this.running = true;
    try {
      this.record(await this.recheck());
    } finally {
      this.running = false;
    }
  }
}

/**
 * A dependency that can fail after start (the store's database): probed every `intervalMs` in the
 * background, each probe bounded by `timeoutMs`, so `/readyz` answers from the last probe at once
 * and never hammers it. Transitions are logged once each way.
 */
export class ProbedCheck {
  private last: CheckState = { ok: true };
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly probe: () => Promise<void>,
    /** The sentence naming the fix for a failed probe. */
    private readonly describe: (error: unknown) => string,
    private readonly logger: ReadinessLogger,
    private readonly intervalMs = 5_000,
    private readonly timeoutMs = 2_000,
  ) {}

  state(): CheckState {
    return this.last;
  }

  /** Probes once now (and records it); the periodic probes call this too. */
  async check(): Promise<CheckState> {
    if (this.running) return this.last;
    this.running = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.probe(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${this.timeoutMs} ms`)),
            this.timeoutMs,
          );
        }),
      ]);
      if (!this.last.ok) this.logger.info({}, 'store: reachable again');
      this.last = { ok: true };
    } catch (error) {
      const problem = this.describe(error);
      if (this.last.ok) this.logger.warn({}, problem);
      this.last = { ok: false, problem };
    } finally {
      clearTimeout(timer);
      this.running = false;
    }
    return this.last;
  }

  /** Starts the probes (unref'd: they never keep the process alive). */
  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Gathers the checks `/readyz` reports. */
export class Readiness {
  private readonly checks = new Map<string, () => CheckState>();

  add(name: string, check: () => CheckState): this {
    this.checks.set(name, check);
    return this;
  }

  report(): ReadinessReport {
    const checks: Record<string, CheckState> = {};
    for (const [name, check] of this.checks) checks[name] = check();
    return { ok: Object.values(checks).every((c) => c.ok), version, checks };
  }
}
