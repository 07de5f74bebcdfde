/*
 * bench/realtime/start.ts — how the real-time benches (bench/realtime*.ts) start their three
 * processes: the platform simulator (bench/realtime/sim.ts), the Slack double
 * (bench/realtime/slack.ts) and the bot as deployed (`node --import tsx src/main.ts`); the desk
 * of watched tickets the bot finds in its store; and the simulator's agents logging in.
 */

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openStore } from '../../src/store/store.js';
import { getJson, http, type Proc, postJson, spawnNode, waitFor } from './processes.js';

/** The simulator's `GET /setup` (bench/realtime/sim.ts). */
export interface SimSetup {
  /** The platform's URL. */
  url: string;
  adminToken: string;
  adminUserId: number;
  /** Its REALTIME_TICKETS tickets. */
  tickets: { id: string; modified: number; state: string }[];
  /** Its REALTIME_AGENTS agents' accounts. */
  agents: { username: string; password: string; userId: number }[];
  /** The admin's group. */
  group: { id: string; name: string };
  /** The demo enterprise's seeded tickets, by reference. */
  seeded: { id: string; reference: string | undefined }[];
}

/** Where the simulator and the double answer (their first lines), and the simulator's set-up. */
export interface Backends {
  simAt: { url: string; control: string };
  slackAt: { api: string; control: string };
  setup: SimSetup;
}

/**
 * The platform simulator (with `simEnv`) and the Slack double (with `slackEnv`), each in its own
 * process logging to `dir`, pushed on `procs`; answers where they are and the simulator's set-up.
 */
export async function startBackends(
  procs: Proc[],
  dir: string,
  o: { simEnv: Record<string, string>; slackEnv?: Record<string, string>; timeoutMs?: number },
): Promise<Backends> {
  const simProc = spawnNode('simulator', ['bench/realtime/sim.ts'], o.simEnv, join(dir, 'sim.log'));
  procs.push(simProc);
  const slackProc = spawnNode(
    'Slack double',
    ['bench/realtime/slack.ts'],
    o.slackEnv ?? {},
    join(dir, 'slack.log'),
  );
  procs.push(slackProc);
  const simAt = JSON.parse(await waitFor(simProc, /REALTIME_SIM (\{.*\})/, o.timeoutMs)) as Backends['simAt'];
  const slackAt = JSON.parse(
    await waitFor(slackProc, /REALTIME_SLACK (\{.*\})/, o.timeoutMs),
  ) as Backends['slackAt'];
  const setup = await getJson<SimSetup>(`${simAt.control}/setup`);
  return { simAt, slackAt, setup };
}

/**
 * A desk that has run a while, before its bot starts: every ticket watched (by `person`) in its
 * channel (`channelOf`), its card there `cardAgeS` seconds old (the double holds the message), and
 * the bot's store in `dataDir` with the subscription, the card and the ticket's version as seen.
 * Answers each card's ts by ticket id.
 */
export async function watchEveryTicket(o: {
  slackControl: string;
  dataDir: string;
  tickets: { id: string; modified: number; state: string }[];
  channelOf: (ticketId: string) => string;
  cardAgeS: number;
  person: string;
}): Promise<Record<string, string>> {
  const cardTs = await postJson<Record<string, string>>(
    `${o.slackControl}/cards?age=${o.cardAgeS}`,
    o.tickets.map((t) => ({ ticketId: t.id, channel: o.channelOf(t.id), text: `${t.id}: ${t.state}` })),
  );
  const store = await openStore({ dataDir: o.dataDir });
  for (const t of o.tickets) {
    const channel = o.channelOf(t.id);
    await store.addSubscription({
      id: `w${t.id}`,
      channel,
      kind: 'watch',
      ticketId: t.id,
      filter: {},
      createdBy: o.person,
    });
    await store.save({ ticketId: t.id, channel, ts: cardTs[t.id] as string });
    await store.markSeen(t.id, new Date(Math.floor(t.modified / 1000) * 1000).toISOString(), t.state);
  }
  await store.close();
  return cardTs;
}

/** The header the simulator's webhooks carry their secret in. */
export const webhookHeader = 'X-Webhook-Secret';

/**
 * The bot as deployed (`node --import tsx src/main.ts` with a deployment's environment: HTTP mode,
 * PLATFORM_RATE_LIMIT 10, POLL_INTERVAL 30, and `env` on top) on the store in `dataDir`, the
 * simulator and the Slack double at `slackApi`, logging to `dir`/bot.log (or `log`) and pushed on
 * `procs`; with `webhooks`, the simulator's webhooks point at it. Its signing and webhook secrets are
 * new unless given (a restart on the same store keeps them). Answers once it listens.
 */
export async function startBot(
  procs: Proc[],
  dir: string,
  o: {
    dataDir: string;
    setup: { url: string; adminToken: string };
    slackApi: string;
    token: string;
    webhooks: boolean;
    env?: Record<string, string>;
    signingSecret?: string;
    webhookSecret?: string;
    /** The log's file name in `dir` (bot.log). */
    log?: string;
  },
): Promise<{ botProc: Proc; botUrl: string; signingSecret: string; webhookSecret: string }> {
  const signingSecret = o.signingSecret ?? randomBytes(16).toString('hex');
  const webhookSecret = o.webhookSecret ?? randomBytes(16).toString('hex');
  const botProc = spawnNode(
    'bot',
    ['src/main.ts'],
    {
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SLACK_BOT_TOKEN: o.token,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: o.slackApi,
      PORT: '0',
      PLATFORM_URL: o.setup.url,
      PLATFORM_TOKEN: o.setup.adminToken,
      PLATFORM_RATE_LIMIT: '10',
      POLL_INTERVAL: '30',
      DATA_DIR: o.dataDir,
      ...o.env,
      ...(o.webhooks
        ? { PLATFORM_WEBHOOK_SECRET: webhookSecret, PLATFORM_WEBHOOK_HEADER: webhookHeader }
        : {}),
    },
    join(dir, o.log ?? 'bot.log'),
    { ipc: false },
  );
  procs.push(botProc);
  const botUrl = `http://127.0.0.1:${await waitFor(botProc, /listening on port (\d+)/, 120_000)}`;
  if (o.webhooks) {
    const q = new URLSearchParams({
      url: `${botUrl}/webhooks/platform`,
      secret: webhookSecret,
      header: webhookHeader,
    });
    const r = await http(`${o.setup.url}/_sim/webhook?${q}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${o.setup.adminToken}` },
    });
    if (r.status !== 200) throw new Error(`could not set the simulator's webhook: ${r.status} ${r.text}`);
  }
  return { botProc, botUrl, signingSecret, webhookSecret };
}

/** The simulator's agents logged in with their own accounts: their tokens, in their order. */
export async function loginAgents(
  platformUrl: string,
  agents: { username: string; password: string }[],
): Promise<string[]> {
  const tokens: string[] = [];
  for (const a of agents) {
    const r = await http(`${platformUrl}/api/v3/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        username: a.username,
        password: a.password,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (r.status !== 200) throw new Error(`agent ${a.username} could not log in: ${r.status} ${r.text}`);
    tokens.push((JSON.parse(r.text) as { access_token: string }).access_token);
  }
  return tokens;
}
