import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { Kysely, type Migration, Migrator, SqliteDialect } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type DoctorReport, runDoctor } from '../../src/doctor/doctor.js';
import { parseManifest, readManifest } from '../../src/doctor/manifest.js';
import { PlatformFindings } from '../../src/platform/findings.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';
import { SEED_PASSWORD } from '../../src/sim/state.js';
import { migrations } from '../../src/store/schema.js';
import { inspectStore, openStore } from '../../src/store/store.js';
import { bindingOf, SecretBox } from '../../src/util/secret-box.js';
import { type BotFixture, eventually, people, useBot } from '../helpers/bot.js';
import { startProxy } from '../helpers/proxy.js';

/*
 * `npm run doctor` against real parts: the simulator (normal and quirky), the Slack double, a real
 * store in a temp dir; the command itself as a child process (what it prints, its exit code); and
 * `/conference admin doctor` through signed requests into the real receiver.
 */

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const botToken = 'xoxb-doctor-secret-1';
const signingSecret = 'doctor-signing-secret';

let sim: Simulator;
let slack: SlackDouble;
let dir: string;

/** Gives the seeded tickets modified times in an order unlike their start times (the default sort). */
function spreadModifiedTimes(s: Simulator) {
  const tickets = [...s.state.tickets.values()]
    .filter((t) => t.enterpriseId === 1)
    .sort((a, b) => (a.startTime ?? a.created) - (b.startTime ?? b.created));
  // Ranks that go up and down along the start times: neither start-time order is modified order.
  const base = Date.parse('2027-03-01T10:00:00Z');
  tickets.forEach((t, i) => {
    t.modified = base + ((i * 7) % tickets.length) * 60_000 + i * 1_000;
  });
}

async function startParts(simOptions: SimulatorOptions = {}) {
  sim = await createSimulator({ rateLimit: 1_000, ...simOptions });
  spreadModifiedTimes(sim);
  slack = await new SlackDouble().start();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-doctor-'));
}
async function stopParts() {
  await slack.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}

const envOf = (extra: Record<string, string> = {}): Record<string, string> => ({
  SLACK_BOT_TOKEN: botToken,
  SLACK_SIGNING_SECRET: signingSecret,
  SLACK_APP_TOKEN: 'xapp-doctor-secret-2',
  SLACK_API_URL: slack.apiUrl,
  PLATFORM_URL: sim.url,
  PLATFORM_TOKEN: sim.adminToken,
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  ...extra,
});

/** The doctor in this process, as the CLI runs it, with `env` as the configuration. */
async function doctor(env: Record<string, string | undefined>): Promise<DoctorReport> {
  const config = loadConfig(env);
  return runDoctor({
    config,
    platform: {
      baseUrl: config.platform.url as string,
      credentials: config.platform.credentials as NonNullable<typeof config.platform.credentials>,
      simulator: false,
      findings: new PlatformFindings(),
    },
    store: () => inspectStore({ dataDir: config.store.dataDir }),
  });
}

const row = (r: DoctorReport, name: string) => {
  const found = r.checks.find((c) => c.name === name);
  if (!found) throw new Error(`no row ${name} in ${JSON.stringify(r.checks.map((c) => c.name))}`);
  return found;
};
const blockingRows = (r: DoctorReport) =>
  r.checks.filter((c) => c.blocking).map((c) => `${c.name}: ${c.detail}`);

/** The platform requests made since `from`: never more than 8, never a write. */
function spentSince(from: number) {
  const requests = sim.requests.slice(from);
  expect(requests.length).toBeLessThanOrEqual(8);
  return requests;
}

