import type { App, BlockAction, ButtonAction, OverflowAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { type Responder, replyError, updateView } from '../replies/reply-error.js';
import { tellIfSlow, type WorkingAction } from '../replies/working-notice.js';
import { detach, requestLog } from './after-ack.js';
import { personLocale } from './person-locale.js';

/** What a button or menu handler gets of a click, copied out of Bolt's request so the request can go. */
export interface Click {
  user: string;
  team: string | undefined;
  actionId: string;
  /** The button's value, or the menu entry's. */
  value: string;
  /** The channel the click came from, if any. */
  channel: string | undefined;
  /**
   * The message clicked (its channel, ts, and whether it is an ephemeral reply). A click on a link's
   * unfurl has no `ts` (the message is the poster's, never the bot's to edit: the handlers treat it as
   * a click away from a card) and `unfurl` instead: the link and its message, to unfurl it again.
   */
  container: {
    channel?: string | undefined;
    ts?: string | undefined;
    isEphemeral: boolean;
    unfurl?: { url: string; channel: string; ts: string } | undefined;
  };
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
  working?: WorkingAction | undefined;
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
    /** The person's language (their cached Slack profile's, `deps.locales.person`); unset, English. */
    private readonly locale?: (user: string) => Promise<Locale>,
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
              is_app_unfurl?: boolean;
              app_unfurl_url?: string;
            }
          | undefined;
        // A click in an app's unfurl (container `message_attachment`, `is_app_unfurl`).
        const unfurl =
          container?.is_app_unfurl && container.app_unfurl_url && container.channel_id && container.message_ts
            ? { url: container.app_unfurl_url, channel: container.channel_id, ts: container.message_ts }
            : undefined;
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
            ts: unfurl ? undefined : container?.message_ts,
            isEphemeral: container?.is_ephemeral ?? false,
            ...(unfurl ? { unfurl } : {}),
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
        // The clicker's language, asked for only when something is said (at most a second).
        const locale = () => personLocale(this.locale, click.user);
        detach(this.logger, async () => {
          if (route.working && where === 'message')
            await tellIfSlow(respond, route.working, this.waitMs(), locale);
          // A route that throws before its first await fails like one that rejects: the person is told.
          await Promise.resolve()
            .then(() => route.run(click))
            .catch(async (error: unknown) => {
              const viewId = click.view?.id;
              await replyError(
                viewId
                  ? {
                      kind: 'modal',
                      show: updateView(client, viewId),
                      title: 'confdesk',
                      log: click.log,
                      channel: click.channel,
                      locale,
                    }
                  : {
                      kind: 'button',
                      respond: click.respond,
                      client,
                      user: click.user,
                      channel: click.channel ?? click.container.channel,
                      threadTs,
                      log: click.log,
                      locale,
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
