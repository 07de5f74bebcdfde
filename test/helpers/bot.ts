import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type Confdesk, createConfdesk } from '../../src/confdesk.js';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import type { EnvelopeKind } from '../../src/dev/socket-mode-double.js';
import { runDoctor } from '../../src/doctor/doctor.js';
import type { UnfurlPatterns } from '../../src/domain/unfurl-links.js';
import type { Locale } from '../../src/i18n/locale.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import { Metrics } from '../../src/observability/metrics.js';
import type { PlatformClientOptions } from '../../src/platform/client.js';
import type { SimulatorOptions } from '../../src/sim/server.js';
import type { SlackApp } from '../../src/slack/app.js';
import { openStore, type Store } from '../../src/store/store.js';
import { formState } from './form-state.js';
import { botNow, people } from './people.js';
import { type PlatformFixture, startPlatform } from './platform.js';
import { sendCommand, slackSignature } from './slack-requests.js';

export const secret = 'e2e-signing-secret';
/** The app-level token of the Socket Mode tests (never in a log line). */
export const appToken = 'xapp-1-A0DOUBLE01-e2e-app-level-secret';

export { botNow, formState, people };

export interface BotFixture {
  platform: PlatformFixture;
  slack: SlackDouble;
  bot: SlackApp;
  /** The whole bot as main.ts assembles it (services, publisher, jobs). */
  confdesk: Confdesk;
  /**
   * The bot's store (an embedded one in a temp dir), itself: the bot's jobs are not woken by what a
   * test writes here. A test that adds watches or cards while the bot runs calls
   * `confdesk.jobs.wake({ job: 'poll' })` after, as another replica's write is passed on.
   */
  store: Store;
  /** The HTTP receiver's URL (HTTP mode). */
  url: string;
  /** Sends a signed slash command (`/conference` unless named); answers the parsed ack body (or null). */
  command(
    text: string,
    as?: string,
    channel?: string,
    name?: string,
  ): Promise<{ status: number; body: unknown; responseUrl: string }>;
  /** Sends a signed interactivity payload (block_actions, view_submission, shortcut). */
  interact(payload: Record<string, unknown>): Promise<{ status: number; body: unknown }>;
  /** Sends a signed Events API callback carrying `event`. */
  event(event: Record<string, unknown>): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** The simulator, the Slack double and the bot on its real HTTP receiver, all on loopback. */
export async function startBot(
  options: {
    sim?: SimulatorOptions;
    client?: Partial<PlatformClientOptions>;
    /** Also run the background jobs (poller and delivery), scanning this often. */
    pollIntervalMs?: number;
    /** Run the conference reminders, scanning this often (off otherwise: App Home shows no settings). */
    reminderScanMs?: number;
    /** Accept platform webhooks on POST /webhooks/platform with this secret (X-Webhook-Secret). */
    webhookSecret?: string;
    /** The bot's logger (silent unless a test reads the log lines). */
    logger?: Logger;
    /**
     * Socket Mode: the bot connects to the double's WebSocket with `appToken`, and `command`,
     * `interact` and `event` send envelopes there (the body answered is the ack's payload).
     */
    socket?: boolean;
    /** Socket Mode behind this proxy (the WebSocket and apps.connections.open go through it). */
    proxy?: { httpProxy: string; noProxy?: string };
    /** Report to a fresh registry and serve `GET /metrics` (behind this bearer token, if given). */
    metrics?: { token?: string };
    /** Link unfurls' patterns (UNFURL_*_PATTERN, compiled); unset: only join links unfurl. */
    unfurlPatterns?: UnfurlPatterns;
    /** The language of what channels see (`CHANNEL_LANGUAGE`); unset: English. */
    channelLocale?: Locale;
  } = {},
): Promise<BotFixture> {
  const platform = await startPlatform(options.sim, options.client);
  const slack = await new SlackDouble().start();
  const socket = options.socket ? await slack.enableSocketMode(appToken) : undefined;
  for (const p of Object.values(people))
    slack.addUser({ id: p.id, tz: p.tz, ...(p.email ? { email: p.email } : {}) });
  const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-bot-'));
  const store = await openStore({ dataDir });
  const confdesk = createConfdesk({
    slack: {
      botToken: 'xoxb-e2e',
      signingSecret: secret,
      apiUrl: slack.apiUrl,
      appToken: socket ? appToken : undefined,
      proxy: options.proxy,
      port: 0,
      // The doctor as main wires it: this fixture's configuration, client and store.
      doctor: () =>
        runDoctor({
          config: loadConfig({
            SLACK_BOT_TOKEN: 'xoxb-e2e',
            SLACK_SIGNING_SECRET: secret,
            SLACK_API_URL: slack.apiUrl,
            PLATFORM_URL: platform.sim.url,
            PLATFORM_TOKEN: platform.sim.adminToken,
            DATA_DIR: dataDir,
            ...(options.webhookSecret ? { PLATFORM_WEBHOOK_SECRET: options.webhookSecret } : {}),
          }),
          platform: {
            baseUrl: platform.client.baseUrl,
            credentials: options.client?.credentials ?? { kind: 'token', token: platform.sim.adminToken },
            simulator: false,
            findings: platform.client.findings,
            budget: platform.client.budget,
          },
          store: () => store.inspect(),
        }),
    },
    platform: platform.client,
    store,
    logger: options.logger ?? createLogger((process.env.TEST_LOG as 'silent') ?? 'silent'),
    now: () => botNow,
    unfurlPatterns: options.unfurlPatterns,
    channelLocale: options.channelLocale,
    ...(options.metrics
      ? {
          workspace: slack.teamId,
          metrics: { registry: new Metrics(), route: { token: options.metrics.token } },
        }
      : {}),
    webhook: options.webhookSecret
      ? { secret: options.webhookSecret, header: 'X-Webhook-Secret' }
      : undefined,
    // Delivery runs as in production (people's thread lines go through the outbox); the poller only
    // when a test asks for it.
    jobs: {
      deliverEveryMs: 50,
      paceMs: 20,
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
      ...(options.reminderScanMs === undefined ? {} : { reminderScanMs: options.reminderScanMs }),
    },
  });
  const bot = confdesk.slack;
  const url = `http://127.0.0.1:${await confdesk.start()}`;
  const parse = async (res: Response) => {
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  // Socket Mode: the same requests as envelopes; an ack without a payload answers like an empty body.
  const send = async (kind: EnvelopeKind, payload: Record<string, unknown>) => {
    const ack = await (socket as NonNullable<typeof socket>).send(kind, payload);
    return { status: 200, body: ack.payload && Object.keys(ack.payload).length ? ack.payload : null };
  };
  const post = async (body: string, contentType: string) => {
    const ts = Math.floor(Date.now() / 1000);
    const res = await fetch(`${url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': slackSignature(secret, ts, body),
      },
      body,
    });
    return parse(res);
  };
  return {
    platform,
    slack,
    bot,
    confdesk,
    store,
    url,
    async command(text, as = people.admin.id, channel = 'C1', name = '/conference') {
      const responseUrl = slack.responseUrl();
      const fields = {
        command: name,
        text,
        user_id: as,
        channel_id: channel,
        team_id: slack.teamId,
        response_url: responseUrl,
        trigger_id: `trigger-${Math.random()}`,
      };
      const answer = socket
        ? await send('slash_commands', fields)
        : await parse(await sendCommand(url, secret, fields));
      return { ...answer, responseUrl };
    },
    interact(payload) {
      if (socket) return send('interactive', payload);
      return post(
        new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
        'application/x-www-form-urlencoded',
      );
    },
    event(event) {
      const body = {
        type: 'event_callback',
        team_id: slack.teamId,
        api_app_id: 'A1',
        event_id: `Ev${Math.random().toString(36).slice(2)}`,
        event_time: Math.floor(Date.now() / 1000),
        event,
      };
      if (socket) return send('events_api', body);
      return post(JSON.stringify(body), 'application/json');
    },
    async close() {
      await confdesk.stop();
      await slack.stop();
      await platform.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a bot for the enclosing test file or describe block and stops it after; fills `into` with
 * the fixture before the tests run. After each test, checks that no payload the bot sent broke a
 * Block Kit limit (the double refuses those, as Slack does).
 */
export function useBot(into: BotFixture, options: Parameters<typeof startBot>[0] = {}): void {
  beforeAll(async () => {
    Object.assign(into, await startBot(options));
  });
  afterAll(async () => {
    await into.close();
  });
  afterEach(() => {
    expect(into.slack.violations).toEqual([]);
  });
}

/** A click on a button of a message the bot posted (or of an ephemeral reply). */
export function buttonClick(
  slack: SlackDouble,
  o: { user: string; actionId: string; value: string; channel: string; ts?: string; ephemeral?: boolean },
) {
  return {
    type: 'block_actions',
    user: { id: o.user },
    team: { id: slack.teamId },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: `trigger-${Math.random()}`,
    response_url: o.ts && !o.ephemeral ? slack.responseUrlFor(o.channel, o.ts) : slack.responseUrl(),
    channel: { id: o.channel },
    container: {
      type: 'message',
      channel_id: o.channel,
      message_ts: o.ts ?? '0.0',
      is_ephemeral: o.ephemeral ?? false,
    },
    actions: [{ type: 'button', action_id: o.actionId, block_id: 'b', value: o.value, action_ts: '1' }],
  };
}

/** A click on a button in a modal or on App Home: no channel, no response_url; the view is the container. */
export function viewClick(
  slack: SlackDouble,
  o: {
    user: string;
    actionId: string;
    value: string;
    view: {
      id: string;
      type: 'home' | 'modal';
      hash?: string;
      private_metadata?: string;
      callback_id?: string;
    };
  },
) {
  const { response_url: _url, channel: _channel, ...click } = buttonClick(slack, { ...o, channel: '' });
  return {
    ...click,
    container: { type: 'view', view_id: o.view.id },
    view: { hash: 'h', private_metadata: '', callback_id: '', ...o.view },
  };
}

type Json = Record<string, unknown>;

/** A view_submission of `view` (as the double holds it) by `user`. */
export function submission(view: Json, user: string, values: Json) {
  return {
    type: 'view_submission',
    user: { id: user },
    team: { id: 'T0000DBL' },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: `trigger-${Math.random()}`,
    view: { ...view, state: { values }, hash: 'h' },
  };
}

/** Waits until `check` returns (or resolves to) a value, not undefined/false, polling; fails after `ms`. */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 5_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
