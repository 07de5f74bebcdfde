import { randomBytes } from 'node:crypto';
import type { AckFn, AllMiddlewareArgs, App, BlockAction, ButtonAction, OverflowAction } from '@slack/bolt';
import type { ExtendedErrorHandlerArgs } from '@slack/bolt/dist/App.js';
import type { WebClient } from '@slack/web-api';
import { runAs } from '../observability/last-resort.js';
import type { Logger } from '../observability/logger.js';
import { responderFor } from '../outbound/respond.js';
import { detach } from './after-ack.js';
import { tellIfSlow } from './describe-error.js';
import { type Responder, replyError, type Surface, updateView } from './reply-error.js';

/**
 * Who asked and what, for every log line of a request (probot's per-event child logger), with a
 * short request id that ties the lines of one request together.
 */
export function requestLog(
  logger: Logger,
  who: {
    user?: string | undefined;
    team?: string | undefined;
    action?: string;
    callback?: string;
    command?: string;
  },
): Logger {
  return logger.child({
    ...Object.fromEntries(Object.entries(who).filter(([, v]) => v !== undefined)),
    request: randomBytes(4).toString('hex'),
  });
}

/** What a button or menu handler gets of a click, copied out of Bolt's request so the request can go. */
export interface Click {
  user: string;
  team: string | undefined;
  actionId: string;
  /** The button's value, or the menu entry's. */
  value: string;
  /** The channel the click came from, if any. */
  channel: string | undefined;
  /** The message clicked (its channel, ts, and whether it is an ephemeral reply). */
  container: { channel?: string | undefined; ts?: string | undefined; isEphemeral: boolean };
  triggerId: string;
  /**
   * Where the clicked element is: a message (the default), a modal (`view`: its id and hash, for
   * `views.update`, and its private metadata) or the person's App Home. A click in a modal or on Home
   * has no response_url: `respond` then tells failures in the modal, or in the person's DM with the bot.
   */
  surface: 'message' | 'modal' | 'home';
  view?: { id: string; hash: string; privateMetadata: string; callbackId: string } | undefined;
  responseUrl: string;
  client: WebClient;
  /** Bolt's `respond`, typed so that only a builder's message (`Reply`) goes out. */
  respond: Responder;
  /** The request's logger: user, team and action id on every line. */
  log: Logger;
}

export type ClickHandler = (c: Click) => Promise<unknown>;

interface Route {
  run: ClickHandler;
  /** Said privately when the platform's rate budget will hold the request (a door that answers later). */
  working?: string | undefined;
  /** Runs after a failure was told (e.g. re-render the card the click was refused on). */
  afterReply?: ((c: Click, error: unknown) => Promise<unknown>) | undefined;
}

/**
 * Every button and menu of the bot behind one Bolt listener, dispatched by action id (the part before
 * any `:`): Bolt runs each request through every listener's matchers, so fewer listeners, faster acks.
 * Each click is acked at once; the handler runs detached (`after-ack.ts`); what it throws is told
 * to the person by `replyError`, privately beside the message clicked.
 */
export class ActionRoutes {
  private readonly routes = new Map<string, Route>();

  constructor(
    private readonly logger: Logger,
    private readonly waitMs: () => number,
  ) {}

  /** `run` answers the clicks on `actionId` (and `actionId:<anything>`). */
  on(actionId: string, run: ClickHandler, options: Omit<Route, 'run'> = {}): void {
    if (this.routes.has(actionId)) throw new Error(`two handlers for the action ${actionId}`);
    this.routes.set(actionId, { run, ...options });
  }

