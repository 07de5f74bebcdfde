import type { Logger } from '../observability/logger.js';
import { nextTurn } from '../util/turns.js';

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
