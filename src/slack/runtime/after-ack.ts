import { randomBytes } from 'node:crypto';
import type { Logger } from '../../observability/logger.js';
import { nextTurn } from '../../util/turns.js';
import { replyError, type Surface } from '../replies/reply-error.js';

/** Request ids: this process's prefix and a counter (unique enough to tie one request's lines). */
const requestIdPrefix = randomBytes(2).toString('hex');
let requestSeq = 0;

/** Who asked and what: the fields of a request's log lines. */
interface Who {
  user?: string | undefined;
  team?: string | undefined;
  action?: string;
  callback?: string;
  command?: string;
}

/** A request's logger before its first line: what it will be made of, and it once made. */
interface LazyLog {
  logger: Logger;
  who: Who;
  request: string;
  child: Logger | undefined;
}

const childOf = (t: LazyLog): Logger => {
  t.child ??= t.logger.child({
    ...Object.fromEntries(Object.entries(t.who).filter(([, v]) => v !== undefined)),
    request: t.request,
  });
  return t.child;
};

/*
 * One handler for every request's logger: a request keeps its logger for as long as its work after
 * the ack runs (thousands at once when the platform is slow), so each is one small record, not a set
 * of closures of its own. The record's fields stay hidden, as an empty target's would.
 */
const lazyLog: ProxyHandler<LazyLog> = {
  get(t, key) {
    const target = childOf(t);
    const value = Reflect.get(target, key, target);
    return typeof value === 'function' ? value.bind(target) : value;
  },
  has: (t, key) => key in childOf(t),
  ownKeys: () => [],
  getOwnPropertyDescriptor: () => undefined,
};

/**
 * Who asked and what, for every log line of a request (probot's per-event child logger), with a
 * short request id that ties the lines of one request together. The child logger is made when the
 * request first logs: most requests log nothing, and an ack should not pay for one.
 */
export function requestLog(logger: Logger, who: Who): Logger {
  const request = `${requestIdPrefix}${(++requestSeq).toString(36)}`;
  return new Proxy<LazyLog>({ logger, who, request, child: undefined }, lazyLog) as unknown as Logger;
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
