import { createHmac, randomBytes } from 'node:crypto';
import type { SlackDouble, SlackMessage } from '../dev/slack-double.js';
import { demoChannels, demoPeople } from './people.js';
import type { Answer, Container, StepAnswer } from './web/contract.js';

/** Signs a body as Slack does: v0=hex(HMAC-SHA256(secret, "v0:" + ts + ":" + body)). */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

type Json = Record<string, unknown>;

/** Slack waits this long for an ack, then shows the person an error (operation_timeout). */
const ackDeadlineMs = 3_000;
const appId = 'A0PLAYGROUND';

/**
 * Slack as the bot sees it: builds the payloads Slack sends for a person's gestures (slash command,
 * click, submission, close, shortcut, Home tab), signs them, posts them to the bot's `/slack/events`,
 * and applies the bot's ack bodies to the double the way Slack does.
 */
export class SlackSide {
  /** What the last request got when it went wrong, for the page's toast. */
  notice: { at: number; text: string } | undefined;

  constructor(
    private readonly o: {
      slack: SlackDouble;
      /** The bot's base URL (its HTTP receiver). */
      botUrl: string;
      signingSecret: string;
      /** Called when the notice changes (the page's change feed). */
      onNotice?: () => void;
    },
  ) {}

  /** A slash command (`command` = `/conference` or `/ticket`) typed by `as` in `channel`. */
  async command(as: string, channel: string, command: string, text: string): Promise<Answer> {
    const slack = this.o.slack;
    const responseUrl = slack.responseUrlForUser({ user: as, channel, command: true });
    const payload = {
      token: 'legacy',
      command,
      text,
      user_id: as,
      user_name: this.person(as).name,
      channel_id: channel,
      channel_name: channelName(channel),
      team_id: slack.teamId,
      team_domain: 'playground',
      api_app_id: appId,
      trigger_id: this.trigger(as),
      response_url: responseUrl,
    };
    const answer = await this.send(
      new URLSearchParams(payload).toString(),
      'application/x-www-form-urlencoded',
    );
    if (!answer.ok) return answer;
    // An ack with a body is the command's first answer: private unless it says in_channel.
    const body = answer.body;
    if (typeof body === 'string' && body.trim()) slack.answerCommand(responseUrl, { text: body });
    else if (body && typeof body === 'object') slack.answerCommand(responseUrl, body as Json);
    return { ok: true };
  }

  /**
   * A plain message by `as`, kept by the double (the message shortcut works on it). Links of the
   * app's unfurl domains in it make Slack send `link_shared` to the bot, as Slack does after the post.
   */
  message(as: string, channel: string, text: string, threadTs?: string): Answer {
    const m = this.o.slack.postAsUser(as, channel, text, threadTs);
    const event = this.o.slack.linkShared(m);
    if (event) void this.linkShared(event);
    return { ok: true };
  }

  /** Sends a `link_shared` event (its failure shows as the page's notice, as a gesture's does). */
  private async linkShared(event: Json): Promise<void> {
    const slack = this.o.slack;
    const now = Date.now() / 1000;
    await this.send(
      JSON.stringify({
        token: 'legacy',
        team_id: slack.teamId,
        api_app_id: appId,
        type: 'event_callback',
        event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
        event_time: Math.floor(now),
        event,
      }),
      'application/json',
    );
  }

