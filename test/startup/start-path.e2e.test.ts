import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { eventually } from '../helpers/bot.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';

/*
 * The start as a supervisor sees it, the built bot run as `npm start` runs it (dist/main.js): which
 * configurations start at all, what it does while Slack does not answer, and where it listens.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-start-path-'));
const doubles: SlackDouble[] = [];
const servers: Server[] = [];
afterEach(async () => {
  killAll();
  for (const d of doubles.splice(0)) await d.stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A loopback port free a moment ago (nothing listens there now). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function startSlack(port = 0): Promise<SlackDouble> {
  const slack = await new SlackDouble().start(port);
  doubles.push(slack);
  return slack;
}

const slackSettings = { SLACK_BOT_TOKEN: 'xoxb-start-path', SLACK_SIGNING_SECRET: 'start-path-secret' };
const base = { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
const noStack = (text: string) => expect(text).not.toMatch(/ {4}at |\\n {4}at /);

/** Whether a TCP connection to host:port is taken. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const readyz = async (port: number) => {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as { ok: boolean; checks: Record<string, { ok: boolean; problem?: string }> },
  };
};

describe('production never serves demo data by accident', () => {
  let slack: SlackDouble;
  beforeAll(async () => {
    slack = await new SlackDouble().start();
  });
  afterAll(() => slack.stop());

  it('Slack credentials without PLATFORM_URL (NODE_ENV=production): exit 1 naming PLATFORM_URL; no simulator, no port', async () => {
    const bot = spawnBot({ ...base, ...slackSettings, SLACK_API_URL: slack.apiUrl, NODE_ENV: 'production' });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('confdesk cannot start:\n  - PLATFORM_URL: not set');
    expect(bot.output()).toContain('PLATFORM_URL=simulator');
    expect(bot.output()).not.toContain('listening on port');
    expect(bot.output()).not.toContain('started the built-in platform simulator');
    expect(bot.output()).not.toContain('xoxb-start-path');
    noStack(bot.output());
  });

  it('the same with PLATFORM_URL=simulator: starts, with the simulator, said in the log (the check can pass)', async () => {
    const bot = spawnBot({
      ...base,
      ...slackSettings,
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
    });
    await bot.port;
    expect(bot.output()).toContain('PLATFORM_URL=simulator: started the built-in platform simulator');
  });

  it('a bot token without SLACK_SIGNING_SECRET: exit 1 naming it, not the playground', async () => {
    const bot = spawnBot({ ...base, SLACK_BOT_TOKEN: 'xoxb-start-path', PLATFORM_URL: 'simulator' });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('confdesk cannot start:\n  - SLACK_SIGNING_SECRET: not set');
    expect(bot.output()).not.toContain('Playground');
    expect(bot.output()).not.toContain('no Slack credentials are set');
  });

  it('distribution mode without SLACK_SIGNING_SECRET: exit 1 naming it (not a failure inside Bolt)', async () => {
    const bot = spawnBot({
      ...base,
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 'client-secret-value',
      SLACK_STATE_SECRET: 'state-secret-value',
      CONFDESK_ENCRYPTION_KEY: 'a'.repeat(64),
      PUBLIC_URL: 'https://confdesk.example',
    });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toMatch(/Invalid configuration:\n {2}- SLACK_SIGNING_SECRET: distribution mode/);
    expect(bot.output()).not.toContain('client-secret-value');
    noStack(bot.output());
  });
});

describe('Slack unreachable at start', () => {
  it('serves /healthz, keeps /readyz 503 with the reason, tries again, and becomes ready once Slack answers', async () => {
    const slackPort = await freePort();
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${slackPort}/api/`;
    const bot = spawnBot({
      ...base,
      ...slackSettings,
      SLACK_API_URL: apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: String(port),
    });
    // Alive and saying why it is not ready: a supervisor sees no restart loop.
    const waiting = await eventually(async () => {
      const r = await readyz(port).catch(() => undefined);
      return r?.status === 503 && r;
    }, 10_000);
    expect(waiting.body.ok).toBe(false);
    expect(waiting.body.checks.slack?.problem).toContain(
      `SLACK_API_URL: Slack's Web API at ${apiUrl} could not be reached (ECONNREFUSED)`,
    );
    expect(waiting.body.checks.slack?.problem).toContain('confdesk tries again');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // Tried more than once, each failure said once (in confdesk's words, not the WebClient's).
    await eventually(() => (bot.output().match(/confdesk tries again/g)?.length ?? 0) >= 2, 10_000);
    expect(bot.output()).not.toContain('listening on port');
    expect(bot.output()).not.toContain('http request failed');
    expect(bot.output()).not.toContain('xoxb-start-path');

    // Slack comes back: the bot starts on the same port and becomes ready.
    await startSlack(slackPort);
    expect(await bot.port).toBe(port);
    const ready = await eventually(async () => {
      const r = await readyz(port);
      return r.status === 200 && r;
    }, 15_000);
    expect(ready.body.checks.slack).toEqual({ ok: true });
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    noStack(bot.output());
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 40_000);

  it('Slack answers 503, then 429, to auth.test: waits 1 s, then 2 s, with /readyz 503 saying so, then starts', async () => {
    const slack = await startSlack();
    // Each check of the start is auth.test tried twice by the WebClient (one retry of its own).
    slack.failNext('auth.test', { kind: 'http', status: 503 }, 2);
    slack.failNext('auth.test', { kind: 'rate_limited', retryAfter: 1 }, 2);
    const port = await freePort();
    const bot = spawnBot({
      ...base,
      ...slackSettings,
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: String(port),
    });
    const waiting = await eventually(async () => {
      const r = await readyz(port).catch(() => undefined);
      return r?.status === 503 && r;
    }, 10_000);
    expect(waiting.body.checks.slack?.problem).toMatch(/auth\.test answered HTTP (503|429)/);
    expect(waiting.body.checks.slack?.problem).toContain('confdesk tries again');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    expect(await bot.port).toBe(port);
    const ready = await eventually(async () => {
      const r = await readyz(port);
      return r.status === 200 && r;
    }, 15_000);
    expect(ready.body.checks.slack).toEqual({ ok: true });
    // One warning a try, with the pause before the next: 1 s, then 2 s (give or take a fifth).
    const tries = bot
      .output()
      .split('\n')
      .filter((l) => l.includes('confdesk tries again'))
      .map((l) => JSON.parse(l) as { tries: number; retryInS: number; msg: string });
    expect(tries.map((t) => t.tries)).toEqual([1, 2]);
    expect(tries[0]?.msg).toContain('answered HTTP 503');
    expect(tries[1]?.msg).toContain('answered HTTP 429');
    expect(tries[0]?.retryInS).toBeGreaterThanOrEqual(0.8);
    expect(tries[0]?.retryInS).toBeLessThanOrEqual(1.2);
    expect(tries[1]?.retryInS).toBeGreaterThanOrEqual(1.6);
    expect(tries[1]?.retryInS).toBeLessThanOrEqual(2.4);
    expect(bot.output()).toContain('Slack answered auth.test at try 3');
    // The pauses were kept: the third check came at least 0.8 s and 1.6 s after the first two ended.
    const at = slack.callsOf('auth.test').map((c) => c.at);
    expect(at.length).toBeGreaterThanOrEqual(5);
    expect((at[2] as number) - (at[1] as number)).toBeGreaterThanOrEqual(0.8 * 1_000 - 50);
    expect((at[4] as number) - (at[3] as number)).toBeGreaterThanOrEqual(1.6 * 1_000 - 50);
    noStack(bot.output());
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 40_000);

  it('Slack answers at last but refuses the token (invalid_auth): stops, naming SLACK_BOT_TOKEN', async () => {
    const slackPort = await freePort();
    const port = await freePort();
    const bot = spawnBot({
      ...base,
      ...slackSettings,
      SLACK_API_URL: `http://127.0.0.1:${slackPort}/api/`,
      PLATFORM_URL: 'simulator',
      PORT: String(port),
    });
    await eventually(
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok,
    );
    const slack = await startSlack(slackPort);
    slack.refuse = (method) => (method === 'auth.test' ? 'invalid_auth' : undefined);
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('SLACK_BOT_TOKEN: Slack refused the bot token (invalid_auth)');
    noStack(bot.output());
  }, 40_000);

  it('a SLACK_API_URL that answers 404 is wrong, not down: stops at once naming it', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end('not here'));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
    const bot = spawnBot({ ...base, ...slackSettings, SLACK_API_URL: apiUrl, PLATFORM_URL: 'simulator' });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain(`SLACK_API_URL: ${apiUrl}auth.test answered HTTP 404`);
    expect(bot.output()).not.toContain('tries again');
  });
});

describe('HOST: the listen address', () => {
  let slack: SlackDouble;
  beforeAll(async () => {
    slack = await new SlackDouble().start();
  });
  afterAll(() => slack.stop());
  const env = () => ({ ...base, ...slackSettings, SLACK_API_URL: slack.apiUrl, PLATFORM_URL: 'simulator' });

  // 127.0.0.2 is this host too (all of 127/8 is loopback on Linux), but not the address 127.0.0.1.
  it('HOST=127.0.0.1: the port answers there only; unset, on every interface (as before)', async () => {
    const bound = spawnBot({ ...env(), HOST: '127.0.0.1' });
    const port = await bound.port;
    expect(await accepts('127.0.0.1', port)).toBe(true);
    expect(await accepts('127.0.0.2', port)).toBe(false);
    const everywhere = spawnBot(env());
    const open = await everywhere.port;
    expect(await accepts('127.0.0.2', open)).toBe(true);
  });

  it('an address this host does not have: exit 1 naming HOST', async () => {
    const bot = spawnBot({ ...env(), HOST: '192.0.2.1' });
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain('HOST: cannot listen on 192.0.2.1 port 0 (EADDRNOTAVAIL)');
    noStack(bot.output());
  });
});
