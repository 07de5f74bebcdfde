import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { loadConfig } from '../../src/config/config.js';
import { dmChannelOf, SlackDouble, type SlackMessage } from '../../src/dev/slack-double.js';
import { type RunningWorkspaces, startWorkspaces } from '../../src/distribution/start.js';
import { createLogger } from '../../src/observability/logger.js';
import type { SimTicket, SimUser } from '../../src/sim/model.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { eventually } from '../helpers/bot.js';
import { installThrough, settingsSubmission } from '../helpers/distribution.js';
import { clientAs } from '../helpers/platform.js';
import { sendSigned } from '../helpers/slack-requests.js';

/*
 * Distribution mode's other ways in (issue 37): link unfurls, emoji reactions and conference reminders,
 * for a workspace installed through "Add to Slack" and set up with its own platform, on the one HTTP
 * receiver that hands each signed request to its workspace's app. Two workspaces, two simulators:
 * what happens in Alpha is done with Alpha's token on Alpha's platform, and Beta gets none of it.
 * Started as production starts it (no test pacing of the jobs): the reminders scan every
 * REMINDER_INTERVAL, delivery is woken by what the scans write.
 */

const secret = 'dist-surfaces-signing-secret';
const alpha = { team: 'TALPHA01', name: 'Alpha', admin: 'UAADMIN1', member: 'UAMEMBER', channel: 'CA1' };
const beta = { team: 'TBETA002', name: 'Beta', admin: 'UBADMIN1', member: 'UBMEMBER', channel: 'CB1' };
type Ws = typeof alpha;

let slack: SlackDouble;
let simA: Simulator;
let simB: Simulator;
let dataDir: string;
let running: RunningWorkspaces;
let url: string;

beforeAll(async () => {
  slack = await new SlackDouble().start();
  slack.oauthApp = { clientId: '111.222', clientSecret: 'client-secret' };
  // The simulators' links are on loopback: the app's unfurl domains, for this test.
  slack.unfurlDomains = ['127.0.0.1'];
  // The double's people are one list for every workspace: each e-mail belongs to one of them only.
  slack.addUser({ id: alpha.admin, email: 'admin@acme.example', is_admin: true, tz: 'UTC' });
  slack.addUser({ id: alpha.member, email: 'alice@acme.example', tz: 'UTC' });
  slack.addUser({ id: beta.admin, email: 'owner@beta.example', is_admin: true, tz: 'UTC' });
  slack.addUser({ id: beta.member, email: 'bob@acme.example', tz: 'UTC' });
  simA = await createSimulator({ rateLimit: 0, requestLog: Number.POSITIVE_INFINITY });
  simB = await createSimulator({ rateLimit: 0, requestLog: Number.POSITIVE_INFINITY });
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-dist-surfaces-'));
  const config = loadConfig({
    SLACK_SIGNING_SECRET: secret,
    SLACK_CLIENT_ID: '111.222',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_STATE_SECRET: 'state-secret-for-the-tests',
    CONFDESK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://confdesk.example',
    SLACK_API_URL: slack.apiUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    PLATFORM_RATE_LIMIT: '6000',
    PLATFORM_HOSTS: '127.0.0.1',
    // The vendor's ticket pages, as an operator configures them for every workspace.
    UNFURL_TICKET_PATTERN: '^http://127\\.0\\.0\\.1:\\d+/desk/tickets/(\\d+)',
    REMINDER_INTERVAL: '1',
  });
  running = await startWorkspaces(config, createLogger('silent'));
  await running.started;
  url = `http://127.0.0.1:${running.port}`;
  for (const [ws, sim] of [
    [alpha, simA],
    [beta, simB],
  ] as const) {
    expect((await installThrough(url, slack, ws)).status).toBe(200);
    await setUp(ws, sim);
  }
}, 30_000);

