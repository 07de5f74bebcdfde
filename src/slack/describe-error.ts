import { randomBytes } from 'node:crypto';
import { escapeText } from '../blocks/conference-card.js';
import type { Logger } from '../observability/logger.js';
import { PlatformError, PlatformHttpError, PlatformInputError } from '../platform/errors.js';
import { ConfdeskError } from '../services/errors.js';

/** The exact fix when the bot may not post in a channel. */
export const inviteFix = (channel: string | undefined) =>
  `I am not a member of ${channel ? `<#${channel}>` : 'this channel'}, so I cannot post there: type \`/invite @confdesk\` in the channel.`;

/** Slack Web API error codes (`{ok:false,error}`) that mean the bot cannot post in the channel. */
const cannotPost = new Set(['not_in_channel', 'channel_not_found', 'is_archived']);

/** The Web API error code of a failed Slack call, if that is what the error is. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

export const isCannotPost = (error: unknown) => cannotPost.has(slackErrorCode(error) ?? '');

const conferenceFeatureOps = new Set(['createConference', 'listConferences']);

/**
 * The one sentence a person sees when something fails: what happened and what to do. Unexpected
 * failures get a short reference id, logged with the full error, so an admin can find it.
 */
export function describeError(error: unknown, logger: Logger, channel?: string): string {
  if (error instanceof ConfdeskError) return error.userMessage;
  if (error instanceof PlatformInputError) return `Please fix this and try again:\n${error.userMessage}`;
  if (error instanceof PlatformHttpError && error.status === 403 && conferenceFeatureOps.has(error.operation))
    return `The video platform refused${error.detail ? ` (${escapeText(error.detail)})` : ''}: the video-conference feature is probably not enabled for your enterprise's account. Ask your platform administrator to enable it.`;
  if (error instanceof PlatformHttpError && error.status === 400)
    return `The video platform refused this${error.detail ? `: ${escapeText(error.detail)}` : ''}. Please check the values and try again.`;
  if (error instanceof PlatformError) return error.userMessage;
  if (isCannotPost(error)) return `${inviteFix(channel)} Then try again.`;
  const ref = randomBytes(3).toString('hex').toUpperCase();
  logger.error({ err: error, ref }, 'unexpected failure');
  return `Something went wrong on confdesk's side (reference \`${ref}\`). Please try again; if it keeps happening, give this reference to your admin.`;
}

/** A wait for the platform's rate budget longer than this is told to the person, with how long. */
export const slowMs = 3_000;

/** "Working…", and how long the platform's rate budget will make the request wait when that is noticeable. */
export function workingText(action: string, waitMs: number): string {
  if (waitMs < slowMs) return `${action}…`;
  const seconds = Math.ceil(waitMs / 1000);
  const about = seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return `${action}… The video platform allows only a few requests a minute and is busy: this will take about ${about}. You can close this; I will post the result.`;
}

/**
 * For a door that answers later without a "Working…" of its own (a button): when the rate budget
 * will hold the request noticeably, says so privately first, with how long, so nobody waits in
 * silence. Best effort: a failure to say it must not stop the work.
 */
export async function tellIfSlow(
  respond: (message: {
    response_type: 'ephemeral';
    replace_original: false;
    text: string;
  }) => Promise<unknown>,
  action: string,
  waitMs: number,
): Promise<void> {
  if (waitMs < slowMs) return;
  await respond({
    response_type: 'ephemeral',
    replace_original: false,
    text: workingText(action, waitMs),
  }).catch(() => undefined);
}
