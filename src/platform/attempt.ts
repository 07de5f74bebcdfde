import { type Dispatcher, request } from 'undici';
import type { PlatformOutcome } from '../observability/metrics.js';
import { userAgent } from '../observability/version.js';
import type { HttpMethod } from './endpoints.js';
import { PlatformAddressError, PlatformNetworkError } from './errors.js';
import { AddressRefusedError } from './host-guard.js';
import { timeoutCodes } from './retry-policy.js';

/** Minimal logger shape (pino-compatible). */
export interface ClientLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** One request to send: the operation's name (for errors and logs), where, and with which token. */
export interface AttemptRequest {
  name: string;
  method: HttpMethod;
  target: string;
  token: string | undefined;
  /** This attempt's number, from 1 (for the log). */
  attempt: number;
  signal?: AbortSignal | undefined;
}

/** An attempt's end: the answer's headers (its body unread), or no answer (`code`: undici's). */
export type Attempted =
  | { kind: 'answer'; response: Dispatcher.ResponseData /** from sending to the headers */; ms: number }
  | { kind: 'failed'; failure: PlatformNetworkError; code: string | undefined };

/**
 * Sends one request and waits for its answer's headers. No answer is a `PlatformNetworkError`
 * handed back for the retry step (a timeout or a connection failure, logged); an abort by the
 * caller and an address the guard refused when connecting are thrown (never retried). `count`
 * hears how the attempt ended.
 */
export async function attempt(
  dispatcher: Dispatcher,
  req: AttemptRequest,
  count: (outcome: PlatformOutcome) => void,
  logger?: ClientLogger,
): Promise<Attempted> {
  const { name, target } = req;
  const sent = performance.now();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(target, {
      method: req.method,
      dispatcher,
      headers: {
        accept: 'application/json',
        // Lets the platform's operators tell confdesk's requests (and its release) in their logs.
        'user-agent': userAgent,
        ...(req.token ? { authorization: `Bearer ${req.token}` } : {}),
      },
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (error) {
    if (req.signal?.aborted) {
      count('aborted');
      throw error;
    }
    const refused = [error, (error as { cause?: unknown }).cause].find(
      (e): e is AddressRefusedError => e instanceof AddressRefusedError,
    );
    if (refused) {
      count('connection');
      logger?.warn(
        { op: name, host: new URL(target).host, problem: refused.problem },
        'platform address refused when connecting',
      );
      throw new PlatformAddressError(name, new URL(target).host, refused.problem);
    }
    const code = (error as { code?: string }).code;
    const reason = code && timeoutCodes.has(code) ? 'timeout' : 'connection';
    count(reason);
    logger?.warn({ op: name, code, attempt: req.attempt }, 'platform request failed');
    return { kind: 'failed', failure: new PlatformNetworkError(name, reason, code, { cause: error }), code };
  }
  const status = response.statusCode;
  count(status === 429 ? '429' : status < 400 ? 'ok' : status < 500 ? '4xx' : '5xx');
  return { kind: 'answer', response, ms: Math.round(performance.now() - sent) };
}
