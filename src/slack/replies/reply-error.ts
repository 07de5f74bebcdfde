import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Reply } from '../../blocks/kit.js';
import { fallbackText } from '../../blocks/kit.js';
import { buildResultView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { ConfdeskError } from '../../services/errors.js';
import { describeError } from './describe-error.js';
import { ephemeral } from './ephemeral.js';

/** The modal `viewId`, as a surface's `show`. */
export const updateView = (client: WebClient, viewId: string) => (view: ModalView) =>
  client.views.update({ view_id: viewId, view: view });

export type { Reply };

/** Answers a response_url (Bolt's `respond`, or one built from a request body), with a `Reply` only. */
export type Responder = (message: Reply) => Promise<unknown>;

/**
 * Where the person who asked is looking, so a failure is told there (Dispatch's one `@app.error`):
 * - a command: privately, through its response_url (replacing its "Working…" unless told not to);
 * - a button: privately, beside the message clicked, in its thread when the message is a reply;
 * - a modal: in the modal (the form again with the reason, or the outcome view);
 * - an event: nobody to tell; logged.
 * `log` carries who asked and what (user, team, action or callback id): the reference id of an
 * unexpected failure is logged with them, so an admin given the reference finds the request.
 */
export type Surface = {
  log: Logger;
  channel?: string | undefined;
  /**
   * The language of the person told (their Slack locale), or how to ask for it (at most a second:
   * `deps.locales.person`), asked only when there is a failure to tell; English when unknown.
   */
  locale?: Locale | (() => Promise<Locale>) | undefined;
} & (
  | {
      kind: 'command';
      respond: Responder;
      /** Replace the command's "Working…" reply (default), or add a message when the ack said nothing. */
      replace?: boolean;
      /** The reply for this command's failures, when it is more than the sentence (e.g. a retry button). */
      build?: (message: Mrkdwn) => Reply;
    }
  | {
      kind: 'button';
      respond: Responder;
      client: WebClient;
      user: string;
      /** The thread of the message clicked, when it is a reply in one. */
      threadTs?: string | undefined;
    }
  | {
      kind: 'modal';
      /** Shows a view in the modal (views.update, or the submission's ack before it is acked). */
      show: (view: ModalView) => Promise<unknown>;
      title: string;
      /** The modal to show instead of the outcome view: usually the form again, with the reason. */
      again?: (message: Mrkdwn, error: unknown) => ModalView | undefined | Promise<ModalView | undefined>;
      /** Before the ack: puts the sentence under the form's input the failure names; false if none. */
      inline?: (field: string, message: Mrkdwn) => Promise<boolean>;
      /** Also said privately beside the message whose button opened the modal. */
      tell?: Responder;
    }
  | { kind: 'event' }
);

/**
 * The one reply to a failure: the sentence from `describeError`, shown on the request's surface, and
 * one log line. A failure to tell is logged, never thrown (it would only reach Bolt's default handler).
 */
export async function replyError(surface: Surface, error: unknown): Promise<void> {
  const { log, channel } = surface;
  const locale =
    typeof surface.locale === 'function'
      ? await surface.locale().catch((): Locale => 'en')
      : (surface.locale ?? 'en');
  const message = describeError(error, log, channel, locale);
  // Known refusals (policy, platform, stale values) are normal answers: one line, at info.
  if (error instanceof ConfdeskError || (error as { userMessage?: unknown })?.userMessage !== undefined)
    log.info({ code: (error as { code?: unknown }).code }, 'request refused');
  try {
    switch (surface.kind) {
      case 'command':
        await surface.respond(
          surface.build?.(message) ?? {
            response_type: 'ephemeral',
            ...(surface.replace === false ? {} : { replace_original: true }),
            text: fallbackText(message),
          },
        );
        return;
      case 'button':
        if (surface.threadTs && channel)
          await surface.client.chat.postEphemeral({
            channel,
            user: surface.user,
            thread_ts: surface.threadTs,
            text: fallbackText(message),
          });
        else await surface.respond(ephemeral(message));
        return;
      case 'modal': {
        const field = (error as { field?: unknown } | undefined)?.field;
        if (typeof field === 'string' && (await surface.inline?.(field, message))) return;
        await surface.show(
          (await surface.again?.(message, error)) ?? buildResultView(locale, surface.title, message),
        );
        await surface.tell?.(ephemeral(message));
        return;
      }
      case 'event':
        return;
    }
  } catch (e) {
    log.warn({ err: e }, 'could not tell the person about a failure');
  }
}
