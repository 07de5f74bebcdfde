import type { Dispatcher } from 'undici';
import { discard } from '../util/streams.js';
import { isRedirect, PlatformAddressError } from './errors.js';
import { header } from './headers.js';

/** The most redirects one download follows, each hop checked by the address guard. */
export const maxRedirects = 3;

/** Where a redirect points, resolved against the address that answered it; undefined when it names none readable. */
export function redirectTarget(response: Dispatcher.ResponseData, from: string): string | undefined {
  const location = header(response.headers, 'location');
  try {
    return location ? new URL(location, from).toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The host (only: a path or query may carry a signature) an API answer's redirect points to, for
 * the error that tells it; undefined when the answer is no redirect or names no readable address.
 */
export function redirectHost(response: Dispatcher.ResponseData, from: string): string | undefined {
  if (!isRedirect(response.statusCode)) return undefined;
  const next = redirectTarget(response, from);
  return next ? new URL(next).host : undefined;
}

/**
 * Follows one redirect of a download (hop number `hop`, from 1), which may send it elsewhere (a file
 * store): its body is dropped, and the next address is returned once `check` (the address guard)
 * let it pass. A redirect without an address, or past `maxRedirects`, is refused.
 */
export async function followRedirect(
  name: string,
  response: Dispatcher.ResponseData,
  from: string,
  hop: number,
  check: (url: string) => Promise<void>,
): Promise<string> {
  discard(response.body);
  const next = redirectTarget(response, from);
  if (!next) throw new PlatformAddressError(name, new URL(from).host, 'a redirect without an address');
  if (hop > maxRedirects)
    throw new PlatformAddressError(name, new URL(next).host, `more than ${maxRedirects} redirects`);
  await check(next);
  return next;
}
