import { runWith, workFrame } from '../observability/work-frame.js';

/**
 * Who is waiting for a platform request: a person in Slack, a background job that keeps Slack current
 * (scans, webhooks' consequences, digests), or background work that may wait for every other (the
 * read backlog's timeline reads, the directory's refresh): served in that order.
 */
export type Priority = 'interactive' | 'background' | 'backfill';

/** The lanes in the order they are served. */
export const priorities: readonly Priority[] = ['interactive', 'background', 'backfill'];

/*
 * The lane a platform request runs in comes from the work that makes it, not from each call site:
 * the job runner runs every job in the background lane, so whatever a job calls (a rights check, a
 * card's summary, a digest's "may post") waits behind people's requests and never spends the reserve
 * the rate budget keeps for them. Outside a job (a command, a click, a form) the lane is interactive.
 * A call that names its priority still wins.
 */

/** The lane of the work in progress: `interactive` unless it runs inside `runInLane`. */
export const currentLane = (): Priority => (workFrame()?.lane as Priority | undefined) ?? 'interactive';

/** Runs `work` (and everything it awaits or starts) in `priority`'s lane. */
export const runInLane = <T>(priority: Priority, work: () => T): T => runWith({ lane: priority }, work);

/*
 * People's turns: work that people may wait on together (a read the cache shares among the people who
 * ask for it at once). Such work must never wait for the budget in a background lane: whoever waits on
 * it would wait behind scans and reads. The rate budget checks it on every acquire (see `RateBudget`);
 * with `strict` (tests), a breach throws instead of being counted.
 */

/** Runs `work` as a turn people may wait on, named for the error a breach raises. */
export const inPeoplesTurn = <T>(name: string, work: () => T): T => runWith({ turn: name }, work);

/**
 * Runs `work` outside any people's turn: a job's run, which no person waits on even when a person's
 * work woke it (its timer would otherwise carry the turn it was set in).
 */
export const outsideTurns = <T>(work: () => T): T => runWith({ turn: undefined }, work);

/** The people's turn the work in progress runs in, if any. */
export const peoplesTurn = (): string | undefined => workFrame()?.turn;

/** A people's turn waited for the budget in a background lane (see `inPeoplesTurn`). */
export class TurnHeldError extends Error {
  readonly code = 'turn_held_across_budget';
  constructor(turn: string, priority: string) {
    super(`${turn} (a turn people wait on) waits for the platform budget in the ${priority} lane`);
  }
}
