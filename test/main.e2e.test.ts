import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../src/dev/slack-double.js';
import { createSimulator, type Simulator } from '../src/sim/server.js';
import { eventually } from './helpers/bot.js';
import { killAll, spawnBot } from './helpers/child-bot.js';
import { startProxy } from './helpers/proxy.js';
import { sendCommand } from './helpers/slack-requests.js';

const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-main-'));

/** Runs the bot as `npm start` does (dist/, built by the global setup), with exactly the given environment (its store in a temp dir). */
function runBot(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['dist/main.js'], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
const collect = (child: ChildProcess) => {
  const out = { text: '' };
  child.stdout?.on('data', (c) => {
    out.text += c;
  });
  child.stderr?.on('data', (c) => {
    out.text += c;
  });
  return out;
};
const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

let slack: SlackDouble;
beforeAll(async () => {
  slack = await new SlackDouble().start();
});
afterAll(async () => {
  await slack.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('without Slack credentials, starts the playground: says so with its URL, serves the page, stops on SIGTERM', async () => {
    const child = runBot({ PORT: '0' });
    const out = collect(child);
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /Playground: open (http:\/\/127\.0\.0\.1:\d+) — no Slack credentials are set/.exec(
          out.text,
        );
        if (m?.[1]) {
          clearInterval(timer);
          resolve(m[1]);
        }
      }, 50);
      child.on('exit', () => {
        clearInterval(timer);
        reject(new Error(out.text));
      });
    });
    expect(out.text).toContain('set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET to connect to Slack');
    expect(out.text).toContain('built-in platform simulator');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"></div>');
    expect((await fetch(`${url}/app.js`)).status).toBe(200);
    const state = (await (await fetch(`${url}/api/state?as=UADMIN`)).json()) as { people: { id: string }[] };
    expect(state.people.map((p) => p.id)).toContain('UALICE');
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('without Slack credentials nor the development dependencies, exits 1 saying what to do', async () => {
    const child = runBot({ PORT: '0', NODE_OPTIONS: '--import ./test/fixtures/no-dev-deps.mjs' });
    const out = collect(child);
    expect(await exited(child)).toBe(1);
    expect(out.text).toContain(
      'the playground (what starts without Slack credentials) needs the development dependencies: run npm ci',
    );
    expect(out.text).toContain('set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET');
    noStack(out.text);
  });

  it('with credentials and PLATFORM_URL=simulator, starts the built-in simulator and the Slack app, then stops cleanly on SIGTERM', async () => {
    const child = runBot({
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: '0',
    });
    const out = collect(child);
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /listening on port (\d+)/.exec(out.text);
        if (m) {
          clearInterval(timer);
          resolve(Number(m[1]));
        }
      }, 50);
      child.on('exit', () => reject(new Error(out.text)));
    });
    expect(out.text).toContain('built-in platform simulator');
    expect(out.text).toContain('connected to the video platform');
    expect(out.text).not.toContain('xoxb-main-test');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });
});

/**
 * The environment of a bot that should get past Slack's check (the double answers auth.test), with
 * the built-in simulator asked for by name (the cases below set PLATFORM_URL when they need another).
 */
const slackEnv = () => ({
  SLACK_BOT_TOKEN: 'xoxb-main-test',
  SLACK_SIGNING_SECRET: 'secret',
  SLACK_API_URL: slack.apiUrl,
  PLATFORM_URL: 'simulator',
  PORT: '0',
  DATA_DIR: dataDir,
});
/** No stack trace reaches the output at the default log level, not even inside a JSON log line. */
const noStack = (text: string) => expect(text).not.toMatch(/ {4}at |\\n {4}at /);

afterEach(() => {
  killAll();
  slack.refuse = undefined;
});

describe('npm start: what is fatal, with one sentence naming the fix', () => {
  it.each(['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed'])(
    'Slack refuses the bot token (%s): exits 1 naming SLACK_BOT_TOKEN and where to copy it again',
    async (code) => {
      slack.refuse = (method) => (method === 'auth.test' ? code : undefined);
      const bot = spawnBot(slackEnv());
      expect(await bot.exited).toBe(1);
      expect(bot.output()).toContain(`SLACK_BOT_TOKEN: Slack refused the bot token (${code})`);
      expect(bot.output()).toContain('OAuth & Permissions');
      expect(bot.output()).not.toContain('xoxb-main-test');
      noStack(bot.output());
    },
  );

  it('PostgreSQL refuses the connection: exits 1 naming DATABASE_URL, without its password', async () => {
    const bot = spawnBot({ ...slackEnv(), DATABASE_URL: 'postgres://u:pw-main-test@127.0.0.1:1/confdesk' });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('DATABASE_URL: PostgreSQL at 127.0.0.1:1 refused the connection');
    expect(bot.output()).not.toContain('pw-main-test');
    noStack(bot.output());
  });

  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl)
    console.warn('main.test.ts: TEST_DATABASE_URL is not set: the missing-database case is not run.');
  it.runIf(databaseUrl)('the database does not exist: exits 1 with createdb and the name', async () => {
    const url = new URL(databaseUrl as string);
    url.pathname = '/confdesk_no_such_database';
    const bot = spawnBot({ ...slackEnv(), DATABASE_URL: url.toString() });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain(
      'DATABASE_URL: database "confdesk_no_such_database" does not exist: create it (createdb confdesk_no_such_database) or fix the URL',
    );
    noStack(bot.output());
  });

  it('at LOG_LEVEL=debug the details (stack) are there for a developer', async () => {
    const bot = spawnBot({ ...slackEnv(), LOG_LEVEL: 'debug', DATABASE_URL: 'postgres://u@127.0.0.1:1/x' });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('refused the connection');
    expect(bot.output()).toMatch(/\\n {4}at /);
  });
});

