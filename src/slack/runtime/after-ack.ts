import { randomBytes } from 'node:crypto';
import type { Logger } from '../../observability/logger.js';
import { nextTurn } from '../../util/turns.js';
import { replyError, type Surface } from '../replies/reply-error.js';

/** Request ids: this process's prefix and a counter (unique enough to tie one request's lines). */
const requestIdPrefix = randomBytes(2).toString('hex');
let requestSeq = 0;

/**
 * Who asked and what, for every log line of a request (probot's per-event child logger), with a
 * short request id that ties the lines of one request together. The child logger is made when the
 * request first logs: most requests log nothing, and an ack should not pay for one.
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
  const request = `${requestIdPrefix}${(++requestSeq).toString(36)}`;
  let child: Logger | undefined;
  const real = () => {
    child ??= logger.child({
      ...Object.fromEntries(Object.entries(who).filter(([, v]) => v !== undefined)),
      request,
    });
    return child;
  };
  return new Proxy({} as Logger, {
    get(_, key) {
      const target = real();
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (_, key) => key in real(),
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
