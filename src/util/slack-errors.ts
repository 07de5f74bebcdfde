import { ErrorCode } from '@slack/web-api';

/**
 * The one reader of Slack's refusals (`{ok:false, error}` answers, 429s and the other failures of a
 * Web API call, as @slack/web-api throws them): every caller, a listener's reply, a job's post, a
 * service or a start-up check, asks `classifySlackError` (or `slackAnswerOf`) what a failure means
 * instead of reading `error.data.error` or the `slack_webapi_…` codes itself; on the bottom floor,
 * so that every floor can. What a failed call means for the message:
 * - `rate_limited`: nothing was posted; post again after `retryAfterMs`.
 * - `gone`: the channel refuses the bot (removed, archived, a scope taken away): nothing the bot
 *   posts there can arrive until a person acts; keep the channel's messages.
 * - `thread`: the thread refuses replies (its parent was deleted, or the channel has no threads):
 *   nothing was posted; the same message can go in the channel itself.
 * - `refused`: Slack refuses this message for good (its content, or a channel setting); posting it
 *   again gives the same answer. `hint` says who can do something about it.
 * - `token`: the bot's token or its workspace refuses every call (revoked, expired, uninstalled): no
 *   message can arrive until an admin acts; nothing was posted. Pause, and say so once.
 * - `unknown`: network error, 5xx, Slack's own failure, anything not listed: it may or may not have
 *   been posted, and it may pass; look before posting again.
 */
export type SlackFailure =
  | { kind: 'rate_limited'; code: string; retryAfterMs: number }
  | { kind: 'gone'; code: string }
  | { kind: 'thread'; code: string }
  | { kind: 'refused'; code: string; hint: RefusalHint }
  | { kind: 'token'; code: string }
  | { kind: 'unknown'; code: string | undefined };

/** Who can do something about a refused message: nobody in the channel (`content`), or its admins (`channel`). */
export type RefusalHint = 'content' | 'channel';

/** Slack answers meaning the channel cannot receive messages from the bot any more. */
const goneCodes: ReadonlySet<string> = new Set([
  // chat.postMessage's "make sure your app is a member of the conversation": one channel's, not the token's.
  'no_permission',
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'missing_scope',
]);

/**
 * chat.postMessage errors that refuse one message for good, from Slack's list
 * (https://docs.slack.dev/reference/methods/chat.postMessage#errors). Token and workspace errors
 * (`invalid_auth`, `token_revoked`, `ekm_access_denied`, `team_added_to_org`…) are not here: they
 * refuse every message alike and pass once fixed, so setting messages aside would lose them all.
 * Request-shape errors that a truncated body can cause (`invalid_form_data`, `request_timeout`) are
 * not here either.
 */
const refusedCodes: Readonly<Record<string, RefusalHint>> = {
  invalid_blocks: 'content',
  invalid_blocks_format: 'content',
  msg_blocks_too_long: 'content',
  msg_too_long: 'content',
  no_text: 'content',
  markdown_text_conflict: 'content',
  too_many_attachments: 'content',
  too_many_contact_cards: 'content',
  attachment_payload_limit_exceeded: 'content',
  invalid_metadata_format: 'content',
  invalid_metadata_schema: 'content',
  metadata_too_large: 'content',
  metadata_must_be_sent_from_app: 'content',
  invalid_arguments: 'content',
  invalid_arg_name: 'content',
  invalid_array_arg: 'content',
  as_user_not_supported: 'content',
  // The bot is still a member (joining again would not undo them): a channel or workspace setting.
  restricted_action: 'channel',
  restricted_action_read_only_channel: 'channel',
  restricted_action_thread_only_channel: 'channel',
  restricted_action_thread_locked: 'channel',
  slack_connect_file_link_sharing_blocked: 'channel',
  slack_connect_canvas_sharing_blocked: 'channel',
  slack_connect_lists_sharing_blocked: 'channel',
};

/**
 * Replies the thread refuses, not the message. `cannot_reply_to_message` and
 * `restricted_action_non_threadable_channel` are in Slack's list; `thread_not_found` is what a reply
 * to a deleted parent is answered (https://github.com/slackapi/bolt-js/issues/2307).
 */
const threadCodes: ReadonlySet<string> = new Set([
  'thread_not_found',
  'cannot_reply_to_message',
  'restricted_action_non_threadable_channel',
]);