const doctorCli = (env: Record<string, string>) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/doctor/cli.ts')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe('npm run doctor, against the simulator and the Slack double', () => {
  beforeEach(async () => {
    await startParts();
    (await openStore({ dataDir: dir })).close();
  });
  afterEach(stopParts);

  it('prints every part fine and exits 0, in at most 8 platform requests, all of them reads, no secret shown', async () => {
    const from = sim.requests.length;
    const { code, stdout } = await doctorCli(envOf());
    expect(code).toBe(0);
    const requests = spentSince(from);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(stdout).toContain(`${requests.length} platform request(s) spent, none of them a write.`);
    for (const expected of [
      /configuration +platform +ok +PLATFORM_URL http:\/\/127\.0\.0\.1:\d+/,
      /slack +bot token +ok +valid: workspace Double \(T0000DBL\), bot user @confdesk \(UBOT000001\)/,
      new RegExp(
        `slack +scopes +ok +all ${readManifest().botScopes.length} bot scopes of manifest\\.yml granted`,
      ),
      /slack +transport +ok +Socket Mode/,
      /slack +link unfurls +ok +links:read and links:write granted/,
      /platform +credentials +WARNING +static PLATFORM_TOKEN: it lasts 24 h/,
      /platform +enterprise id +ok +1 \(in enterprise_id\)/,
      /platform +rate limit +ok +headers seen: x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset/,
      /guesses +ticketList\.orderby +confirmed +orderby=modified&order=desc applied/,
      /guesses +ticketList\.reference +confirmed/,
      /guesses +ticketList\.groupId +confirmed/,
      /guesses +getTicket\.path +confirmed/,
      /guesses +join link \(ticket agent\) +confirmed +read from agent_url/,
      /guesses +join link \(conference\) +confirmed +read from url/,
      new RegExp(
        `store +migrations +ok +${Object.keys(migrations).length} of ${Object.keys(migrations).length} applied \\(latest ${Object.keys(migrations).sort().at(-1)}\\)`,
      ),
      /webhooks +secret +note +not set/,
      /webhooks +ticket events backlog +ok +no change waiting/,
      /webhooks +polling capacity +note +\d+ tickets: 1 list page a scan, a scan every 30 s .*polling alone keeps up/,
      /Nothing blocking \(exit code 0\)/,
    ])
      expect(stdout).toMatch(expected);
    for (const secret of [botToken, signingSecret, 'xapp-doctor-secret-2', sim.adminToken])
      expect(stdout).not.toContain(secret);
  });

  it("in HTTP mode, names the README's places for the events URL, the Options Load URL among them", async () => {
    const detail = row(await doctor({ ...envOf(), SLACK_APP_TOKEN: undefined }), 'transport').detail;
    // The README's table of where the URL goes (Connect to Slack, HTTP mode): each row's place.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('in **four** places:'));
    const places = [...table.slice(0, table.indexOf('\n\n3.')).matchAll(/^ *\| \*\*(.+?)\*\*: (.+?URL)/gm)];
    expect(places.length).toBe(4);
    expect(detail).toContain('in four places of the app');
    for (const [, where, what] of places)
      expect(detail).toContain(`${where}: the ${(what as string).replace(/^the /, '')}`);
    expect(detail).toContain('Options Load URL');
  });

  it('shows the company proxy without its password, and probes the platform through it', async () => {
    const proxy = await startProxy();
    try {
      const url = proxy.url.replace('http://', 'http://me:pw-proxy-secret@');
      const report = await doctor(envOf({ HTTPS_PROXY: url, HTTP_PROXY: url }));
      expect(row(report, 'proxy')).toMatchObject({ status: 'ok' });
      expect(row(report, 'proxy').detail).toContain(`http via http://me:***@${new URL(proxy.url).host}`);
      expect(JSON.stringify(report)).not.toContain('pw-proxy-secret');
      expect(proxy.seen.some((t) => t.includes(new URL(sim.url).host))).toBe(true);
      expect(row(await doctor(envOf()), 'proxy')).toMatchObject({ status: 'note' });
    } finally {
      await proxy.stop();
    }
  });

  it('exits 1 with the table still printed when the platform cannot be reached', async () => {
    const { code, stdout } = await doctorCli(envOf({ PLATFORM_URL: 'http://127.0.0.1:9' }));
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /platform +reachable +BLOCKING +GET \/api\/v3\/users\/me: no answer \(ECONNREFUSED\): check PLATFORM_URL/,
    );
    expect(stdout).toMatch(/slack +bot token +ok/);
    expect(stdout).toMatch(/store +migrations +ok/);
    expect(stdout).toContain('1 blocking problem(s)');
  });

  it('names each configuration problem and exits 1 when the configuration is invalid', async () => {
    const { code, stdout } = await doctorCli(
      envOf({ SLACK_BOT_TOKEN: 'xoxp-user-token', PLATFORM_USERNAME: 'admin' }),
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /configuration +SLACK_BOT_TOKEN +BLOCKING +expected a bot token starting with xoxb-/,
    );
    expect(stdout).toMatch(
      /configuration +PLATFORM_TOKEN +BLOCKING +set either PLATFORM_TOKEN or PLATFORM_USERNAME\/PLATFORM_PASSWORD, not both/,
    );
    expect(stdout).not.toContain('xoxp-user-token');
  });

  it('says when Slack refuses the bot token (blocking)', async () => {
    slack.failNext('auth.test', { kind: 'error', error: 'invalid_auth' });
    const report = await doctor(envOf());
    expect(report.blocking).toBe(true);
    expect(blockingRows(report)).toEqual([
      "bot token: Slack refused SLACK_BOT_TOKEN (invalid_auth): copy the Bot User OAuth Token (xoxb-…) again from your app's OAuth & Permissions page; reinstall the app if it was revoked or uninstalled",
    ]);
  });

  it('says which scope of manifest.yml the token lacks (blocking) and which extra ones it has (a note)', async () => {
    slack.grantedScopes = readManifest()
      .botScopes.filter((s) => s !== 'users:read.email')
      .concat('emoji:read');
    const report = await doctor(envOf());
    expect(row(report, 'scopes')).toMatchObject({ status: 'blocking', blocking: true });
    expect(row(report, 'scopes').detail).toMatch(
      /^missing users:read\.email: add them under OAuth & Permissions/,
    );
    expect(row(report, 'extra scopes')).toMatchObject({
      status: 'note',
      blocking: false,
      detail: 'granted beyond manifest.yml (not needed): emoji:read',
    });
  });

  it('says link unfurls are off without links:read/links:write, and names the patterns set', async () => {
    slack.grantedScopes = readManifest().botScopes.filter((s) => s !== 'links:write');
    const off = await doctor(envOf());
    expect(row(off, 'link unfurls')).toMatchObject({ status: 'warning', blocking: false });
    expect(row(off, 'link unfurls').detail).toMatch(
      /^off: the token lacks links:write\. Add them, the link_shared event/,
    );
    slack.grantedScopes = readManifest().botScopes;
    const on = await doctor(envOf({ UNFURL_TICKET_PATTERN: '/tickets/(\\d+)' }));
    expect(row(on, 'link unfurls')).toMatchObject({ status: 'ok' });
    expect(row(on, 'link unfurls').detail).toContain('and ticket links (UNFURL_*_PATTERN)');
  });

  // issue 37: reactions
  it('says a token without reactions:read (an app installed before reactions) must be reinstalled (blocking)', async () => {
    slack.grantedScopes = readManifest().botScopes.filter((s) => s !== 'reactions:read');
    const report = await doctor(envOf());
    expect(row(report, 'scopes')).toMatchObject({ status: 'blocking', blocking: true });
    expect(row(report, 'scopes').detail).toMatch(
      /^missing reactions:read: add them under OAuth & Permissions/,
    );
  });

  it('says a static token the platform refuses is expired and how to renew automatically (blocking)', async () => {
    const report = await doctor(envOf({ PLATFORM_TOKEN: 'not-the-token' }));
    expect(row(report, 'authenticated')).toMatchObject({ status: 'blocking' });
    expect(row(report, 'authenticated').detail).toContain(
      'PLATFORM_TOKEN refused: a static token lasts 24 h; set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal',
    );
    expect(JSON.stringify(report)).not.toContain('not-the-token');
  });

  it('says when PLATFORM_URL is not the root of the service (blocking)', async () => {
    const report = await doctor(envOf({ PLATFORM_URL: `${sim.url}/api/v3` }));
    expect(row(report, 'reachable')).toMatchObject({ status: 'blocking' });
    expect(row(report, 'reachable').detail).toContain('PLATFORM_URL should be the root of the service');
  });

  it('with username and password: renewal automatic, the lifetime the platform gave, and the sign-in its only POST', async () => {
    const from = sim.requests.length;
    const report = await doctor(
      envOf({ PLATFORM_TOKEN: '', PLATFORM_USERNAME: 'admin', PLATFORM_PASSWORD: SEED_PASSWORD }),
    );
    expect(blockingRows(report)).toEqual([]);
    expect(row(report, 'credentials').detail).toBe(
      'username/password: tokens renewed automatically; the platform said expires_in 86400 s (24.0 h)',
    );
    const requests = spentSince(from);
    expect(report.platformRequests).toBe(requests.length);
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v3/token',
    ]);
    expect(JSON.stringify(report)).not.toContain(SEED_PASSWORD);
  });

  it('says when the platform refuses the username and password (blocking), without showing the password', async () => {
    const report = await doctor(
      envOf({ PLATFORM_TOKEN: '', PLATFORM_USERNAME: 'admin', PLATFORM_PASSWORD: 'wrong-password-7' }),
    );
    expect(blockingRows(report)).toEqual([
      'authenticated: POST /api/v3/token answered 401: “Invalid credentials”. PLATFORM_USERNAME/PLATFORM_PASSWORD refused: check them on the platform (they sign in at POST /api/v3/token)',
    ]);
    expect(JSON.stringify(report)).not.toContain('wrong-password-7');
  });

  it('says the store lacks a migration (blocking), reading it without applying it', async () => {
    const other = mkdtempSync(join(tmpdir(), 'confdesk-doctor-old-'));
    try {
      const db = new Kysely<unknown>({
        dialect: new SqliteDialect({ database: new SQLite(join(other, 'confdesk.sqlite')) }),
      });
      const provider = { getMigrations: async () => migrations as Record<string, Migration> };
      await new Migrator({ db, provider }).migrateTo('0006_webhook_first');
      await db.destroy();
      const report = await doctor(envOf({ DATA_DIR: other }));
      expect(blockingRows(report)).toEqual([
        `migrations: 6 of ${Object.keys(migrations).length} applied; missing ${Object.keys(migrations).sort().slice(6).join(', ')}: \`npm start\` applies them when it opens the store (a bot still running on it is an older version: restart it with this one)`,
      ]);
      // Looking did not migrate it.
      expect((await inspectStore({ dataDir: other })).applied).not.toContain('0007_user_links');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('npm run doctor, against the quirky simulator (the least convenient real service)', () => {
  beforeAll(async () => {
    await startParts({ quirks: true });
    // More tickets than the quirky page cap (20), with modified times unlike their start times.
    const admin = [...sim.state.users.values()].find((u) => u.username === 'admin');
    for (let i = 0; i < 25; i++)
      sim.state.createTicket(admin as NonNullable<typeof admin>, {
        reference: `QRK-${i}`,
        subject: `Quirk ${i}`,
        emails: ['jane.doe@example.com'],
        phones: [],
        invite: false,
        startTime: Date.now() + i * 3_600_000,
      });
    spreadModifiedTimes(sim);
    (await openStore({ dataDir: dir })).close();
  });
  afterAll(stopParts);

  it('reports what the platform ignores or names otherwise, in at most 8 reads', async () => {
    const from = sim.requests.length;
    const report = await doctor(envOf());
    const requests = spentSince(from);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(report.platformRequests).toBe(requests.length);
    // ignoreOrderBy: accepted, not applied.
    expect(row(report, 'ticketList.orderby').status).toBe('ignored');
    // camelEnterpriseId.
    expect(row(report, 'enterprise id').detail).toBe('1 (in enterpriseId)');
    // onlyResetHeader.
    expect(row(report, 'rate limit').detail).toMatch(/^headers seen: x-ratelimit-reset;/);
    // pageCap: 20 of more than 20.
    expect(row(report, 'page size').detail).toMatch(
      /^asked for 50 tickets, got 20 of \d+: pages hold at most 20/,
    );
    // unknownJoinLinkNames: the names found are reported.
    expect(row(report, 'join link (ticket agent)').detail).toContain('links.agent');
    expect(row(report, 'join link (ticket guest)').detail).toContain('links.guest');
    expect(row(report, 'join link (conference)').detail).toContain('joinLink');
    // Nothing above stops the bot: the fallbacks hold (the filters and the ticket path still work).
    expect(blockingRows(report)).toEqual([]);
    expect(row(report, 'getTicket.path').status).toBe('confirmed');
  });
});

describe('the manifest reader', () => {
  it('reads the bot scopes, slash commands and shortcuts of manifest.yml', () => {
    const facts = readManifest(join(root, 'manifest.yml'));
    expect(facts.botScopes).toContain('commands');
    expect(facts.botScopes).toContain('chat:write');
    expect(facts.commands).toEqual(['/conference', '/ticket']);
    expect(facts.shortcuts.map((s) => s.type).sort()).toEqual(['global', 'message']);
    for (const s of facts.shortcuts) expect(s.callback_id && s.name).toBeTruthy();
  });

  it('names the problem of a malformed manifest', () => {
    expect(() => parseManifest('oauth_config:\n  scopes: [unclosed\n')).toThrow(
      /^manifest\.yml is not valid YAML: /,
    );
    expect(() => parseManifest('display_information:\n  name: x\n')).toThrow(
      /^manifest\.yml: oauth_config: /,
    );
    expect(() =>
      parseManifest(
        'oauth_config:\n  scopes:\n    bot: [commands]\nfeatures:\n  shortcuts:\n    - type: odd\n',
      ),
    ).toThrow(/^manifest\.yml: features\.shortcuts\.0\.type: /);
  });
});

describe('/conference admin doctor', () => {
  const f = {} as BotFixture;
  useBot(f, { webhookSecret: 'doctor-hook' });

  it('gives a platform admin the report privately, with the webhook delivery the bot last accepted', async () => {
    const delivered = await fetch(`${f.url}/webhooks/platform`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-secret': 'doctor-hook' },
      body: JSON.stringify({ event: 'update', time: 1, object: 'conference', objectId: 1, props: {} }),
    });
    expect(delivered.status).toBe(202);
    const from = f.platform.sim.requests.length;
    const { responseUrl } = await f.command('admin doctor', people.admin.id);
    const reply = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(responseUrl).pathname && Array.isArray(r.body.blocks)),
    );
    expect(reply.body.response_type).toBe('ephemeral');
    const text = JSON.stringify(reply.body.blocks);
    expect(text).toContain('confdesk doctor');
    expect(text).toContain('Nothing blocking');
    expect(text).toMatch(/\*bot token\* ok — valid: workspace Double/);
    expect(text).toMatch(/\*ticketList\.orderby\* /);
    const n = Object.keys(migrations).length;
    expect(text).toMatch(new RegExp(`\\*migrations\\* ok — ${n} of ${n} applied`));
    expect(text).toMatch(/\*last delivery\* ok — \d{4}-\d\d-\d\dT/);
    // The HTTP-mode hint's placeholder is escaped, like every word from outside.
    expect(text).toContain('https://&lt;your-host&gt;/slack/events');
    const spent = Number(/(\d+) platform request\(s\), none a write/.exec(text)?.[1]);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(8);
    const requests = f.platform.sim.requests.slice(from);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(text).not.toContain(f.platform.sim.adminToken);
    expect(text).not.toContain('xoxb-e2e');
  });

  it('refuses an agent with the table’s sentence, probing nothing', async () => {
    const from = f.platform.sim.requests.length;
    const { responseUrl } = await f.command('admin doctor', people.alice.id);
    const reply = await eventually(() =>
      f.slack.responses.find(
        (r) => r.path === new URL(responseUrl).pathname && /You cannot/.test(String(r.body.text)),
      ),
    );
    expect(reply.body.text).toContain(
      'You cannot see the doctor’s report: it is for video platform admins: ask one of them.',
    );
    const paths = f.platform.sim.requests.slice(from).map((r) => r.path);
    expect(paths.filter((p) => p.startsWith('/api/v3/tickets') || p === '/api/v3/conferences')).toEqual([]);
  });
});