  /** A click (button, menu, picker…) by `as` on a message, an ephemeral, a modal or the Home tab. */
  async action(as: string, container: Container, action: Json, values?: Json): Promise<Answer> {
    const slack = this.o.slack;
    const base = { ...this.common(as), trigger_id: this.trigger(as) };
    const actions = [{ ...action, action_ts: actionTs() }];
    let payload: Json;
    if (container.type === 'message') {
      const m = slack.messages.find((x) => x.channel === container.channel && x.ts === container.ts);
      if (!m) return this.refuse('That message is gone.');
      payload = {
        ...base,
        container: {
          type: 'message',
          message_ts: m.ts,
          channel_id: m.channel,
          is_ephemeral: false,
          ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
        },
        channel: { id: m.channel, name: channelName(m.channel) },
        message: messagePayload(m, slack.botUserId),
        state: { values: values ?? {} },
        response_url: slack.responseUrlForUser({
          user: as,
          channel: m.channel,
          ts: m.ts,
          thread_ts: m.thread_ts,
        }),
        actions,
      };
    } else if (container.type === 'unfurl') {
      // A button of an app's unfurl: Slack's container is the message's attachment.
      const m = slack.messages.find((x) => x.channel === container.channel && x.ts === container.ts);
      if (!m?.unfurls?.[container.url]) return this.refuse('That preview is gone.');
      payload = {
        ...base,
        container: {
          type: 'message_attachment',
          message_ts: m.ts,
          channel_id: m.channel,
          attachment_id: Object.keys(m.unfurls).indexOf(container.url) + 1,
          is_ephemeral: false,
          is_app_unfurl: true,
          app_unfurl_url: container.url,
          ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
        },
        channel: { id: m.channel, name: channelName(m.channel) },
        message: messagePayload(m, slack.botUserId),
        state: { values: values ?? {} },
        response_url: slack.responseUrlForUser({ user: as, channel: m.channel, thread_ts: m.thread_ts }),
        actions,
      };
    } else if (container.type === 'ephemeral') {
      const e = slack.ephemerals.find((x) => x.id === container.id && x.user === as);
      if (!e) return this.refuse('That message is gone.');
      payload = {
        ...base,
        container: {
          type: 'message',
          message_ts: e.ts,
          channel_id: e.channel,
          is_ephemeral: true,
          ...(e.thread_ts ? { thread_ts: e.thread_ts } : {}),
        },
        channel: { id: e.channel, name: channelName(e.channel) },
        state: { values: values ?? {} },
        response_url: slack.responseUrlForUser({
          user: as,
          channel: e.channel,
          thread_ts: e.thread_ts,
          ephemeral: e.id,
        }),
        actions,
      };
    } else {
      const view =
        container.type === 'home'
          ? slack.homes.get(as)
          : slack.modals(as).find((m) => m.id === container.viewId)?.view;
      if (!view)
        return this.refuse(
          container.type === 'home' ? 'The Home tab is not there.' : 'That modal is closed.',
        );
      payload = {
        ...base,
        container: { type: 'view', view_id: view.id },
        view: this.viewPayload(as, view, values ?? {}),
        actions,
      };
    }
    payload.type = 'block_actions';
    return this.gesture(payload);
  }

  /**
   * What `as` typed into a type-ahead menu (`external_select`), sent to the options load URL as
   * Slack does (a signed `block_suggestion`, the same endpoint here); answers the options the bot
   * gave. https://api.slack.com/reference/block-kit/block-elements#external_select
   */
  async suggest(
    as: string,
    container: Container,
    blockId: string,
    actionId: string,
    value: string,
  ): Promise<Answer & { options?: Json[] }> {
    const slack = this.o.slack;
    const view =
      container.type === 'view'
        ? slack.modals(as).find((m) => m.id === container.viewId)?.view
        : container.type === 'home'
          ? slack.homes.get(as)
          : undefined;
    const payload: Json = {
      type: 'block_suggestion',
      ...this.common(as),
      container:
        container.type === 'message'
          ? { type: 'message', message_ts: container.ts, channel_id: container.channel }
          : view
            ? { type: 'view', view_id: view.id }
            : {},
      ...(view ? { view: this.viewPayload(as, view, {}) } : {}),
      ...(container.type === 'message' ? { channel: { id: container.channel } } : {}),
      block_id: blockId,
      action_id: actionId,
      value,
    };
    const answer = await this.interact(payload);
    if (!answer.ok) return answer;
    const body = answer.body as { options?: Json[]; option_groups?: { options?: Json[] }[] } | undefined;
    const options = body?.options ?? (body?.option_groups ?? []).flatMap((g) => g.options ?? []);
    return { ok: true, options };
  }