  /** Registers the one listener; call once, after every registrar. */
  install(app: App): void {
    const handled = [...this.routes.keys()].sort((a, b) => b.length - a.length);
    app.action<BlockAction<ButtonAction | OverflowAction>>(
      new RegExp(`^(${handled.join('|')})(:|$)`),
      async ({ ack, body, action, client, respond }) => {
        await ack();
        const route = this.routes.get(action.action_id.split(':')[0] ?? '');
        if (!route) return;
        const container = body.container as
          | {
              type?: string;
              channel_id?: string;
              message_ts?: string;
              thread_ts?: string;
              is_ephemeral?: boolean;
            }
          | undefined;
        const v = body.view as
          | { id?: string; hash?: string; private_metadata?: string; callback_id?: string; type?: string }
          | undefined;
        const where: Click['surface'] = v?.type === 'home' ? 'home' : v?.id ? 'modal' : 'message';
        const click: Click = {
          user: body.user.id,
          team: body.team?.id,
          actionId: action.action_id,
          value: action.type === 'overflow' ? action.selected_option.value : (action.value ?? ''),
          channel: body.channel?.id,
          container: {
            channel: container?.channel_id,
            ts: container?.message_ts,
            isEphemeral: container?.is_ephemeral ?? false,
          },
          triggerId: body.trigger_id,
          surface: where,
          view:
            where === 'modal' && v?.id
              ? {
                  id: v.id,
                  hash: v.hash ?? '',
                  privateMetadata: v.private_metadata ?? '',
                  callbackId: v.callback_id ?? '',
                }
              : undefined,
          responseUrl: body.response_url,
          client,
          respond: respond ?? directReplyTo(client, body.user.id),
          log: requestLog(this.logger, { user: body.user.id, team: body.team?.id, action: action.action_id }),
        };
        const threadTs = container?.thread_ts !== container?.message_ts ? container?.thread_ts : undefined;
        detach(this.logger, async () => {
          if (route.working && where === 'message') await tellIfSlow(respond, route.working, this.waitMs());
          await route.run(click).catch(async (error: unknown) => {
            const viewId = click.view?.id;
            await replyError(
              viewId
                ? {
                    kind: 'modal',
                    show: updateView(client, viewId),
                    title: 'confdesk',
                    log: click.log,
                    channel: click.channel,
                  }
                : {
                    kind: 'button',
                    respond: click.respond,
                    client,
                    user: click.user,
                    channel: click.channel ?? click.container.channel,
                    threadTs,
                    log: click.log,
                  },
              error,
            );
            await route.afterReply?.(click, error);
          });
        });
      },
    );
  }
}

/**
 * A click on Home has no response_url: its private replies go to the person's DM with the bot
 * (the app's Messages tab), as text only.
 */
function directReplyTo(client: WebClient, user: string): Responder {
  return async (message) => {
    const m = message as { text?: string; blocks?: unknown[] };
    await client.chat.postMessage({
      channel: user,
      text: m.text ?? '',
      ...(m.blocks ? { blocks: m.blocks as never } : {}),
    });
  };
}

/**
 * Runs a listener's work after its ack, detached; what it throws goes to `replyError` on `surface`.
 * For commands and submissions (a click goes through `ActionRoutes`).
 */
export function afterAck(surface: Surface, work: () => Promise<unknown>): void {
  detach(surface.log, () => work().catch((error: unknown) => replyError(surface, error)));
}

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
 * The same reply for a throw before the ack, as `app.error` (Bolt's one error handler). A global
 * middleware keeps each request's `ack` in its context, so the handler can answer the request
 * itself when the listener did not (a command's ack carries the sentence; a submission's shows it
 * in the modal); otherwise the request's response_url or the modal is used, as after the ack.
 */
export function registerErrorHandler(app: App, logger: Logger): void {
  app.use(async (args) => {
    const ack = (args as { ack?: AckFn<unknown> }).ack;
    if (ack) args.context[ackKey] = ack;
    // What escapes every handler is logged with the listener it came from (and its work after the ack).
    await runAs(listenerOf((args.body ?? {}) as Body), args.next);
  });
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
      ? { kind: 'command', respond, replace: false, log, channel }
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
        };
    await replyError(surface, error);
    await acked();
  });
}