describe('npm run doctor in distribution mode (issue 23)', () => {
  const key = randomBytes(32);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'confdesk-doctor-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({
    DATA_DIR: dir,
    SLACK_SIGNING_SECRET: 's',
    SLACK_CLIENT_ID: '1.2',
    SLACK_CLIENT_SECRET: 'client-secret-value',
    SLACK_STATE_SECRET: 'st',
    CONFDESK_ENCRYPTION_KEY: key.toString('hex'),
    PUBLIC_URL: 'https://confdesk.example',
  });

  it('tells the workspaces installed and set up, and blocks when the key does not open their secrets', async () => {
    const store = await openStore({ dataDir: dir });
    try {
      const box = new SecretBox([key]);
      await store.saveInstallation(
        'TOPEN',
        box.seal('{"bot":{"token":"xoxb-1"}}', bindingOf('TOPEN', 'installation')),
        new Date(),
      );
      await store.saveWorkspaceSettings(
        'TOPEN',
        JSON.stringify({ credentials: box.seal('{}', bindingOf('TOPEN', 'credentials')) }),
      );
      await store.saveInstallation(
        'TWAIT',
        box.seal('{"bot":{"token":"xoxb-2"}}', bindingOf('TWAIT', 'installation')),
        new Date(),
      );
      const ok = await doctorCli(env());
      expect(ok.code).toBe(0);
      console.log(ok.stdout);
      expect(ok.stdout).toContain('2 installed (TOPEN, TWAIT); 1 set up; waiting for their settings: TWAIT');
      expect(ok.stdout).toContain('https://confdesk.example/slack/install');
      expect(ok.stdout).not.toContain(key.toString('hex'));
      expect(ok.stdout).not.toContain('client-secret-value');
      await store.saveInstallation(
        'TLOST',
        new SecretBox([randomBytes(32)]).seal('{}', bindingOf('TLOST', 'installation')),
        new Date(),
      );
      const lost = await doctorCli(env());
      expect(lost.code).toBe(1);
      expect(lost.stdout).toMatch(/does not open the secrets of TLOST/);
    } finally {
      await store.close();
    }
  });
});
