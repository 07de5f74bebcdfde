import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import {
  type RunningWorkspaces,
  startWorkspaces,
  type WorkspacesOptions,
} from '../../src/distribution/start.js';
import { createLogger } from '../../src/observability/logger.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { openStore } from '../../src/store/store.js';
import { type BotFixture, eventually, useBot } from '../helpers/bot.js';
import { installThrough, type TestWorkspace } from '../helpers/distribution.js';
import { slackSignature } from '../helpers/slack-requests.js';

/*
 * Distribution mode's doors, tried as an outsider would through the real receiver and the Slack
 * double's oauth.v2.access: an install flow's state works once (on every replica), junk at the OAuth
 * redirect is one warning a minute, an installation under an odd team id is refused, and one kept
 * from before is forgotten whole at uninstall; sealed secrets open only in their own workspace's row
 * (values sealed before that open once, at start, and are sealed again: nothing installed is lost);
 * an allowlist of workspaces; a late uninstall retry after a reinstall; no log line per /metrics
 * scrape when metrics are off.
 */

const secret = 'safety-signing-secret';
const stateSecret = 'state-secret-for-the-safety-tests';
const key = randomBytes(32);

let slack: SlackDouble;
let sim: Simulator;
const dirs: string[] = [];

beforeAll(async () => {
  slack = await new SlackDouble().start();
  slack.oauthApp = { clientId: '111.222', clientSecret: 'client-secret' };
  sim = await createSimulator({ rateLimit: 0 });
});

afterAll(async () => {
  await slack?.stop();
  await sim?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** One log line as pino writes it. */
interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A distribution-mode process of the tests, with every line it logs (at debug level). */
interface Process {
  running: RunningWorkspaces;
  url: string;
  lines: Line[];
  dataDir: string;
}

function envOf(dataDir: string, extra: Record<string, string> = {}) {
  return {
    SLACK_SIGNING_SECRET: secret,
    SLACK_CLIENT_ID: '111.222',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_STATE_SECRET: stateSecret,
    CONFDESK_ENCRYPTION_KEY: key.toString('base64'),
    PUBLIC_URL: 'https://confdesk.example',
    SLACK_API_URL: slack.apiUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    PLATFORM_RATE_LIMIT: '6000',
    PLATFORM_HOSTS: '127.0.0.1',
    ...extra,
  };
}

/** Starts a process on `dataDir` (a new one unless given: a second replica shares the first's). */
async function boot(
  o: { dataDir?: string; env?: Record<string, string>; options?: WorkspacesOptions } = {},
): Promise<Process> {
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'confdesk-safety-'));
  if (!o.dataDir) dirs.push(dataDir);
  const lines: Line[] = [];
  const logger = createLogger('debug', { write: (l: string) => void lines.push(JSON.parse(l) as Line) });
  const running = await startWorkspaces(loadConfig(envOf(dataDir, o.env)), logger, {
    jobs: { deliverEveryMs: 50, paceMs: 20 },
    ...o.options,
  });
  await running.started;
  return { running, url: `http://127.0.0.1:${running.port}`, lines, dataDir };
}

