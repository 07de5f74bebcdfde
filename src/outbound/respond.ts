import type { App } from '@slack/bolt';
import { request } from 'undici';
import type { Reply } from '../blocks/kit.js';

/*
 * Replies to a response_url go through undici's `request`, not `fetch`: a reply is a few hundred
 * bytes, and fetch's WHATWG streams cost several times the work for each, on the same CPU that acks
 * (every click told that it waits, every command's answer goes through here). The global
 * dispatcher, the proxy when there is one, serves both.
 */

/** What Bolt's `respond` reads of its fetch's answer. */
interface ReplyAnswer {
  ok: boolean;
  status: number;
  statusText: string;
}

async function post(url: string, body: string): Promise<ReplyAnswer> {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  // Read (a few bytes), so that the connection goes back to the pool now rather than at a collection.
  await res.body.dump().catch(() => undefined);
  return { ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, statusText: '' };
}

/**
 * Posts a reply to a response_url (replace, delete or add an ephemeral message) where a listener's own
 * `respond` is not at hand: the error handler, a shortcut's later answer, a form's outcome beside the
 * message that opened it. Takes a builder's `Reply` only, like every other way out.
 * https://docs.slack.dev/interactivity/handling-user-interaction#message_responses
 */
export async function postToResponseUrl(url: string, reply: Reply): Promise<void> {
  const res = await post(url, JSON.stringify(reply));
  if (!res.ok) throw new Error(`response_url answered ${res.status}`);
}

/** `postToResponseUrl` for one url, as a listener's `respond`. */
export const responderFor =
  (url: string) =>
  (reply: Reply): Promise<void> =>
    postToResponseUrl(url, reply);

/**
 * Bolt's `respond` posts with the fetch it was given (`clientOptions.fetch`, which its Web API
 * clients take too) or Node's own. This gives `respond` alone the poster above; the Web API clients
 * keep theirs. Bolt keeps the function as `fetchFn` and reads it only for `respond`: if a version
 * keeps it no more, nothing changes and Node's fetch answers, so this says whether it took.
 */
export function postRepliesWithUndici(app: App): boolean {
  const bolt = app as unknown as { fetchFn?: unknown };
  if (typeof bolt.fetchFn !== 'function') return false;
  bolt.fetchFn = async (url: string, init: { body: string }) => post(url, init.body);
  return true;
}
