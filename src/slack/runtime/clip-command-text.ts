import type { AnyMiddlewareArgs } from '@slack/bolt';
import { t } from '../../blocks/text.js';
import { formatNumber } from '../../i18n/format.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { ephemeral } from '../replies/ephemeral.js';
import type { Responder } from '../replies/reply-error.js';
import { detach } from './after-ack.js';
import { personLocale } from './person-locale.js';

/**
 * The most of a slash command's text any listener reads. Slack lets a command carry tens of
 * kilobytes; nothing the commands take (a few participants, a time, a name, a query) comes near
 * this, and every answer built from the text (notices, prefilled inputs) then stays small.
 */
export const commandTextLimit = 3_000;

/** The text cut to `max` characters, without leaving half a word at the end when there are spaces. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /\s/.test(text.charAt(max)) ? cut : cut.replace(/\s+\S*$/, '') || cut;
}

/**
 * Clips a slash command's text before any listener parses it (part of the one global middleware,
 * `request-scope.ts`). Answers what to do once the listeners ran (their ack comes first): tell the
 * person, privately, that only the beginning was read. Other requests pass untouched (undefined).
 */
export function clipCommandText(
  args: AnyMiddlewareArgs,
  logger: Logger,
  personLocaleOf?: (user: string) => Promise<Locale>,
): (() => void) | undefined {
  const body = args.body as { command?: unknown; text?: unknown };
  const text = body.text;
  if (typeof body.command !== 'string' || typeof text !== 'string' || text.length <= commandTextLimit)
    return undefined;
  body.text = cutText(text, commandTextLimit);
  logger.info({ command: body.command, length: text.length }, 'clipped a command text');
  if (!('respond' in args) || !args.respond) return undefined;
  const respond: Responder = args.respond;
  const user = (args.body as { user_id?: unknown }).user_id;
  return () =>
    detach(logger, async () => {
      // The person's language, asked for only now (at most a second; English if unknown).
      const locale = typeof user === 'string' ? await personLocale(personLocaleOf, user) : 'en';
      await respond(
        ephemeral(
          t(locale, 'clip.commandText', {
            length: formatNumber(locale, text.length),
            limit: formatNumber(locale, commandTextLimit),
          }),
        ),
      );
    });
}
