/** The records the Slack double keeps and the faults a test scripts into it. */

/** One Web API call the double received, with its arguments decoded (JSON fields parsed). */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token: string | undefined;
  at: number;
}

/** A message as the double keeps it, per channel. */
export interface SlackMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  thread_ts: string | undefined;
  metadata: unknown;
  user: string | undefined;
  /** Set once `chat.update` changed it (Slack shows "(edited)"). */
  edited?: boolean;
  /** The files of a `files.completeUploadExternal` post, as Slack shows them under the message. */
  files?: SlackFile[];
  /** The app's unfurls of its links (`chat.unfurl`), by URL, as Slack shows them under the message. */
  unfurls?: Record<string, { blocks?: unknown[] }>;
  /** The emoji reactions people added (`SlackDouble.react`), as Slack shows them under the message. */
  reactions?: { name: string; users: string[] }[];
}

/** A file attached to a message. */
export interface SlackFile {
  id: string;
  name: string;
  title?: string;
  size: number;
  mimetype: string;
}

/**
 * A message only one person sees ("Only visible to you"): from `chat.postEphemeral`, or an answer to
 * a response_url that was not posted `in_channel`.
 */
export interface SlackEphemeral {
  id: string;
  user: string;
  channel: string;
  ts: string;
  thread_ts: string | undefined;
  text: string | undefined;
  blocks: unknown[] | undefined;
}

/** One modal of a person's stack, with the inline errors a submission's `response_action: errors` set. */
export interface SlackModal {
  id: string;
  view: Record<string, unknown>;
  errors?: Record<string, string>;
}

/**
 * What a response_url answers to: a message (replace/delete_original act on it), and, when known,
 * the person who made the request, so its other answers reach that person as Slack does.
 */
export interface ResponseTarget {
  channel: string;
  ts?: string | undefined;
  user?: string | undefined;
  thread_ts?: string | undefined;
  /** The ephemeral the request came from (a click on it), or a command's latest private answer. */
  ephemeral?: string | undefined;
  /** A slash command's: its latest private answer is the "original" later answers act on. */
  command?: boolean | undefined;
}

export interface SlackUserRecord {
  id: string;
  name: string;
  real_name: string;
  tz: string;
  tz_offset?: number;
  profile: { email?: string; display_name?: string; real_name?: string };
  /** Their Slack language (`fr-FR`); `users.info` answers it only with `include_locale`, as Slack does. */
  locale?: string;
  is_bot?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  deleted?: boolean;
}

/** A scripted answer for the next call(s) of a method: an HTTP 429, `{ok:false,error}`, an HTTP error, or a lost answer. */
export type SlackFault =
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'error'; error: string }
  | { kind: 'http'; status: number }
  /** The call takes effect, then the answer is lost (HTTP 500): the caller cannot know it worked. */
  | { kind: 'lost_response' };

/** A file of the upload flow: named by `getUploadURLExternal`, its bytes posted, then completed. */
export interface SlackUpload {
  filename: string;
  bytes: Buffer | undefined;
  size?: number | undefined;
  /** When `files.completeUploadExternal` completed it (Date.now()). */
  completedAt?: number | undefined;
}

/**
 * What the next POST to an upload URL meets: an answer with this status once the body is in, the
 * connection reset (TCP RST) after `afterBytes`, or a stall: nothing more read, no answer, ever.
 */
export type UploadFault =
  | { kind: 'status'; status: number }
  | { kind: 'reset'; afterBytes: number }
  | { kind: 'stall'; afterBytes: number };

/**
 * One run of a Workflow Builder step (a custom function) the double started (`startStep`): the
 * `function_executed` event it sends, the execution's own token, and how it ended (`functions.*`).
 */
export interface SlackStepRun {
  executionId: string;
  callbackId: string;
  inputs: Record<string, unknown>;
  /** The short-lived token Slack hands this execution (`bot_access_token`). */
  token: string;
  startedAt: number;
  ended?:
    | { kind: 'completed'; outputs: Record<string, unknown>; token: string | undefined; at: number }
    | { kind: 'failed'; error: string; token: string | undefined; at: number }
    | undefined;
}
