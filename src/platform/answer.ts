import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { HttpMethod } from './endpoints.js';
import { PlatformNetworkError, PlatformResponseError } from './errors.js';
import { header, numberHeader } from './headers.js';
import { isIdempotent, type RequestFailure } from './retry-policy.js';

/** A binary answer handed to the caller unbuffered (a 200 MB recording must not sit in memory). */
export interface Download {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
  filename: string | undefined;
}

/**
 * The largest JSON answer read (a page of 100 records is far below): a bigger one is refused before
 * it sits whole in memory.
 */
export const maxJsonBytes = 8 * 1024 * 1024;

/**
 * What an answer came to once read:
 * - `download`: a file (a 2xx of a streamed operation), its body still unread;
 * - `data`: a 2xx API answer, decoded by its schema;
 * - `status`: a non-2xx answer, with its body (JSON, else its text; undefined when empty) for the
 *   error, and how long it asks to wait (a 429's reset or Retry-After, else 1 s);
 * - `unusable`: a 2xx the caller cannot use (too large to read, or not the shape expected);
 * - `too-slow`: its body did not arrive whole within the body deadline;
 * - `broken`: a 2xx whose body broke off (reset, cut): a network failure, not an empty answer.
 *   Both are a `failure` for the retry policy, and `error` if no retry cures it.
 *   An error answer's status still decides when its body breaks: the body only explained it.
 */
export type Answer =
  | { kind: 'download'; download: Download }
  | { kind: 'data'; data: unknown }
  | { kind: 'status'; name: string; status: number; body: unknown; waitMs: number }
  | { kind: 'unusable'; error: PlatformResponseError }
  | { kind: 'too-slow' | 'broken'; failure: RequestFailure; error: PlatformNetworkError };

/**
 * Reads one answer as its operation expects (`output`: a zod schema, or 'stream' for a file): a
 * file's 2xx is handed on unread; any other body is read whole within `deadlineMs` and at most
 * `maxJsonBytes`, then parsed (JSON, else kept as text) and, for a 2xx, decoded by the schema.
 */
export async function readAnswer(
  name: string,
  method: HttpMethod,
  response: Dispatcher.ResponseData,
  output: z.ZodType | 'stream',
  deadlineMs: number,
): Promise<Answer> {
  const { statusCode: status, headers } = response;
  const ok = status >= 200 && status < 300;
  if (ok && output === 'stream') {
    // Its reader may come after a Slack round trip, or never: an error meanwhile (a reset, the
    // body timeout) is heard here and waits on the stream (`errored`) for whoever reads it.
    response.body.on('error', () => {});
    const disposition = header(headers, 'content-disposition');
    return {
      kind: 'download',
      download: {
        body: response.body,
        contentType: header(headers, 'content-type'),
        contentLength: numberHeader(headers, 'content-length'),
        filename: disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i)?.[1],
      },
    };
  }
  const read = await readAnswerText(response, deadlineMs);
  if ('refused' in read) {
    if (read.refused === 'too-slow')
      return {
        kind: 'too-slow',
        failure: { kind: 'network', code: 'UND_ERR_BODY_TIMEOUT' },
        error: new PlatformNetworkError(name, 'timeout', 'body-deadline'),
      };
    const problem = `its answer is larger than ${maxJsonBytes / 1024 / 1024} MB`;
    return { kind: 'unusable', error: new PlatformResponseError(name, '', problem, true) };
  }
  if ('broken' in read && ok) {
    const { code, cause } = read.broken;
    const brokeOff = isIdempotent(method) ? 'retryable' : 'mayBeDone';
    return {
      kind: 'broken',
      failure: { kind: 'broken', code },
      error: new PlatformNetworkError(name, 'connection', code, { cause, brokeOff }),
    };
  }
  const text = 'text' in read ? read.text : '';
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text; // not JSON: an HTML error page, a plain "OK"
  }
  if (!ok || output === 'stream') return { kind: 'status', name, status, body, waitMs: waitMs(headers) };
  const out = output.safeParse(body);
  if (out.success) return { kind: 'data', data: out.data };
  const issue = out.error.issues[0];
  return {
    kind: 'unusable',
    error: new PlatformResponseError(
      name,
      issue?.path.map(String).join('.') ?? '',
      issue?.message ?? 'invalid',
      issue?.code === 'custom',
    ),
  };
}

/** How long an answer asks to wait, in ms: its X-RateLimit-Reset, else Retry-After (seconds), else 1 s. */
const waitMs = (headers: Dispatcher.ResponseData['headers']) =>
  (numberHeader(headers, 'x-ratelimit-reset') ?? numberHeader(headers, 'retry-after') ?? 1) * 1000 || 1000;

/**
 * Reads a JSON answer's text, refusing one larger than `maxJsonBytes` (announced or counted) and one
 * that takes longer than `deadlineMs` in all (a body that trickles a byte at a time never trips
 * undici's idle timeout between chunks). Refused bodies are destroyed, their errors consumed; a
 * body that breaks off (a reset, a cut) is told as such, never read as an empty answer.
 */
async function readAnswerText(
  response: Dispatcher.ResponseData,
  deadlineMs: number,
): Promise<
  | { text: string }
  | { refused: 'too-large' | 'too-slow' }
  | { broken: { code: string | undefined; cause: unknown } }
> {
  const body = response.body;
  // Destroying an undici body makes it emit an error: heard here, whoever stops reading it.
  body.on('error', () => {});
  const announced = numberHeader(response.headers, 'content-length');
  if (announced !== undefined && announced > maxJsonBytes) {
    body.destroy();
    return { refused: 'too-large' };
  }
  let tooSlow = false;
  const timer = setTimeout(() => {
    tooSlow = true;
    body.destroy();
  }, deadlineMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxJsonBytes) {
        body.destroy();
        return { refused: 'too-large' };
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (tooSlow) return { refused: 'too-slow' };
    return { broken: { code: (error as { code?: string }).code, cause: error } };
  } finally {
    clearTimeout(timer);
  }
  return tooSlow ? { refused: 'too-slow' } : { text: Buffer.concat(chunks).toString('utf8') };
}
