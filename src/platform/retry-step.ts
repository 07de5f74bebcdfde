import type { ClientLogger } from './attempt.js';
import { PlatformRateLimitedError } from './errors.js';
import type { RateBudget } from './rate-budget.js';
import { type RequestFailure, type RetryInput, retryDecision } from './retry-policy.js';

/** What the retry step acts on: the budget it pauses, the log, the backoff's base, the attempts allowed, the caller's wait and abort. */
export interface RetryContext {
  budget: Pick<RateBudget, 'pauseFor'>;
  logger?: ClientLogger | undefined;
  /** Backoff base in ms: attempt n waits about base × 2^(n-1), jittered, at most 10 s. */
  backoffBaseMs: number;
  maxAttempts: number;
  /** The longest the caller accepts to wait for the budget (a person's door), if any. */
  maxWaitMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** How long attempt `attempt` backs off: between half and one and a half times base × 2^(attempt-1), at most 10 s. */
export function backoffMs(baseMs: number, attempt: number): number {
  const base = baseMs * 2 ** (attempt - 1);
  return Math.min(10_000, base / 2 + Math.random() * base);
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Carries out the retry policy's decision (`retryDecision`) for one failed attempt of operation
 * `name`: waits the backoff, or pauses the shared budget for a 429, then answers `again`; answers
 * `renew-token` for a 401 a new token may cure; else throws: `PlatformRateLimitedError` for a 429
 * that may not be waited for, otherwise what `failed()` gives (the attempt's own error, made only
 * then so that its caller may note the final failure).
 */
export async function retryStep(
  ctx: RetryContext,
  name: string,
  input: Pick<RetryInput, 'method' | 'attempt' | 'mayRenewToken'>,
  failure: RequestFailure,
  failed: () => Error,
): Promise<'again' | 'renew-token'> {
  const { maxAttempts, maxWaitMs } = ctx;
  const decision = retryDecision({ ...input, maxAttempts, maxWaitMs, failure });
  switch (decision.kind) {
    case 'pause':
    case 'rate-limited':
      ctx.budget.pauseFor(decision.waitMs);
      ctx.logger?.warn(
        { op: name, waitMs: decision.waitMs, attempt: input.attempt },
        'platform rate limit hit',
      );
      if (decision.kind === 'rate-limited') throw new PlatformRateLimitedError(name, decision.waitMs);
      return 'again'; // the budget holds it until the reset
    case 'renew-token':
      return 'renew-token';
    case 'backoff':
      if (failure.kind === 'status')
        ctx.logger?.warn(
          { op: name, status: failure.status, attempt: input.attempt },
          'platform server error, retrying',
        );
      await sleep(backoffMs(ctx.backoffBaseMs, input.attempt), ctx.signal);
      return 'again';
    case 'fail':
      throw failed();
  }
}
