import type { Logger } from './logger.js';
import { runWith, workFrame } from './work-frame.js';

/*
 * The last resort for an error no handler caught: an 'error' event nobody listened to, a throw in a
 * timer, a rejected promise nobody awaited. Every stream the bot opens has its errors heard where it
 * is opened and every listener's and job's failures are told or logged, so none is expected here;
 * one that still comes is logged with what was running and counted (`confdesk_escaped_errors_total`).
 *
 * The policy, by kind (docs/operations.md, "When an error escapes"):
 * - unhandledRejection: the bot stays up. The promise's own work is lost, but nothing was stopped
 *   half-way in a synchronous update of shared state: its awaits and `finally`s ran. (Node's own
 *   default would end the process: one person's request could stop every workspace.)
 * - uncaughtException: the bot stops gracefully (the shutdown path: requests in flight get
 *   SHUTDOWN_TIMEOUT_S) and exits 1 for the supervisor to restart it. The throw unwound code of
 *   unknown state (a turn never released, a job's running flag never cleared), so staying up could
 *   leave the bot quietly broken; what it must not lose is in the store, which the next start reads.
 */

/** The kinds of escape, as Node names the process events. */
export type EscapeKind = 'uncaughtException' | 'unhandledRejection';

/**
 * Runs `work` as `name` (a Slack listener, a background job): an error that escapes it, or anything it
 * started, is logged with this name.
 */
export function runAs<T>(name: string, work: () => T): T {
  return runWith({ name }, work);
}

/** Escapes since the process started, by kind: what `/metrics` reports (it reads them at scrape time). */
export const escapes: Record<EscapeKind, number> = { uncaughtException: 0, unhandledRejection: 0 };

export interface LastResortOptions {
  logger: Logger;
  /** Called after an uncaught exception: stop gracefully and exit non-zero (once is enough). */
  stop: (kind: EscapeKind) => void;
  /** Where the events come from: the process (a test passes an emitter of its own). */
  events?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
}

/** Installs the last resort on the process; answers a function that removes it. */
export function installLastResort(o: LastResortOptions): () => void {
  const events = o.events ?? process;
  const handle = (kind: EscapeKind) => (error: unknown) => {
    escapes[kind]++;
    const fields = { err: error, kind, in: workFrame()?.name ?? 'unknown' };
    if (kind === 'unhandledRejection') {
      o.logger.error(fields, 'a rejected promise nobody awaited: its work is lost; confdesk stays up');
      return;
    }
    o.logger.fatal(fields, 'an error escaped every handler: confdesk stops for its supervisor to restart it');
    o.stop(kind);
  };
  const onException = handle('uncaughtException');
  const onRejection = handle('unhandledRejection');
  events.on('uncaughtException', onException);
  events.on('unhandledRejection', onRejection);
  return () => {
    events.off('uncaughtException', onException);
    events.off('unhandledRejection', onRejection);
  };
}
