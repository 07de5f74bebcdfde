import type { AckFn, AllMiddlewareArgs, AnyMiddlewareArgs, App } from '@slack/bolt';
import type { ExtendedErrorHandlerArgs } from '@slack/bolt/dist/App.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { responderFor } from '../../outbound/respond.js';
import { type Responder, replyError, type Surface, updateView } from '../replies/reply-error.js';
import { requestLog } from './after-ack.js';
import { personLocale } from './person-locale.js';

const ackKey = 'confdeskAck';

type Body = {
  type?: string;
  command?: string;
  callback_id?: string;
  user_id?: string;
  team_id?: string;
  channel_id?: string;
  response_url?: string;
  user?: { id?: string; team_id?: string };
  team?: { id?: string } | null;
  channel?: { id?: string };
  container?: { channel_id?: string; message_ts?: string; thread_ts?: string };
  actions?: { action_id?: string }[];
  view?: { id?: string; callback_id?: string; title?: { text?: string }; blocks?: { block_id?: string }[] };
  event?: { type?: string; user?: string };
};

/** A request's listener as the last resort names it: `command /ticket`, `view ticket_export`… */
const listenerOf = (b: Body): string =>
  b.command
    ? `command ${b.command}`
    : b.actions?.[0]?.action_id
      ? `action ${b.actions[0].action_id}`
      : b.view?.callback_id
        ? `view ${b.view.callback_id}`
        : b.callback_id
          ? `shortcut ${b.callback_id}`
          : b.event?.type
            ? `event ${b.event.type}`
            : (b.type ?? 'request');

/** Bolt's UnknownError wraps a failure without a code: the original is what describeError reads. */
const unwrap = (error: unknown) =>
  (error as { code?: string; original?: unknown })?.code === 'slack_bolt_unknown_error'
    ? (error as { original: unknown }).original
    : error;

/**
 * Keeps a request's `ack` in its context, for `registerErrorHandler` (part of the one global
 * middleware, `request-scope.ts`), and answers the name the last resort gives its listener.
 */
export function keepAck(args: AnyMiddlewareArgs & AllMiddlewareArgs): string {
  const ack = (args as { ack?: AckFn<unknown> }).ack;
  if (ack) args.context[ackKey] = ack;
  return listenerOf((args.body ?? {}) as Body);
}

/**
 * The same reply for a throw before the ack, as `app.error` (Bolt's one error handler). The global
 * middleware keeps each request's `ack` in its context (`keepAck`), so the handler can answer the
 * request itself when the listener did not (a command's ack carries the sentence; a submission's
 * shows it in the modal); otherwise the request's response_url or the modal is used, as after the ack.
 */
export function registerErrorHandler(
  app: App,
  logger: Logger,
  /** The person's language (`deps.locales.person`); unset, English. */
  personOf?: (user: string) => Promise<Locale>,
): void {
  // Needs the App built with `extendedErrorHandler: true` (the handler then gets the body and context).
  app.error(async ({ error: coded, body, context }: ExtendedErrorHandlerArgs) => {
    const error = unwrap(coded);
    const b = (body ?? {}) as Body;
    const user = b.user_id ?? b.user?.id ?? b.event?.user;
    const team = b.team_id ?? b.team?.id ?? b.user?.team_id;
    const log = requestLog(logger, {
      user,
      team,
      ...(b.command ? { command: b.command } : {}),
      ...(b.actions?.[0]?.action_id ? { action: b.actions[0].action_id } : {}),
      ...(b.view?.callback_id ? { callback: b.view.callback_id } : {}),
      ...(b.callback_id ? { callback: b.callback_id } : {}),
      ...(b.event?.type ? { event: b.event.type } : {}),
    });
    const ack = (context as AllMiddlewareArgs['context'])?.[ackKey] as AckFn<unknown> | undefined;
    // True when this handler acked: the listener threw before its own ack.
    const acked = async (response?: unknown) =>
      ack
        ? ack(response).then(
            () => true,
            () => false,
          )
        : false;
    const channel = b.channel_id ?? b.channel?.id ?? b.container?.channel_id;
    const client = app.client;
    // The sentence in the person's language (asked for at most a second, before an ack if need be).
    const locale = (): Promise<Locale> => (user ? personLocale(personOf, user) : Promise.resolve('en'));
    if (b.type === 'view_submission' && b.view?.id) {
      const viewId = b.view.id;
      const blocks = new Set((b.view.blocks ?? []).map((x) => x.block_id));
      return replyError(
        {
          kind: 'modal',
          title: (b.view.title?.text ?? 'confdesk').slice(0, 24),
          show: async (view) =>
            (await acked({ response_action: 'update', view })) || updateView(client, viewId)(view),
          inline: async (field, message) =>
            blocks.has(field) && acked({ response_action: 'errors', errors: { [field]: message.text } }),
          log,
          channel,
          locale,
        },
        error,
      );
    }
    if (!b.response_url) {
      await acked();
      return replyError({ kind: 'event', log }, error);
    }
    // A command not yet acked gets the sentence in its ack; otherwise through the response_url.
    const url = responderFor(b.response_url);
    const respond: Responder = async (message) => (await acked(message)) || url(message);
    const surface: Surface = b.command
      ? { kind: 'command', respond, replace: false, log, channel, locale }
      : {
          kind: 'button',
          respond: async (message) => {
            await acked();
            return url(message);
          },
          client,
          user: user ?? '',
          threadTs: b.container?.thread_ts !== b.container?.message_ts ? b.container?.thread_ts : undefined,
          log,
          channel,
          locale,
        };
    await replyError(surface, error);
    await acked();
  });
}