  /** Submits `as`'s modal `viewId` with `values` (`state.values`, as Slack sends them). */
  async submit(as: string, viewId: string, values: Json): Promise<Answer> {
    const slack = this.o.slack;
    const view = slack.modals(as).find((m) => m.id === viewId)?.view;
    if (!view) return this.refuse('That modal is closed.');
    const answer = await this.interact({
      type: 'view_submission',
      ...this.common(as),
      trigger_id: this.trigger(as),
      view: this.viewPayload(as, view, values),
      response_urls: [],
    });
    if (!answer.ok) return answer;
    // The ack decides what the modal does: https://api.slack.com/surfaces/modals#responding
    const ack = (answer.body ?? {}) as {
      response_action?: string;
      errors?: Record<string, string>;
      view?: Json;
    };
    switch (ack.response_action) {
      case 'errors':
        slack.setModalErrors(viewId, ack.errors ?? {});
        return { ok: true, errors: ack.errors ?? {} };
      case 'update':
        slack.replaceModal(viewId, ack.view ?? {});
        return { ok: true };
      case 'push':
        slack.pushModal(as, ack.view ?? {});
        return { ok: true };
      case 'clear':
        slack.clearModals(as);
        return { ok: true };
      default:
        slack.closeModal(as, viewId);
        return { ok: true };
    }
  }

  /** `as` closes a modal: `view_closed` when the view asked for it (`notify_on_close`), and it goes. */
  async close(as: string, viewId: string): Promise<Answer> {
    const slack = this.o.slack;
    const view = slack.modals(as).find((m) => m.id === viewId)?.view;
    if (!view) return { ok: true };
    slack.closeModal(as, viewId);
    if (!view.notify_on_close) return { ok: true };
    return this.gesture({
      type: 'view_closed',
      ...this.common(as),
      view: this.viewPayload(as, view, {}),
      is_cleared: false,
    });
  }

  /** A global shortcut, or a message shortcut when `channel` and `ts` name a message. */
  async shortcut(as: string, callbackId: string, channel?: string, ts?: string): Promise<Answer> {
    const slack = this.o.slack;
    const common = {
      ...this.common(as),
      callback_id: callbackId,
      trigger_id: this.trigger(as),
      action_ts: actionTs(),
    };
    if (channel === undefined || ts === undefined) return this.gesture({ type: 'shortcut', ...common });
    const m = slack.messages.find((x) => x.channel === channel && x.ts === ts);
    if (!m) return this.refuse('That message is gone.');
    return this.gesture({
      type: 'message_action',
      ...common,
      channel: { id: channel, name: channelName(channel) },
      message_ts: m.ts,
      message: messagePayload(m, slack.botUserId),
      response_url: slack.responseUrlForUser({ user: as, channel, thread_ts: m.thread_ts }),
    });
  }

  /** `as` opens the bot's Home tab: an `app_home_opened` event. */
  async homeOpened(as: string): Promise<Answer> {
    const slack = this.o.slack;
    const answer = await this.sendEvent({
      type: 'app_home_opened',
      user: as,
      channel: `D${as.slice(1)}`,
      tab: 'home',
      event_ts: (Date.now() / 1000).toFixed(6),
      ...(slack.homes.has(as) ? { view: slack.homes.get(as) } : {}),
    });
    return answer.ok ? { ok: true } : answer;
  }

  /** `as` switches their Slack language: the double keeps it and sends the bot `user_change`, as Slack does. */
  async changeLocale(as: string, locale: string): Promise<Answer> {
    const answer = await this.sendEvent(this.o.slack.changeLocale(as, locale));
    return answer.ok ? { ok: true } : answer;
  }

  /** `as` reacts to a message with an emoji (Slack's name): a `reaction_added` event, as Slack sends it. */
  async react(as: string, channel: string, ts: string, name: string): Promise<Answer> {
    const slack = this.o.slack;
    if (!slack.messages.some((m) => m.channel === channel && m.ts === ts))
      return this.refuse('That message is gone.');
    const answer = await this.sendEvent(slack.react(as, channel, ts, name));
    return answer.ok ? { ok: true } : answer;
  }