describe('npm start: the platform is not fatal; /readyz says why', () => {
  let sim: Simulator;
  let html: Server;
  beforeAll(async () => {
    sim = await createSimulator({ rateLimit: 0 });
    html = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>'),
    );
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', () => r()));
  });
  afterAll(async () => {
    await sim.close();
    await new Promise((r) => html.close(r));
  });

  const readyz = async (port: number) => {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return {
      status: res.status,
      body: (await res.json()) as { ok: boolean; checks: Record<string, { ok: boolean; problem?: string }> },
    };
  };

  it.each([
    [
      'a refused PLATFORM_TOKEN',
      () => ({ PLATFORM_URL: sim.url, PLATFORM_TOKEN: 'wrong-main-token' }),
      'PLATFORM_TOKEN: the platform refused the token (401',
    ],
    [
      'a PLATFORM_URL with the API path in it (404)',
      () => ({ PLATFORM_URL: `${sim.url}/api/v3`, PLATFORM_TOKEN: sim.adminToken }),
      "/api/v3/api/v3/users/me answered 404, not the platform's API: set the base URL without /api/v3",
    ],
    [
      'a PLATFORM_URL that is a web site (HTML)',
      () => ({
        PLATFORM_URL: `http://127.0.0.1:${(html.address() as AddressInfo).port}`,
        PLATFORM_TOKEN: 't',
      }),
      'did not answer with a user',
    ],
    [
      'an unreachable platform',
      () => ({ PLATFORM_URL: 'http://127.0.0.1:1', PLATFORM_TOKEN: 't' }),
      'PLATFORM_URL: the platform at http://127.0.0.1:1 could not be reached (ECONNREFUSED)',
    ],
  ])('%s: starts, logs the sentence, /readyz 503 with it, /healthz 200', async (_name, env, sentence) => {
    const bot = spawnBot({ ...slackEnv(), ...env() });
    const port = await bot.port;
    expect(bot.output()).toContain(sentence);
    const ready = await readyz(port);
    expect(ready.status).toBe(503);
    expect(ready.body.ok).toBe(false);
    expect(ready.body.checks.platform?.problem).toContain(sentence);
    expect(ready.body.checks.slack).toEqual({ ok: true });
    expect(ready.body.checks.store).toEqual({ ok: true });
    expect(JSON.stringify(ready.body)).not.toContain('wrong-main-token');
    expect(bot.output()).not.toContain('wrong-main-token');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    noStack(bot.output());
  });

  it('with PLATFORM_URL set, never loads the built-in simulator (it is loaded only when used)', async () => {
    const trace = { NODE_OPTIONS: '--import ./test/fixtures/trace-loads.mjs' };
    const real = spawnBot({ ...slackEnv(), PLATFORM_URL: sim.url, PLATFORM_TOKEN: sim.adminToken, ...trace });
    await real.port;
    expect(real.output()).toContain('loaded: dist/main.js');
    expect(real.output()).not.toContain('loaded: dist/sim/');
    // The same trace on a start with PLATFORM_URL=simulator does show it: the check can fail.
    const embedded = spawnBot({ ...slackEnv(), ...trace });
    await embedded.port;
    expect(embedded.output()).toContain('loaded: dist/sim/server.js');
  });

  it('behind a company proxy (HTTPS_PROXY, HTTP_PROXY), reaches Slack, the platform and response URLs through it; NO_PROXY hosts go direct', async () => {
    const proxy = await startProxy();
    try {
      const viaProxy = { ...slackEnv(), PLATFORM_URL: sim.url, PLATFORM_TOKEN: sim.adminToken };
      const bot = spawnBot({ ...viaProxy, HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url });
      const port = await bot.port;
      expect((await readyz(port)).status).toBe(200);
      expect(bot.output()).toContain('outgoing requests go through the proxy');
      // A person without an account: Slack's users.info, then the answer on the response_url.
      const responseUrl = slack.responseUrl();
      await sendCommand(`http://127.0.0.1:${port}`, 'secret', {
        command: '/conference',
        text: 'list',
        user_id: 'UPROXY',
        channel_id: 'CMAIN',
        team_id: 'T1',
        response_url: responseUrl,
        trigger_id: 't',
      });
      await eventually(() => slack.responses.some((r) => r.path === new URL(responseUrl).pathname));
      const hostOf = (url: string) => new URL(url).host;
      // auth.test, users.info and the response_url (Slack's side), /users/me and the rest (the platform).
      expect(proxy.seen.some((t) => t.includes(hostOf(slack.apiUrl)))).toBe(true);
      expect(proxy.seen.some((t) => t.includes(hostOf(sim.url)))).toBe(true);
      bot.child.kill('SIGTERM');
      await bot.exited;

      const before = proxy.seen.length;
      const direct = spawnBot({
        ...viaProxy,
        HTTPS_PROXY: proxy.url,
        HTTP_PROXY: proxy.url,
        NO_PROXY: '127.0.0.1',
      });
      expect((await readyz(await direct.port)).status).toBe(200);
      expect(proxy.seen.slice(before)).toEqual([]);
      direct.child.kill('SIGTERM');
      await direct.exited;
    } finally {
      await proxy.stop();
    }
  });

  it('with everything right, /readyz is 200 and lists each check', async () => {
    const token = 'main-e2e-metrics-token';
    const bot = spawnBot({
      ...slackEnv(),
      PLATFORM_URL: sim.url,
      PLATFORM_TOKEN: sim.adminToken,
      METRICS_TOKEN: token,
    });
    const ready = await readyz(await bot.port);
    // METRICS_TOKEN: /metrics on the same port, for the bearer only, labelled with auth.test's team.
    const metrics = `http://127.0.0.1:${await bot.port}/metrics`;
    expect((await fetch(metrics)).status).toBe(401);
    const scraped = await fetch(metrics, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain(`confdesk_platform_budget_limit{workspace="${slack.teamId}"} 10`);
    expect(ready).toEqual({
      status: 200,
      body: {
        ok: true,
        version: (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
        checks: {
          platform: { ok: true },
          slack: { ok: true },
          store: { ok: true },
          // Said once the jobs looked at the read backlog (a backlog is never "not ready").
          'ticket events': expect.objectContaining({ ok: true }),
        },
      },
    });
  });
});

describe("npm start with the built-in simulator: the Slack workspace's people may use the bot", () => {
  /** Sends a signed slash command and gathers what the person was answered (the ack and the response_url posts). */
  const answer = async (port: number, user: string, command: string, text: string) => {
    const responseUrl = slack.responseUrl();
    const res = await sendCommand(`http://127.0.0.1:${port}`, 'secret', {
      command,
      text,
      user_id: user,
      channel_id: 'CMAIN',
      team_id: 'T1',
      response_url: responseUrl,
      trigger_id: 't',
    });
    const ack = await res.text();
    const path = new URL(responseUrl).pathname;
    // A slow answer comes after a "Looking up…" ack, on the response_url: wait for it a moment.
    const posted = await eventually(() => {
      const r = slack.responses.filter((x) => x.path === path);
      return r.length ? r.map((x) => JSON.stringify(x.body)) : undefined;
    }, 3_000).catch(() => []);
    return [ack, ...posted].join('\n');
  };

  it('gives workspace admins an admin account, the others agent accounts, maps SIM_ACCOUNTS e-mails, and says how', async () => {
    slack.addUser({ id: 'UWENDY', name: 'wendy', email: 'wendy@corp.test', is_admin: true });
    slack.addUser({ id: 'UVIC', name: 'vic', email: 'vic@corp.test' });
    slack.addUser({ id: 'UZED', name: 'zed', email: 'zed@corp.test' });
    slack.addUser({ id: 'UROBOT', name: 'robot', email: 'robot@corp.test', is_bot: true });
    // The simulator's limit is the bot's budget: lifted, so that four people's look-ups do not queue.
    const bot = spawnBot({
      ...slackEnv(),
      SIM_ACCOUNTS: 'zed@corp.test=carol',
      PLATFORM_RATE_LIMIT: '10000',
    });
    const port = await bot.port;
    expect(bot.output()).toContain('built-in simulator: 2 Slack people got a demo account by their e-mail');
    expect(bot.output()).toContain('1 e-mail(s) mapped to demo accounts');
    expect(bot.output()).toContain('SIM_ACCOUNTS=off');

    // Wendy (a workspace admin) may list every ticket; Vic (an agent) is refused as a non-admin, not as a stranger.
    const wendy = await answer(port, 'UWENDY', '/ticket', 'list all');
    expect(wendy).not.toContain('no account on the video platform');
    expect(wendy).not.toContain('is for video platform admins');
    const vic = await answer(port, 'UVIC', '/ticket', 'list all');
    expect(vic).not.toContain('no account on the video platform');
    expect(vic).toContain('video platform admins');
    // Zed was given the demo account carol (SIM_ACCOUNTS): the platform knows him by his Slack e-mail.
    const zed = await answer(port, 'UZED', '/conference', 'list');
    expect(zed).not.toContain('no account on the video platform');
    // Someone who joined Slack after the start has no account yet, and is told so.
    slack.addUser({ id: 'ULATE', name: 'late', email: 'late@corp.test' });
    expect(await answer(port, 'ULATE', '/conference', 'list')).toContain('no account on the video platform');
  });
});