/** The install page as a browser gets it: the state in its Slack link, and the cookie it set. */
async function installPage(url: string) {
  const page = await fetch(`${url}/slack/install`);
  const html = await page.text();
  const authorize = new URL(/href="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, '&') ?? '');
  return {
    state: authorize.searchParams.get('state') ?? '',
    cookie: (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}

/** Slack's redirect back to the bot, as the browser follows it. */
async function redirect(url: string, query: Record<string, string>, cookie?: string) {
  const res = await fetch(`${url}/slack/oauth_redirect?${new URLSearchParams(query)}`, {
    headers: cookie ? { cookie } : {},
  });
  return { status: res.status, html: await res.text() };
}

/** A signed Events API callback from `team` (with Slack's retry headers when `retry` is given). */
async function event(
  url: string,
  team: string,
  e: Record<string, unknown>,
  o: { eventId?: string; eventTime?: number; retry?: number } = {},
) {
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: team,
    api_app_id: 'ADOUBLE01',
    event_id: o.eventId ?? `Ev${Math.random().toString(36).slice(2)}`,
    event_time: o.eventTime ?? Math.floor(Date.now() / 1000),
    event: e,
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(`${url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(secret, timestamp, body),
      ...(o.retry ? { 'x-slack-retry-num': String(o.retry), 'x-slack-retry-reason': 'http_timeout' } : {}),
    },
    body,
  });
  await res.text();
  return res.status;
}

/** A signed slash command from `team`. */
async function command(url: string, team: string, user: string, channel: string, text: string) {
  const body = new URLSearchParams({
    command: '/ticket',
    text,
    user_id: user,
    channel_id: channel,
    team_id: team,
    response_url: slack.responseUrl(),
    trigger_id: `trigger-${Math.random()}`,
  }).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(`${url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(secret, timestamp, body),
    },
    body,
  });
  const text2 = await res.text();
  return { status: res.status, body: text2 };
}

/** A value as an earlier confdesk sealed it: AES-256-GCM, without any binding (`v1`). */
function sealedUnbound(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return ['v1', id, ...[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))].join('.');
}

const workspace = (team: string, name = team): TestWorkspace => ({ team, name, admin: `U${team}ADM` });

/** Lines at warning level or above (40: warn, 50: error, 60: fatal). */
const atLeast = (lines: Line[], level: number) => lines.filter((l) => l.level >= level);

describe('junk at /slack/oauth_redirect', () => {
  let p: Process;
  beforeAll(async () => {
    p = await boot();
  });
  afterAll(async () => {
    await p?.running.stop();
  });

  it('is refused with a page, written as one warning a minute at most, never as an error', async () => {
    const { state, cookie } = await installPage(p.url);
    const before = p.lines.length;
    const tries: [Record<string, string>, string | undefined][] = [
      [{}, undefined],
      [{ code: 'abc' }, undefined],
      [{ state: 'forged' }, undefined],
      [{ code: 'abc', state: 'forged' }, undefined],
      // A forged state with a cookie that matches it: the signature is what fails.
      [{ code: 'abc', state: 'forged.state.x' }, 'slack-app-oauth-state=forged.state.x'],
      // A real state without its browser's cookie, or with another's.
      [{ code: 'abc', state }, undefined],
      [{ code: 'abc', state }, 'slack-app-oauth-state=another'],
      [{ error: 'access_denied', state }, cookie],
    ];
    for (let round = 0; round < 5; round++)
      for (const [query, c] of tries) {
        const r = await redirect(p.url, query, c);
        expect(r.status).toBe(400);
        expect(r.html).toContain('confdesk was not installed');
      }
    const lines = p.lines.slice(before);
    expect(atLeast(lines, 50)).toEqual([]);
    const warnings = atLeast(lines, 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toContain('refused a request to the OAuth redirect');
    // No line of the burst says more than the reason: no state, code or cookie.
    const text = JSON.stringify(lines);
    expect(text).not.toContain(state);
    expect(text).not.toContain('forged.state.x');
  });
});

/**
 * A POST to `/slack/events` whose body the receiver cannot read: 5 MB (past Bolt's 4 MB) with its
 * length announced or streamed without one, or one cut short (the socket closed mid-body).
 * Resolves to the status answered, or undefined when the client went away first.
 */
function unreadableBody(url: string, kind: 'announced' | 'streamed' | 'cut'): Promise<number | undefined> {
  const size = 5 * 1024 * 1024;
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (kind !== 'streamed') headers['content-length'] = kind === 'cut' ? 1000 : size;
    const req = httpRequest(`${url}/slack/events`, { method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      res.resume();
      req.destroy();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(undefined));
    if (kind === 'cut') {
      req.write('{"type":');
      req.on('socket', (socket) => socket.once('connect', () => setTimeout(() => req.destroy(), 50)));
      req.on('close', () => resolve(undefined));
      return;
    }
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < size && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', more);
      }
      if (!req.destroyed) req.end();
    };
    more();
  });
}

