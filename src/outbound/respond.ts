import type { Reply } from '../blocks/kit.js';

/**
 * Posts a reply to a response_url (replace, delete or add an ephemeral message) where a listener's own
 * `respond` is not at hand: the error handler, a shortcut's later answer, a form's outcome beside the
 * message that opened it. Takes a builder's `Reply` only, like every other way out.
 * https://docs.slack.dev/interactivity/handling-user-interaction#message_responses
 */
export async function postToResponseUrl(url: string, reply: Reply): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(reply),
  });
  // Read (a few bytes), so that the connection goes back to the pool now rather than at a collection.
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`response_url answered ${res.status}`);
}

/** `postToResponseUrl` for one url, as a listener's `respond`. */
export const responderFor =
  (url: string) =>
  (reply: Reply): Promise<void> =>
    postToResponseUrl(url, reply);
