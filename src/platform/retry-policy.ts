import type { HttpMethod } from './endpoints.js';

/*
 * What the platform client does after a request fails, decided by one pure function so that the
 * policy can be read (and tested) as a table: method × outcome × attempt → decision. The client's
 * retry step (`retry-step.ts`) only carries the decisions out. Every retry takes the rate budget again.
 */

/** Network failures worth another try (connection refused, reset, timeouts…), as undici reports them. */
const networkCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The network failures that are time-outs (the error says "did not answer" rather than "unreachable"). */
export const timeoutCodes: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/**
 * How a request failed: no answer (undici's error code), an answer whose body broke off after its
 * headers (a reset, a cut), or an answer with a status that is not 2xx.
 */
export type RequestFailure =
  | { kind: 'network'; code: string | undefined }
  /** The platform took the request (its headers came), so it may have done it: a POST is not sent again. */
  | { kind: 'broken'; code: string | undefined }
  /** `waitMs`: for a 429, how long the platform asks to wait (its headers, or 1 s). */
  | { kind: 'status'; status: number; waitMs?: number };

export interface RetryInput {
  method: HttpMethod;
  /** This attempt's number, from 1; a token renewal does not count. */
  attempt: number;
  maxAttempts: number;
  failure: RequestFailure;
  /** The request carried a token the client can renew (username/password), not yet renewed for it. */
  mayRenewToken: boolean;
  /** The longest the caller accepts to wait for the budget (a person's door), if any. */
  maxWaitMs?: number | undefined;
}

/**
 * - `fail`: give up, the failure is the answer;
 * - `backoff`: wait the client's backoff for this attempt, then try again;
 * - `pause`: a 429: the shared budget pauses `waitMs` for everyone, then this request goes again
 *   (the platform did not process it, so even a POST may);
 * - `rate-limited`: a 429 the caller cannot wait for (or the last attempt): the budget pauses, the
 *   request fails as rate limited;
 * - `renew-token`: a 401 with a renewable token: renew it and try again (not counted as an attempt).
 */
export type RetryDecision =
  | { kind: 'fail' }
  | { kind: 'backoff' }
  | { kind: 'pause'; waitMs: number }
  | { kind: 'rate-limited'; waitMs: number }
  | { kind: 'renew-token' };

/** Whether sending a request twice does no more than sending it once (GET, PUT, DELETE; not POST). */
export const isIdempotent = (method: HttpMethod) => method !== 'POST';

/** The retry policy (see `RetryDecision`): a POST is retried only when it surely never reached the platform. */
export function retryDecision(i: RetryInput): RetryDecision {
  const idempotent = isIdempotent(i.method);
  const last = i.attempt >= i.maxAttempts;
  const { failure } = i;
  if (failure.kind === 'network') {
    const code = failure.code;
    const retryable = (code !== undefined && networkCodes.has(code) && idempotent) || code === 'ECONNREFUSED';
    return retryable && !last ? { kind: 'backoff' } : { kind: 'fail' };
  }
  if (failure.kind === 'broken') return idempotent && !last ? { kind: 'backoff' } : { kind: 'fail' };
  if (failure.status === 429) {
    const waitMs = failure.waitMs ?? 1_000;
    const mayWait = i.maxWaitMs === undefined || waitMs <= i.maxWaitMs;
    return last || !mayWait ? { kind: 'rate-limited', waitMs } : { kind: 'pause', waitMs };
  }
  if (failure.status === 401 && i.mayRenewToken) return { kind: 'renew-token' };
  if (failure.status >= 500 && idempotent && !last) return { kind: 'backoff' };
  return { kind: 'fail' };
}
