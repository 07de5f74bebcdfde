import { randomBytes } from 'node:crypto';
import { channelLink, type Mrkdwn } from '../../blocks/mrkdwn.js';
import { t } from '../../blocks/text.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import {
  isRedirect,
  PlatformAddressError,
  PlatformClosedError,
  PlatformError,
  PlatformGrantDeadlineError,
  PlatformHttpError,
  PlatformInputError,
  PlatformNetworkError,
  PlatformRateLimitedError,
  PlatformResponseError,
} from '../../platform/errors.js';
import { ConfdeskError } from '../../services/errors.js';
import { classifySlackError } from '../../util/slack-errors.js';

/** The exact fix when the bot may not post in a channel, in `locale`. */
export const inviteFix = (channel: string | undefined, locale: Locale): Mrkdwn =>
  channel
    ? t(locale, 'error.notMember', { channel: channelLink(channel) })
    : t(locale, 'error.notMemberHere');

const conferenceFeatureOps = new Set(['createConference', 'listConferences']);

/**
 * A platform error in `locale`, by its code and status. platform/ is below blocks/ and says its errors
 * in English (`userMessage`: logs); here they are written in the reader's language, the platform's
 * own words (its explanation, a host) kept as escaped values.
 */
function platformSentence(error: PlatformError, locale: Locale): Mrkdwn {
  if (error instanceof PlatformNetworkError) {
    if (error.brokeOff === 'mayBeDone') return t(locale, 'platform.mayBeDone');
    if (error.brokeOff) return t(locale, 'platform.brokeOff');
    return t(locale, error.reason === 'timeout' ? 'platform.timeout' : 'platform.unreachable');
  }
  if (error instanceof PlatformHttpError) {
    const detail = error.detail;
    const page = error.bodyKind === 'html';
    const status = String(error.status);
    switch (error.status) {
      case 400:
        return detail ? t(locale, 'platform.refusedDetail', { detail }) : t(locale, 'platform.refused');
      case 401:
        return t(locale, 'platform.signIn');
      case 403:
        return detail ? t(locale, 'platform.forbiddenDetail', { detail }) : t(locale, 'platform.forbidden');
      case 404:
      case 405:
        if (page)
          return detail ? t(locale, 'platform.webPageDetail', { detail }) : t(locale, 'platform.webPage');
        return t(locale, error.bodyKind === 'empty' ? 'platform.noSuchItemEmpty' : 'platform.noSuchItem');
      default:
        if (isRedirect(error.status))
          return error.redirectedTo
            ? t(locale, 'platform.redirected', { host: error.redirectedTo })
            : t(locale, 'platform.redirectedNowhere');
        if (error.status >= 500) return t(locale, 'platform.internal');
        if (page)
          return detail
            ? t(locale, 'platform.statusPageDetail', { status, label: error.label, detail })
            : t(locale, 'platform.statusPage', { status, label: error.label });
        if (error.bodyKind === 'empty')
          return t(locale, 'platform.statusEmpty', { status, label: error.label });
        return detail
          ? t(locale, 'platform.statusDetail', { status, label: error.label, detail })
          : t(locale, 'platform.status', { status, label: error.label });
    }
  }
  if (error instanceof PlatformRateLimitedError)
    return t(locale, 'platform.rateLimited', {
      seconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
    });
  if (error instanceof PlatformResponseError)
    return error.explained
      ? t(locale, 'platform.unusable', { problem: error.problem })
      : t(locale, 'platform.notUnderstood');
  if (error instanceof PlatformClosedError) return t(locale, 'platform.closed');
  if (error instanceof PlatformAddressError)
    return t(locale, 'platform.address', { host: error.host, problem: error.problem });
  if (error instanceof PlatformGrantDeadlineError)
    return t(locale, 'platform.grantDeadline', {
      seconds: Math.max(1, Math.round(error.deadlineMs / 1000)),
    });
  // A platform error this file does not know yet: its own (English) sentence, escaped.
  return t(locale, 'error.platformOwn', { said: error.userMessage });
}

/**
 * The one sentence a person sees when something fails, in their language (`locale`): what happened
 * and what to do. Unexpected failures get a short reference id, logged with the full error, so an
 * admin can find it.
 */
export function describeError(
  error: unknown,
  logger: Logger,
  channel?: string,
  locale: Locale = 'en',
): Mrkdwn {
  if (error instanceof ConfdeskError) return error.messageIn(locale);
  // The platform's problems with an input are its validators' words (field: problem), kept as they are.
  if (error instanceof PlatformInputError)
    return t(locale, 'error.fixInput', { problems: error.userMessage });
  if (error instanceof PlatformHttpError && error.status === 403 && conferenceFeatureOps.has(error.operation))
    return error.detail
      ? t(locale, 'error.conferenceFeatureDetail', { detail: error.detail })
      : t(locale, 'error.conferenceFeature');
  if (error instanceof PlatformHttpError && error.status === 400)
    return error.detail
      ? t(locale, 'error.badRequestDetail', { detail: error.detail })
      : t(locale, 'error.badRequest');
  if (error instanceof PlatformError) return platformSentence(error, locale);
  const slack = classifySlackError(error);
  if (slack.kind === 'gone')
    return slack.code === 'missing_scope'
      ? t(locale, 'error.missingScope')
      : channel
        ? t(locale, 'error.notMemberRetry', { channel: channelLink(channel) })
        : t(locale, 'error.notMemberHereRetry');
  if (slack.kind === 'token') return t(locale, 'error.slackToken', { code: slack.code ?? '' });
  const ref = randomBytes(3).toString('hex').toUpperCase();
  logger.error({ err: error, ref }, 'unexpected failure');
  return t(locale, 'error.unexpected', { ref });
}
