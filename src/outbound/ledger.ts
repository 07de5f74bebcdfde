import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { classifySlackError } from '../util/slack-errors.js';

/*
 * The ledger of what the bot posted: every message a job posts carries a tag in Slack's message
 * metadata (`event_type` + `event_payload`), so after an attempt whose outcome is unknown (a network
 * error, a crash, a lost answer) the job looks for its own message before posting again.
 * https://docs.slack.dev/messaging/message-metadata
 */

/**
 * A message's metadata tag: its type, and the ids that make it this message and no other. A message
 * that gathers several items names them all, space-separated, beside the first (`event_ids` beside
 * `event_id`), so a look for any one of them finds it (Slack's metadata takes no list of strings).
 */
export interface Tag {
  type: string;
  payload: Record<string, string>;
}

/** The metadata Slack takes with chat.postMessage / chat.update for a tag. */
export const metadataOf = (tag: Tag) => ({ event_type: tag.type, event_payload: tag.payload });

/** Messages asked of Slack per page (its maximum for history and replies). */
const pageSize = 200;

type Page = {
  messages?: { ts?: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }[];
  response_metadata?: { next_cursor?: string };
};

const carries = (tag: Tag, m: NonNullable<Page['messages']>[number]) =>
  m.metadata?.event_type === tag.type &&
  Object.entries(tag.payload).every(([k, v]) => {
    const payload = m.metadata?.event_payload ?? {};
    const gathered = payload[`${k}s`];
    return String(payload[k]) === v || (typeof gathered === 'string' && gathered.split(' ').includes(v));
  });

/**
 * The ts of the message carrying `tag`, if the bot posted one: in the thread `threadTs` (or, when that
 * thread is gone, the channel), else among the channel's messages since `oldest` — the first attempt
 * to post it (nothing can be older) — every page of them, so a busy channel's later messages cannot
 * hide it. Slack's failures are thrown: the caller cannot tell, so it asks again later.
 */
export async function findTagged(
  slack: WebClient,
  where: { channel: string; threadTs?: string | undefined; oldest: Date },
  tag: Tag,
): Promise<string | undefined> {
  const oldest = (Math.floor(where.oldest.getTime() / 1000) - 60).toFixed(6); // a minute for clock skew
  const base = { channel: where.channel, include_all_metadata: true, limit: pageSize, oldest };
  let thread = where.threadTs;
  let cursor: string | undefined;
  for (;;) {
    let page: Page;
    try {
      page = thread
        ? await slack.conversations.replies({ ...base, ts: thread, ...(cursor ? { cursor } : {}) })
        : await slack.conversations.history({ ...base, ...(cursor ? { cursor } : {}) });
    } catch (error) {
      // The card was deleted: an earlier attempt went in the channel, if anywhere.
      if (!thread || classifySlackError(error).kind !== 'thread') throw error;
      thread = undefined;
      cursor = undefined;
      continue;
    }
    const hit = (page.messages ?? []).find((m) => carries(tag, m));
    if (hit?.ts) return hit.ts;
    cursor = page.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
}

/** A message as chat.postMessage and chat.update take it: a builder's payload. */
type Message = { text: string; blocks?: KnownBlock[] | undefined };

/**
 * Posts `message` carrying `tag`, with a client that never retries by itself (`deliveryClient`):
 * answers its ts. Slack's refusals are thrown for the caller to classify; after one whose outcome is
 * unknown, `findTagged` says whether it was posted.
 */
export async function postTagged(
  slack: WebClient,
  where: { channel: string; threadTs?: string | undefined },
  message: Message,
  tag: Tag,
): Promise<string> {
  const answer = await slack.chat.postMessage({
    channel: where.channel,
    ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
    ...message,
    metadata: metadataOf(tag),
  });
  return answer.ts as string;
}

/** Replaces the message `ts` (an earlier attempt's), keeping its tag. */
export async function updateTagged(
  slack: WebClient,
  where: { channel: string; ts: string },
  message: Message,
  tag: Tag,
): Promise<void> {
  await slack.chat.update({ ...where, ...message, metadata: metadataOf(tag) });
}

/**
 * Tells a person something privately, in their direct messages with the bot (a job's notice). Best
 * effort: a failure is logged, never thrown (the notice is told once; its job goes on).
 */
export async function tellPerson(
  slack: WebClient,
  user: string,
  message: Message,
  log: { warn(o: object, m: string): void },
): Promise<void> {
  await slack.chat
    .postMessage({ channel: user, ...message })
    .catch((error: unknown) => log.warn({ err: error, user }, 'could not tell a person'));
}