/**
 * Answers that refuse the bot itself, whatever it asks: the token is not (or no longer) valid, or the
 * workspace is not reachable with it (https://docs.slack.dev/reference/methods/chat.postMessage#errors,
 * https://docs.slack.dev/reference/methods/auth.test#errors).
 */
const tokenCodes: ReadonlySet<string> = new Set([
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'org_login_required',
  'ekm_access_denied',
  'team_access_not_granted',
  'team_added_to_org',
  'team_not_found',
  'app_uninstalled',
  'enterprise_is_restricted',
]);

/** Posting limits answered `{ok:false}` rather than with a 429: nothing was posted. */
const limitCodes: Readonly<Record<string, number>> = {
  rate_limited: 1_000,
  ratelimited: 1_000,
  // A free workspace's message quota: no use asking again every second.
  message_limit_exceeded: 60_000,
};

/**
 * The answer a failed Web API call had, as @slack/web-api throws it, before what it means:
 * - `refusal`: Slack answered `{ok:false, error}` (`code`, when it named one);
 * - `rate_limited`: a 429, to be asked again after `retryAfterMs`;
 * - `http`: another HTTP status (Slack's 5xx, a wrong SLACK_API_URL's 404);
 * - `no_answer`: none at all (DNS, a refused or reset connection, a timeout).
 * Undefined for anything that is not a failed Web API call.
 */
export type SlackAnswer =
  | { kind: 'refusal'; code: string | undefined }
  | { kind: 'rate_limited'; retryAfterMs: number }
  | { kind: 'http'; status: number | undefined }
  | { kind: 'no_answer' };

/** What a failed Web API call was answered (see `SlackAnswer`). */
export function slackAnswerOf(error: unknown): SlackAnswer | undefined {
  const e = error as
    | { code?: unknown; data?: { error?: unknown }; retryAfter?: unknown; statusCode?: unknown }
    | undefined;
  switch (e?.code) {
    case ErrorCode.PlatformError:
      return { kind: 'refusal', code: typeof e.data?.error === 'string' ? e.data.error : undefined };
    case ErrorCode.RateLimitedError:
      return {
        kind: 'rate_limited',
        retryAfterMs: (typeof e.retryAfter === 'number' ? e.retryAfter : 1) * 1000,
      };
    case ErrorCode.HTTPError:
      return { kind: 'http', status: typeof e.statusCode === 'number' ? e.statusCode : undefined };
    case ErrorCode.RequestError:
      return { kind: 'no_answer' };
    default:
      return undefined;
  }
}

/** Whether an error's code is @slack/web-api's own (`slack_webapi_…`), not a system one under it. */
export function isWebApiErrorCode(code: string): boolean {
  return (Object.values(ErrorCode) as string[]).includes(code);
}

/** Slack's own error code (`{ok:false,error}`) of a failed Web API call, when Slack answered one. */
export function slackErrorCode(error: unknown): string | undefined {
  const answer = slackAnswerOf(error);
  return answer?.kind === 'refusal' ? answer.code : undefined;
}

/** Sorts a failed Slack Web API call (as @slack/web-api throws it) into what to do about the message. */
export function classifySlackError(error: unknown): SlackFailure {
  const answer = slackAnswerOf(error);
  if (answer?.kind === 'rate_limited')
    return { kind: 'rate_limited', code: 'ratelimited', retryAfterMs: answer.retryAfterMs };
  const code = answer?.kind === 'refusal' ? answer.code : undefined;
  if (code === undefined) return { kind: 'unknown', code };
  const limit = limitCodes[code];
  if (limit !== undefined) return { kind: 'rate_limited', code, retryAfterMs: limit };
  if (tokenCodes.has(code)) return { kind: 'token', code };
  if (goneCodes.has(code)) return { kind: 'gone', code };
  if (threadCodes.has(code)) return { kind: 'thread', code };
  const hint = Object.hasOwn(refusedCodes, code) ? refusedCodes[code] : undefined;
  if (hint) return { kind: 'refused', code, hint };
  return { kind: 'unknown', code };
}

/** The bot may not post in the channel (removed, archived, or never invited): a person can fix it. */
export const isCannotPost = (error: unknown): boolean => classifySlackError(error).kind === 'gone';