describe('junk at /slack/events', () => {
  let p: Process;
  beforeAll(async () => {
    p = await boot();
  });
  afterAll(async () => {
    await p?.running.stop();
  });

  it('a body that cannot be read (too large, cut short) is refused, written as one warning a minute at most', async () => {
    const before = p.lines.length;
    const warnings = () => atLeast(p.lines.slice(before), 40);
    // The first one cut short: the receiver's line is written once the socket is gone.
    expect(await unreadableBody(p.url, 'cut')).toBeUndefined();
    const first = await eventually(() => warnings()[0]);
    expect(first).toMatchObject({ status: 400, reason: 'unreadable body (request.aborted)' });
    for (let i = 0; i < 10; i++) {
      expect(await unreadableBody(p.url, 'announced')).toBe(413);
      expect(await unreadableBody(p.url, 'cut')).toBeUndefined();
    }
    for (let i = 0; i < 3; i++) expect(await unreadableBody(p.url, 'streamed')).toBe(413);
    // Slack's own request is still served.
    const challenge = JSON.stringify({ type: 'url_verification', challenge: 'still-here' });
    const timestamp = Math.floor(Date.now() / 1000);
    const res = await fetch(`${p.url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(secret, timestamp, challenge),
      },
      body: challenge,
    });
    expect(await res.json()).toEqual({ challenge: 'still-here' });
    await new Promise((r) => setTimeout(r, 200)); // the last cut-short ones' lines, had they been written
    expect(atLeast(p.lines.slice(before), 50)).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toContain('whose body could not be read');
  });

  it('an unsigned request (no signature, a wrong or stale one) is a 401, written as one warning a minute at most', async () => {
    const before = p.lines.length;
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0SAFE01',
      event: { type: 'app_mention' },
    });
    const now = Math.floor(Date.now() / 1000);
    const tries: Record<string, string>[] = [
      {},
      { 'x-slack-request-timestamp': String(now) },
      { 'x-slack-request-timestamp': String(now), 'x-slack-signature': 'v0=forged' },
      { 'x-slack-request-timestamp': String(now), 'x-slack-signature': slackSignature('guess', now, body) },
      {
        'x-slack-request-timestamp': String(now - 600),
        'x-slack-signature': slackSignature(secret, now - 600, body),
      },
      { 'x-slack-request-timestamp': String(now), 'x-slack-signature': 'v1=abc' },
    ];
    for (let round = 0; round < 5; round++)
      for (const headers of tries) {
        const res = await fetch(`${p.url}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        await res.text();
        expect(res.status).toBe(401);
      }
    const lines = p.lines.slice(before);
    expect(atLeast(lines, 50)).toEqual([]);
    const warnings = atLeast(lines, 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toContain('without a valid Slack signature');
    // The first one's reason, as Bolt gave it: a wrong SLACK_SIGNING_SECRET would still show.
    expect(warnings[0]?.reason).toMatch(/^Failed to verify authenticity: /);
  });
});

describe('the install flow', () => {
  let p: Process;
  beforeAll(async () => {
    p = await boot({ env: { METRICS: 'off' } });
  });
  afterAll(async () => {
    await p?.running.stop();
  });

  it('a state works once: the same redirect again, with its cookie, installs nothing, on this replica or another', async () => {
    const { state, cookie } = await installPage(p.url);
    const first = slack.grantInstall({ teamId: 'TONCE001', teamName: 'Once', user: 'UONCE' });
    expect((await redirect(p.url, { code: first, state }, cookie)).status).toBe(200);
    expect(await p.running.registry.teams()).toContain('TONCE001');
    // The redirect seen again (a proxy's log, a browser's history), with another workspace's code.
    const replay = slack.grantInstall({ teamId: 'TREPLAY1', teamName: 'Replay', user: 'UREPLAY' });
    const again = await redirect(p.url, { code: replay, state }, cookie);
    expect(again.status).toBe(400);
    expect(again.html).toContain('This install link was used already');
    expect(again.html).toContain('slack_oauth_invalid_state');
    // Refused before the code was exchanged: Slack was not even asked.
    expect(slack.calls.some((c) => c.method === 'oauth.v2.access' && c.args.code === replay)).toBe(false);
    // A second replica on the same store refuses it too.
    const second = await boot({ dataDir: p.dataDir });
    try {
      expect((await redirect(second.url, { code: replay, state }, cookie)).status).toBe(400);
      expect(await second.running.registry.teams()).not.toContain('TREPLAY1');
      // …while a state its own page gave works there, once.
      const fresh = await installPage(second.url);
      expect((await redirect(second.url, { code: replay, state: fresh.state }, fresh.cookie)).status).toBe(
        200,
      );
    } finally {
      await second.running.stop();
    }
    expect(await p.running.registry.teams()).toEqual(['TONCE001', 'TREPLAY1']);
  });

  it('an install Slack completes under an odd team id is refused, and the app removed from it again', async () => {
    const before = slack.calls.length;
    const done = await installThrough(p.url, slack, workspace('t-odd.1', 'Odd <ws>'));
    expect(done.status).toBe(403);
    expect(done.html).toContain('an id confdesk does not recognise');
    expect(done.html).toContain('t-odd.1');
    expect(await p.running.registry.teams()).not.toContain('t-odd.1');
    // Slack handed out a token: it is uninstalled with the app's own credentials, and no longer works.
    const token = [...slack.installed].find(([, w]) => w.teamId === 't-odd.1')?.[0] ?? 'none';
    await eventually(() =>
      slack.calls
        .slice(before)
        .some((c) => c.method === 'apps.uninstall' && c.token === token && c.args.client_id === '111.222'),
    );
    expect(slack.revokedTokens.has(token)).toBe(true);
    expect(existsSync(join(p.dataDir, 'workspaces'))).toBe(false);
  });

  it('an installation kept under an odd team id by an earlier confdesk is forgotten at uninstall, with its sealed token', async () => {
    const odd = 'T-LEGACY.1';
    const second = await boot({ dataDir: p.dataDir, options: { syncEveryMs: 100 } });
    try {
      // As an earlier confdesk kept it (it checked no id); the replicas' sync starts it.
      await second.running.registry
        .installationStore(async () => undefined)
        .storeInstallation({
          team: { id: odd, name: 'Legacy' },
          enterprise: undefined,
          user: { id: 'ULEGACY', token: undefined, scopes: undefined },
          bot: { token: 'xoxb-legacy-odd', scopes: ['chat:write'], userId: 'UBOTLEG', id: 'BLEG' },
          isEnterpriseInstall: false,
          authVersion: 'v2',
        });
      await eventually(() => second.running.workspaces().has(odd));
      expect(await second.running.store.installation(odd)).toBeDefined();
      // Slack uninstalls it: its token stops working, then the event comes.
      slack.revokedTokens.add('xoxb-legacy-odd');
      expect(await event(second.url, odd, { type: 'app_uninstalled' })).toBe(200);
      await eventually(async () => !(await second.running.registry.teams()).includes(odd));
      expect(await second.running.store.installation(odd)).toBeUndefined();
      expect(second.running.workspaces().has(odd)).toBe(false);
      expect(second.lines.some((l) => l.msg === 'could not forget a workspace')).toBe(false);
    } finally {
      await second.running.stop();
    }
  });

  it('with metrics off, a /metrics scrape (or a scan) is a 404 and no log line above debug', async () => {
    const before = p.lines.length;
    for (let i = 0; i < 20; i++) {
      expect((await fetch(`${p.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${p.url}/wp-login.php`)).status).toBe(404);
    }
    const said = p.lines.slice(before).filter((l) => l.level >= 30);
    expect(said).toEqual([]);
  });
});

describe('sealed secrets are bound to their workspace', () => {
  let p: Process;
  beforeAll(async () => {
    p = await boot();
  });
  afterAll(async () => {
    await p?.running.stop();
  });

  it("a sealed token copied into another workspace's row does not open there: nothing runs on the other's token", async () => {
    const alpha = workspace('TBOUNDA1');
    const beta = workspace('TBOUNDB2');
    expect((await installThrough(p.url, slack, alpha)).status).toBe(200);
    expect((await installThrough(p.url, slack, beta)).status).toBe(200);
    const betaToken = slack.tokenOf(beta.team);
    // Someone with write access to the database (not to the key) copies Beta's row into Alpha's.
    const betaRaw = (await p.running.store.installation(beta.team)) ?? '';
    await p.running.store.saveInstallation(alpha.team, betaRaw, new Date());
    await expect(p.running.registry.install(alpha.team)).rejects.toThrow(/does not open here/);
    await p.running.stop();
    p = await boot({ dataDir: p.dataDir });
    expect(p.running.workspaces().has(alpha.team)).toBe(false);
    expect(p.running.workspaces().has(beta.team)).toBe(true);
    expect(p.lines.some((l) => l.msg.includes('could not start') && l.team === alpha.team)).toBe(true);
    const before = slack.calls.length;
    await command(p.url, alpha.team, alpha.admin, 'CBOUNDA', 'help');
    await new Promise((r) => setTimeout(r, 200));
    expect(slack.calls.slice(before).filter((c) => c.token === betaToken)).toEqual([]);
    // The same for the settings: Beta's sealed credentials in Alpha's settings do not open.
    await p.running.registry.saveSettings(beta.team, {
      platformUrl: sim.url,
      credentials: { kind: 'token', token: sim.adminToken },
      serviceKey: undefined,
      language: undefined,
      ticketCreators: 'account',
      webhookSecret: 'beta-webhook-secret-123',
      updatedBy: beta.admin,
      updatedAt: new Date(),
    });
    await p.running.store.saveWorkspaceSettings(
      alpha.team,
      (await p.running.store.workspaceSettings(beta.team)) ?? '',
    );
    await expect(p.running.registry.settings(alpha.team)).rejects.toThrow(/does not open here/);
    // And within one workspace, a field's value does not open as another field.
    const stored = JSON.parse((await p.running.store.workspaceSettings(beta.team)) ?? '{}') as {
      credentials: string;
      webhookSecret: string;
    };
    await p.running.store.saveWorkspaceSettings(
      beta.team,
      JSON.stringify({ ...stored, credentials: stored.webhookSecret }),
    );
    await expect(p.running.registry.settings(beta.team)).rejects.toThrow(/does not open here/);
  });

  it('values sealed by an earlier confdesk open once at start and are sealed again bound: nothing installed is lost', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-safety-'));
    dirs.push(dataDir);
    const team = 'TEARLY01';
    const installedAt = new Date('2026-01-05T09:00:00Z');
    const store = await openStore({ dataDir });
    try {
      const installation = {
        team: { id: team, name: 'Early' },
        user: { id: 'UEARLY' },
        bot: { token: 'xoxb-early-token', scopes: ['chat:write'], userId: 'UBOTEARLY', id: 'BEARLY' },
        isEnterpriseInstall: false,
        authVersion: 'v2',
      };
      await store.saveInstallation(team, sealedUnbound(JSON.stringify(installation)), installedAt);
      await store.saveWorkspaceSettings(
        team,
        JSON.stringify({
          platformUrl: sim.url,
          credentials: sealedUnbound(JSON.stringify({ kind: 'token', token: sim.adminToken })),
          webhookSecret: sealedUnbound('early-webhook-secret-1234'),
          ticketCreators: 'account',
          updatedBy: 'UEARLY',
          updatedAt: '2026-01-05T09:05:00.000Z',
        }),
      );
    } finally {
      await store.close();
    }
    const early = await boot({ dataDir });
    try {
      // It runs set up, as before the upgrade.
      expect(early.running.workspaces().get(team)?.confdesk).toBeDefined();
      expect(early.lines.some((l) => String(l.msg).includes('sealed the workspaces’ secrets again'))).toBe(
        true,
      );
      const raw = (await early.running.store.installation(team)) ?? '';
      const settings = JSON.parse((await early.running.store.workspaceSettings(team)) ?? '{}') as {
        credentials: string;
        webhookSecret: string;
      };
      for (const v of [raw, settings.credentials, settings.webhookSecret]) expect(v).toMatch(/^v2\./);
      expect((await early.running.store.installedAt(team))?.toISOString()).toBe(installedAt.toISOString());
      expect(await early.running.store.secretsBoundSince()).toBeDefined();
      // Its secrets are the same: the platform's webhook with the saved secret is taken, another refused.
      const hook = (s: string) =>
        fetch(`${early.url}/webhooks/platform/${team}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-secret': s },
          body: JSON.stringify({ event: 'ticket.updated', object: 'ticket', objectId: 1 }),
        });
      expect((await hook('early-webhook-secret-1234')).status).toBeLessThan(300);
      expect((await hook('another-secret-entirely')).status).toBe(401);
      const r = await command(early.url, team, 'UEARLY', 'CEARLY', 'help');
      expect(r.body).toContain('/ticket');
      expect(r.body).not.toContain('not set up');
      // An unbound value written after that (an old backup's row) no longer opens: it is never bound
      // to wherever it was put.
      await early.running.store.saveInstallation(
        team,
        sealedUnbound('{"bot":{"token":"xoxb-x"}}'),
        new Date(),
      );
      await expect(early.running.registry.install(team)).rejects.toThrow(/install the workspace again/);
    } finally {
      await early.running.stop();
    }
  });
});

describe('SLACK_ALLOWED_TEAMS', () => {
  let p: Process;
  beforeAll(async () => {
    p = await boot({ env: { SLACK_ALLOWED_TEAMS: 'TALLOW01, TALLOW02' } });
  });
  afterAll(async () => {
    await p?.running.stop();
  });

  it('a listed workspace installs; another gets a page saying so, and nothing is kept', async () => {
    expect((await installThrough(p.url, slack, workspace('TALLOW01'))).status).toBe(200);
    const before = slack.calls.length;
    const other = await installThrough(p.url, slack, workspace('TOTHER01', 'Other & Co'));
    expect(other.status).toBe(403);
    expect(other.html).toContain('confdesk is not enabled for Other &#38; Co');
    expect(other.html).toContain('TOTHER01');
    expect(await p.running.registry.teams()).toEqual(['TALLOW01']);
    const token = slack.tokenOf('TOTHER01') ?? 'none';
    await eventually(() =>
      slack.calls.slice(before).some((c) => c.method === 'apps.uninstall' && c.token === token),
    );
    expect(slack.revokedTokens.has(token)).toBe(true);
    expect(
      p.lines.some(
        (l) => l.level === 40 && l.team === 'TOTHER01' && String(l.msg).includes('SLACK_ALLOWED_TEAMS'),
      ),
    ).toBe(true);
    expect(JSON.stringify(p.lines)).not.toContain(token);
  });

  it('is read as Slack team ids, and only in distribution mode', () => {
    const dir = p.dataDir;
    expect(() => loadConfig(envOf(dir, { SLACK_ALLOWED_TEAMS: 'TALLOW01,acme' }))).toThrow(
      /SLACK_ALLOWED_TEAMS: "acme" is not a Slack team id/,
    );
    expect(() =>
      loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', SLACK_ALLOWED_TEAMS: 'TALLOW01' }),
    ).toThrow(/SLACK_ALLOWED_TEAMS: only distribution mode/);
    expect(loadConfig(envOf(dir)).distribution?.allowedTeams).toBeUndefined();
  });
});

describe('an uninstall that arrives late', () => {
  let p: Process;
  beforeAll(async () => {
    p = await boot();
  });
  afterAll(async () => {
    await p?.running.stop();
  });

  it("a retry of an uninstall (or of a bot token's revocation) after a reinstall leaves the new installation", async () => {
    const ws = workspace('TLATE001');
    expect((await installThrough(p.url, slack, ws)).status).toBe(200);
    const first = slack.tokenOf(ws.team) ?? '';
    // Uninstalled: Slack revokes the token and sends the event…
    slack.revokedTokens.add(first);
    const eventTime = Math.floor(Date.now() / 1000);
    const uninstall = { eventId: 'EvLATEUNINSTALL', eventTime };
    expect(await event(p.url, ws.team, { type: 'app_uninstalled' }, uninstall)).toBe(200);
    await eventually(async () => !(await p.running.registry.teams()).includes(ws.team));
    // …the admin installs again…
    expect((await installThrough(p.url, slack, ws)).status).toBe(200);
    const second = slack.tokenOf(ws.team);
    expect(second).not.toBe(first);
    // …and Slack's retries of the old events arrive (it retries for a while when not answered in 3 s).
    expect(await event(p.url, ws.team, { type: 'app_uninstalled' }, { ...uninstall, retry: 1 })).toBe(200);
    expect(
      await event(
        p.url,
        ws.team,
        { type: 'tokens_revoked', tokens: { bot: [`UBOT${ws.team.slice(-6)}`] } },
        { eventTime, retry: 2 },
      ),
    ).toBe(200);
    await eventually(
      () => p.lines.filter((l) => String(l.msg).startsWith('a late uninstall or revocation')).length === 2,
    );
    expect(await p.running.registry.teams()).toContain(ws.team);
    expect((await p.running.registry.install(ws.team))?.botToken).toBe(second);
    expect(p.running.workspaces().has(ws.team)).toBe(true);
    // A real uninstall of the new installation, even within the minute of its install, is obeyed.
    slack.revokedTokens.add(second ?? '');
    expect(await event(p.url, ws.team, { type: 'app_uninstalled' })).toBe(200);
    await eventually(async () => !(await p.running.registry.teams()).includes(ws.team));
  });

  it('a late uninstall when Slack cannot be asked about the token (5xx, or an error of its own): the installation is kept, with a warning', async () => {
    const ws = workspace('TLATE002');
    expect((await installThrough(p.url, slack, ws)).status).toBe(200);
    const first = slack.tokenOf(ws.team) ?? '';
    slack.revokedTokens.add(first);
    const eventTime = Math.floor(Date.now() / 1000);
    const uninstall = { eventId: 'EvLATEUNASKED', eventTime };
    expect(await event(p.url, ws.team, { type: 'app_uninstalled' }, uninstall)).toBe(200);
    await eventually(async () => !(await p.running.registry.teams()).includes(ws.team));
    expect((await installThrough(p.url, slack, ws)).status).toBe(200);
    const second = slack.tokenOf(ws.team) ?? '';
    await eventually(() => p.running.workspaces().has(ws.team));
    const kept = () =>
      p.lines.filter(
        (l) =>
          l.level === 40 &&
          l.team === ws.team &&
          String(l.msg).includes('kept, as Slack could not be asked about its token'),
      );
    // The question (auth.test, with one retry of the client's own) answered 503 twice, then an error
    // Slack's auth.test does not give for a token (`fatal_error`) twice: asked each time, kept each time.
    for (const [i, fault] of [
      { kind: 'http', status: 503 },
      { kind: 'error', error: 'fatal_error' },
    ].entries()) {
      const asked = slack.callsOf('auth.test').length;
      slack.failNext(
        'auth.test',
        fault as Parameters<typeof slack.failNext>[1],
        fault.kind === 'http' ? 2 : 1,
      );
      expect(await event(p.url, ws.team, { type: 'app_uninstalled' }, { ...uninstall, retry: i + 1 })).toBe(
        200,
      );
      await eventually(() => kept().length === i + 1);
      expect(
        slack
          .callsOf('auth.test')
          .slice(asked)
          .every((c) => c.token === second),
      ).toBe(true);
      expect(slack.callsOf('auth.test').length).toBeGreaterThan(asked);
    }
    expect(await p.running.registry.teams()).toContain(ws.team);
    expect((await p.running.registry.install(ws.team))?.botToken).toBe(second);
    expect(p.running.workspaces().has(ws.team)).toBe(true);
    // Forgotten once: at the first, real uninstall only.
    expect(
      p.lines.filter((l) => l.team === ws.team && String(l.msg).startsWith('workspace forgotten')),
    ).toHaveLength(1);
    expect(atLeast(p.lines, 50).filter((l) => l.team === ws.team)).toEqual([]);
    expect(JSON.stringify(p.lines)).not.toContain(second);
  });
});

/**
 * Socket Mode's health server (Bolt's receiver listens on a port of its own and keeps the server
 * private; with PORT=0 only the server itself knows which).
 */
function socketHealthUrl(f: BotFixture): string {
  const app = f.bot.app as unknown as { receiver: { httpServer: Server } };
  return `http://127.0.0.1:${(app.receiver.httpServer.address() as AddressInfo).port}`;
}

describe('with metrics off, one workspace', () => {
  for (const socket of [false, true])
    describe(socket ? 'in Socket Mode' : 'in HTTP mode', () => {
      const f = {} as BotFixture;
      const lines: Line[] = [];
      useBot(f, {
        socket,
        logger: createLogger('debug', { write: (l: string) => void lines.push(JSON.parse(l) as Line) }),
      });

      it('a /metrics scrape (or a scan) is a 404 and no log line above debug', async () => {
        const before = lines.length;
        const url = socket ? socketHealthUrl(f) : f.url;
        for (let i = 0; i < 20; i++) {
          expect((await fetch(`${url}/metrics`)).status).toBe(404);
          expect((await fetch(`${url}/.env`)).status).toBe(404);
        }
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
        expect(lines.slice(before).filter((l) => l.level >= 30)).toEqual([]);
      });
    });
});