afterAll(async () => {
  await running?.stop();
  await slack?.stop();
  await simA?.close();
  await simB?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: string, contentType: string) {
  const res = await sendSigned(url, secret, body, contentType);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
}

async function command(ws: Ws, user: string, name: string, text: string) {
  const trigger = `trigger-${Math.random()}`;
  slack.registerTrigger(trigger, user);
  const responseUrl = slack.responseUrl();
  const fields = {
    command: name,
    text,
    user_id: user,
    channel_id: ws.channel,
    team_id: ws.team,
    response_url: responseUrl,
    trigger_id: trigger,
  };
  const r = await post(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
  return { ...r, responseUrl };
}

const interact = (payload: Record<string, unknown>) =>
  post(
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    'application/x-www-form-urlencoded',
  );

const event = (ws: Ws, e: Record<string, unknown>) =>
  post(
    JSON.stringify({
      type: 'event_callback',
      team_id: ws.team,
      api_app_id: 'ADOUBLE01',
      event_id: `Ev${Math.random().toString(36).slice(2)}`,
      event_time: Math.floor(Date.now() / 1000),
      event: e,
    }),
    'application/json',
  );

/** Its Slack admin opens the settings modal and saves the platform's address and admin token. */
async function setUp(ws: Ws, sim: Simulator) {
  const before = slack.views.size;
  await command(ws, ws.admin, '/conference', 'admin settings');
  await eventually(() => slack.views.size > before);
  const modal = [...slack.views.values()].at(-1);
  if (modal?.view.callback_id !== 'workspace_settings') throw new Error('no settings modal');
  const r = await interact(
    settingsSubmission(ws.team, ws.admin, modal.id, { url: sim.url, token: sim.adminToken }),
  );
  expect(r.body).toMatchObject({ response_action: 'update' });
  await eventually(() => running.workspaces().get(ws.team)?.confdesk);
}

const tokenOf = (ws: Ws) => slack.tokenOf(ws.team) as string;
/** The double's record of the Web API calls made with `ws`'s bot token. */
const callsWith = (ws: Ws, method: string) =>
  slack.calls.filter((c) => c.token === tokenOf(ws) && c.method === method);
/** The platform's writes (anything but a read) since `from`. */
const writesOf = (sim: Simulator, from = 0) => sim.requests.slice(from).filter((r) => r.method !== 'GET');

const simUser = (sim: Simulator, username: string) =>
  [...sim.state.users.values()].find((u) => u.username === username) as SimUser;

describe('distribution mode: unfurls, reactions and reminders, each in its own workspace', () => {
  it('a ticket link pasted in Alpha unfurls through Alpha’s chat.unfurl, read on Alpha’s platform; Beta calls nothing', async () => {
    expect(tokenOf(alpha)).not.toBe(tokenOf(beta));
    const ticket = [...simA.state.tickets.values()].find((t) => t.reference === 'ACME-1001') as SimTicket;
    // The same ticket on Beta's platform (the simulators share a seed) carries another subject.
    const twin = simB.state.tickets.get(ticket.id) as SimTicket;
    twin.subject = 'Beta’s own subject';
    const link = `${simA.url}/desk/tickets/${ticket.id}`;
    const fromB = simB.requests.length;
    const message: SlackMessage = slack.postAsUser(alpha.member, alpha.channel, `see ${link}`);
    const shared = slack.linkShared(message);
    expect(shared).toBeDefined();
    expect((await event(alpha, shared as Record<string, unknown>)).status).toBe(200);
    const unfurls = await eventually(() => message.unfurls);
    expect(Object.keys(unfurls)).toEqual([link]);
    expect(JSON.stringify(unfurls[link])).toContain('ACME-1001 — Router does not boot');
    expect(JSON.stringify(unfurls[link])).not.toContain('Beta’s own subject');
    const [call, ...more] = slack.calls.filter((c) => c.method === 'chat.unfurl');
    expect(more).toEqual([]);
    expect(call?.token).toBe(tokenOf(alpha));
    expect(call?.args).toMatchObject({ channel: alpha.channel, ts: message.ts });
    expect(callsWith(beta, 'chat.unfurl')).toEqual([]);
    expect(
      simB.requests.slice(fromB).filter((r) => r.path.startsWith(`/api/v3/tickets/${ticket.id}`)),
    ).toEqual([]);
  });

  it('after /ticket follow reactions, 👀 on a ticket card in Alpha makes the reactor its agent on Alpha’s platform only', async () => {
    const follow = await command(alpha, alpha.member, '/ticket', 'follow reactions');
    expect(follow.status).toBe(200);
    const store = running.workspaces().get(alpha.team)?.store;
    await eventually(async () =>
      (await store?.subscriptionsOf(alpha.channel))?.some((s) => s.kind === 'reactions'),
    );
    expect(await running.workspaces().get(beta.team)?.store?.subscriptionsOf(alpha.channel)).toEqual([]);

    // A fresh open ticket of Level 1 (bob's), which alice, in Level 1, may take.
    const bob = simUser(simA, 'bob');
    const ticket = simA.state.createTicket(bob, {
      reference: 'DIST-1',
      subject: 'Reacted to in Alpha',
      agentId: bob.id,
      groupId: [...simA.state.groups.values()].find((g) => g.name === 'Level 1')?.id as number,
      emails: ['jane.doe@example.com'],
      phones: [],
      invite: false,
    });
    ticket.state = 'open';
    const twin = simB.state.tickets.get(ticket.id);
    await command(alpha, alpha.admin, '/ticket', 'show DIST-1');
    const card = await eventually(() =>
      slack.messages.find(
        (m) => m.channel === alpha.channel && !m.thread_ts && String(m.text).startsWith('DIST-1'),
      ),
    );
    expect(callsWith(alpha, 'chat.postMessage').some((c) => c.args.channel === alpha.channel)).toBe(true);

    const writesB = writesOf(simB).length;
    const res = await event(alpha, slack.react(alpha.member, alpha.channel, card.ts, 'eyes'));
    expect(res.status).toBe(200);
    const alice = simUser(simA, 'alice');
    await eventually(() => simA.state.tickets.get(ticket.id)?.agentId === alice.id);
    // Taken with Alpha's platform account, as the reactor.
    expect(
      writesOf(simA).some((r) => r.path.startsWith(`/api/v3/tickets/${ticket.id}`) && r.method !== 'GET'),
    ).toBe(true);
    // Beta's platform was asked nothing, and its ticket of the same id kept its agent.
    expect(writesOf(simB).length).toBe(writesB);
    expect(simB.state.tickets.get(ticket.id)?.agentId).toBe(twin?.agentId);
    // The card's thread says who took it, with Alpha's token.
    await eventually(() =>
      callsWith(alpha, 'chat.postMessage').some(
        (c) => c.args.thread_ts === card.ts && JSON.stringify(c.args).includes(`<@${alpha.member}>`),
      ),
    );
  });

  it('a conference created on Alpha’s platform reminds its participant once, in a DM sent with Alpha’s token; Beta’s stays in Beta', async () => {
    const start = new Date(Date.now() + 8 * 60_000);
    await clientAs(simA, 'admin').createConference({
      participants: ['alice@acme.example'],
      name: 'Alpha planning',
      startTime: start,
      duration: 30,
    });
    // Beta's own, moderated by someone not in Slack: only bob, Beta's member, is reminded.
    await clientAs(simB, 'carol').createConference({
      participants: ['bob@acme.example'],
      name: 'Beta retro',
      startTime: start,
      duration: 30,
    });
    const remindersWith = (ws: Ws, title: string) =>
      callsWith(ws, 'chat.postMessage').filter(
        (c) =>
          String(c.args.text).includes(title) && JSON.stringify(c.args).includes(ids.actions.reminderJoin),
      );
    const toAlice = await eventually(
      () => remindersWith(alpha, 'Alpha planning').find((c) => c.args.channel === dmChannelOf(alpha.member)),
      15_000,
    );
    expect(JSON.stringify(toAlice.args.blocks)).toContain(`${simA.url}/join/`);
    await eventually(
      () => remindersWith(beta, 'Beta retro').find((c) => c.args.channel === dmChannelOf(beta.member)),
      15_000,
    );
    // A few more scans (one a second while a conference is coming): still once per person.
    const lists = () => simA.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/conferences');
    const seen = lists().length;
    await eventually(() => lists().length >= seen + 2, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      remindersWith(alpha, 'Alpha planning')
        .map((c) => c.args.channel)
        .sort(),
    ).toEqual([dmChannelOf(alpha.admin), dmChannelOf(alpha.member)].sort());
    expect(remindersWith(beta, 'Beta retro').map((c) => c.args.channel)).toEqual([dmChannelOf(beta.member)]);
    // Nothing of one workspace's conference went out with the other's token.
    expect(remindersWith(beta, 'Alpha planning')).toEqual([]);
    expect(remindersWith(alpha, 'Beta retro')).toEqual([]);
    expect(slack.violations).toEqual([]);
  });
});