  /**
   * `as` runs a workflow that reaches one of the bot's steps, as Workflow Builder would: the double
   * begins the run (its own token), the `run_as` user_context is `as` (Slack fills it with the person
   * who used the workflow), the signed `function_executed` goes to the bot, and the answer is how
   * the run ended (`functions.completeSuccess` or `completeError`), waited for up to 70 s.
   */
  async step(as: string, callbackId: string, inputs: Json): Promise<StepAnswer> {
    const { run, event } = this.o.slack.startStep({
      callbackId,
      inputs: { ...inputs, run_as: { id: as, secret: randomBytes(8).toString('hex') } },
    });
    const answer = await this.sendEvent(event);
    if (!answer.ok) return answer;
    const until = Date.now() + 70_000;
    while (!run.ended && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const ended = run.ended;
    if (!ended)
      return { ok: true, failed: 'The step did not end within 70 s (Slack would show it as still running).' };
    return ended.kind === 'completed'
      ? { ok: true, outputs: ended.outputs }
      : { ok: true, failed: ended.error };
  }

  /** An event as Slack sends it to the bot: inside its signed `event_callback` envelope. */
  private sendEvent(event: Record<string, unknown>) {
    const body = {
      token: 'legacy',
      team_id: this.o.slack.teamId,
      api_app_id: appId,
      type: 'event_callback',
      event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      event,
    };
    return this.send(JSON.stringify(body), 'application/json');
  }

  private common(as: string) {
    const person = this.person(as);
    const team = this.o.slack.teamId;
    return {
      token: 'legacy',
      api_app_id: appId,
      team: { id: team, domain: 'playground' },
      user: { id: as, username: person.name, name: person.name, team_id: team },
      is_enterprise_install: false,
    };
  }

  /** A view as Slack sends it back: its state, hash and ids around what the bot gave. */
  private viewPayload(as: string, view: Json, values: Json): Json {
    const stack = this.o.slack.modals(as);
    const at = stack.findIndex((m) => m.id === view.id);
    return {
      ...view,
      team_id: this.o.slack.teamId,
      app_id: appId,
      bot_id: 'BDOUBLE01',
      state: { values },
      hash: `${Date.now()}.${randomBytes(4).toString('hex')}`,
      root_view_id: stack[0]?.id ?? view.id,
      previous_view_id: at > 0 ? stack[at - 1]?.id : null,
      private_metadata: view.private_metadata ?? '',
      callback_id: view.callback_id ?? '',
      external_id: view.external_id ?? '',
    };
  }

  private person(as: string) {
    const known = demoPeople.find((p) => p.id === as);
    const user = this.o.slack.users.get(as);
    return { name: known?.name ?? user?.name ?? as.toLowerCase() };
  }

  /** A fresh trigger_id, tied to `as` in the double (their modals open for them). */
  private trigger(as: string): string {
    const id = `${Date.now()}.${randomBytes(6).toString('hex')}`;
    this.o.slack.registerTrigger(id, as);
    return id;
  }

  /** A gesture whose ack body Slack ignores (a click, a shortcut, a close). */
  private async gesture(payload: Json): Promise<Answer> {
    const { body: _ignored, ...outcome } = await this.interact(payload);
    return outcome;
  }

  private interact(payload: Json): Promise<Answer & { body?: unknown }> {
    return this.send(
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      'application/x-www-form-urlencoded',
    );
  }

  /** Posts a signed body to the bot; any answer but a 200 within Slack's deadline is a notice. */
  private async send(body: string, contentType: string): Promise<Answer & { body?: unknown }> {
    const timestamp = Math.floor(Date.now() / 1000);
    const started = Date.now();
    let res: Response;
    try {
      res = await fetch(`${this.o.botUrl}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': slackSignature(this.o.signingSecret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      return this.refuse(`confdesk could not be reached: ${(error as Error).message}`);
    }
    const text = await res.text();
    if (res.status !== 200)
      return this.refuse(`confdesk answered HTTP ${res.status}${text ? `: ${text}` : ''}`);
    if (Date.now() - started > ackDeadlineMs)
      this.say(`confdesk took ${Date.now() - started} ms to answer: Slack shows an error after 3 seconds`);
    const json = (res.headers.get('content-type') ?? '').includes('json') && text;
    return { ok: true, body: json ? (JSON.parse(text) as unknown) : text };
  }

  private refuse(text: string): Answer {
    this.say(text);
    return { ok: false, error: text };
  }

  private say(text: string): void {
    this.notice = { at: Date.now(), text };
    this.o.onNotice?.();
  }
}

/** A message as Slack puts it in a payload (`message` of block_actions and message_action). */
function messagePayload(m: SlackMessage, botUserId: string): Json {
  return {
    type: 'message',
    ts: m.ts,
    user: m.user ?? botUserId,
    ...(m.user === botUserId ? { bot_id: 'BDOUBLE01' } : {}),
    ...(m.text !== undefined ? { text: m.text } : {}),
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
  };
}

const channelName = (id: string) => demoChannels.find((c) => c.id === id)?.name ?? id.toLowerCase();
const actionTs = () => (Date.now() / 1000).toFixed(6);
