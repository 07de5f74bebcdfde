import type { AllMiddlewareArgs, AnyMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Locale } from '../../i18n/locale.js';
import { runAs } from '../../observability/last-resort.js';
import type { Logger } from '../../observability/logger.js';
import { clipCommandText } from './clip-command-text.js';
import { keepAck } from './error-handler.js';

/**
 * The bot's one global middleware: what every request needs around its listener, as one step of
 * Bolt's chain (Bolt gives every middleware it calls a copy of the request's arguments, on the ack's
 * path: one step, one copy). In order, it
 * - counts the request as being handled until its listener is done (a shutdown waits: `settled`),
 * - clips a command's text before any listener reads it (`clipCommandText`), and tells the person
 *   once the listener acked,
 * - keeps the request's ack for the error handler (`keepAck`),
 * - runs the rest of the chain as the listener's name, for the last resort's log (`runAs`),
 * - with metrics on, has the request's Slack client watched for 429s (`watch`, from `measureAcks`).
 */
export function requestScope(
  logger: Logger,
  watch?: (client: WebClient) => void,
  personLocaleOf?: (user: string) => Promise<Locale>,
) {
  let handling = 0;
  let idle: (() => void) | undefined;
  return {
    middleware: async (args: AnyMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
      handling++;
      try {
        watch?.(args.client);
        const clipped = clipCommandText(args, logger, personLocaleOf);
        await runAs(keepAck(args), args.next);
        clipped?.();
      } finally {
        if (--handling === 0) idle?.();
      }
    },
    /** Resolves once no request is being handled (at once when none is). */
    settled: (): Promise<void> =>
      handling > 0
        ? new Promise((r) => {
            idle = r;
          })
        : Promise.resolve(),
  };
}
