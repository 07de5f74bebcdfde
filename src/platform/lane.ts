import { AsyncLocalStorage } from 'node:async_hooks';
import type { Priority } from './rate-budget.js';

/*
 * The lane a platform request runs in comes from the work that makes it, not from each call site:
 * the job runner runs every job in the background lane, so whatever a job calls (a rights check, a
 * card's summary, a digest's "may post") waits behind people's requests and never spends the reserve
 * the rate budget keeps for them. Outside a job (a command, a click, a form) the lane is interactive.
 * A call that names its priority still wins.
 */
const lane = new AsyncLocalStorage<Priority>();

/** The lane of the work in progress: `interactive` unless it runs inside `runInLane`. */
export const currentLane = (): Priority => lane.getStore() ?? 'interactive';

/** Runs `work` (and everything it awaits or starts) in `priority`'s lane. */
export const runInLane = <T>(priority: Priority, work: () => T): T => lane.run(priority, work);
