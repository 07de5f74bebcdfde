import { randomBytes } from 'node:crypto';
import type { Logger } from '../../observability/logger.js';
import { nextTurn } from '../../util/turns.js';
import { replyError, type Surface } from '../replies/reply-error.js';

/**
 * Who asked and what, for every log line of a request (probot's per-event child logger), with a
 * short request id that ties the lines of one request together.
 */
export function requestLog(
  logger: Logger,
  who: {
    user?: string | undefined;
    team?: string | undefined;
    action?: string;
    callback?: string;
    command?: string;
  },
): Logger {
  return logger.child({
    ...Object.fromEntries(Object.entries(who).filter(([, v]) => v !== undefined)),
    request: randomBytes(4).toString('hex'),
  });
}

/**
 * Runs a listener's slow part (platform calls, cards) after its ack, detached from the listener:
 * Bolt then finishes the request at once and releases it (body, socket buffers) instead of holding
 * it for as long as the platform takes, and requests already waiting get their acks first. `work`
 * tells the person about its own failures; what escapes it is logged, never left unhandled.
 * Closures passed here must not capture `ack` (it holds the HTTP request).
 */
export function detach(logger: Logger, work: () => Promise<unknown>): void {
  nextTurn()
    .then(work)
    .catch((error: unknown) => logger.error({ err: error }, 'work after the ack failed'));
}

/**
 * Runs a listener's work after its ack, detached; what it throws goes to `replyError` on `surface`.
 * For commands and submissions (a click goes through `ActionRoutes`).
 */
export function afterAck(surface: Surface, work: () => Promise<unknown>): void {
  detach(surface.log, () => work().catch((error: unknown) => replyError(surface, error)));
}
