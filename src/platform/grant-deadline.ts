import { type GrantBy, runWith, workFrame } from '../observability/work-frame.js';
import { PlatformGrantDeadlineError } from './errors.js';

/**
 * A deadline for the rate budget's grants, for work that must answer within a time (a Workflow
 * Builder step: Slack waits for its `complete` or `fail`). A request still waiting for the budget at
 * the deadline leaves its queue and is never sent (`PlatformGrantDeadlineError`); one the budget
 * could not grant before the deadline fails at once. Once a write was granted (the platform may
 * have done it), the deadline no longer applies: the work's reads after it finish, however long
 * they wait, so its outcome is told, never lost.
 */
class GrantDeadline implements GrantBy {
  private readonly controller = new AbortController();
  private readonly at: number;
  private done = false;
  readonly timer: NodeJS.Timeout;

  constructor(readonly ms: number) {
    this.at = Date.now() + ms;
    this.timer = setTimeout(() => this.controller.abort(new PlatformGrantDeadlineError('request', ms)), ms);
    this.timer.unref();
  }

  get signal(): AbortSignal | undefined {
    return this.done ? undefined : this.controller.signal;
  }

  remainingMs(): number {
    return this.done ? Number.POSITIVE_INFINITY : Math.max(0, this.at - Date.now());
  }

  wrote(): void {
    this.done = true;
  }
}

/** Runs `work` with its platform requests granted within `ms` or not sent (see `GrantDeadline`). */
export async function withGrantDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const deadline = new GrantDeadline(ms);
  try {
    return await runWith({ grantBy: deadline }, work);
  } finally {
    clearTimeout(deadline.timer);
  }
}

/** The deadline of the work in progress, if it has one. */
export const grantDeadline = (): GrantBy | undefined => workFrame()?.grantBy;
