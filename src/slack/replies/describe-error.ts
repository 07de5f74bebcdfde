import { randomBytes } from 'node:crypto';
import { channelLink, escaped, type Mrkdwn, md } from '../../blocks/mrkdwn.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { PlatformError, PlatformHttpError, PlatformInputError } from '../../platform/errors.js';
import { ConfdeskError } from '../../services/errors.js';
import { classifySlackError } from '../../util/slack-errors.js';

/** The exact fix when the bot may not post in a channel. */
export const inviteFix = (channel: string | undefined): Mrkdwn =>
  md`I am not a member of ${channel ? channelLink(channel) : 'this channel'}, so I cannot post there: type \`/invite @confdesk\` in the channel.`;

const conferenceFeatureOps = new Set(['createConference', 'listConferences']);

/**
 * The one sentence a person sees when something fails: what happened and what to do. Unexpected
 * failures get a short reference id, logged with the full error, so an admin can find it.
 */
export function describeError(
  error: unknown,
  logger: Logger,
  channel?: string,
  locale: Locale = 'en',
): Mrkdwn {
  if (error instanceof ConfdeskError) return error.messageIn(locale);
  // The platform's sentences are plain strings (platform/ is below blocks/): escaped here, where they are read.
  if (error instanceof PlatformInputError)
    return md`Please fix this and try again:\n${escaped(error.userMessage)}`;
  if (error instanceof PlatformHttpError && error.status === 403 && conferenceFeatureOps.has(error.operation))
    return md`The video platform refused${error.detail ? md` (${error.detail})` : ''}: the video-conference feature is probably not enabled for your enterprise's account. Ask your platform administrator to enable it.`;
  if (error instanceof PlatformHttpError && error.status === 400)
    return md`The video platform refused this${error.detail ? md`: ${error.detail}` : ''}. Please check the values and try again.`;
  if (error instanceof PlatformError) return escaped(error.userMessage);
  const slack = classifySlackError(error);
  if (slack.kind === 'gone')
    return slack.code === 'missing_scope'
      ? md`Slack refused: the app lacks a permission it needs (\`missing_scope\`). A workspace admin can reinstall confdesk from its manifest (manifest.yml) to grant it.`
      : md`${inviteFix(channel)} Then try again.`;
  if (slack.kind === 'token')
    return md`Slack refused confdesk's token (\`${slack.code}\`): a workspace admin must reinstall the app. Nothing was lost; try again afterwards.`;
  const ref = randomBytes(3).toString('hex').toUpperCase();
  logger.error({ err: error, ref }, 'unexpected failure');
  return md`Something went wrong on confdesk's side (reference \`${ref}\`). Please try again; if it keeps happening, give this reference to your admin.`;
}
