import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfdesk } from '../../src/confdesk.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createLogger } from '../../src/observability/logger.js';
import { PlatformReadiness, Readiness } from '../../src/observability/readiness.js';
import { version } from '../../src/observability/version.js';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import type { SlackApp } from '../../src/slack/app.js';
import { checkPlatform } from '../../src/startup/checks.js';
import { openStore, type Store } from '../../src/store/store.js';
import { eventually } from '../helpers/bot.js';

/**
 * /readyz on the real receiver, wired as main.ts wires it, against a real simulator that goes away,
 * refuses the token, and comes back. The re-check runs every 100 ms here (a minute in production).
 */
const adminToken = 'readiness-admin-token';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function startSim(port: number): Promise<Simulator> {
  const sim = await createSimulator({ port, host: '127.0.0.1', adminToken, rateLimit: 0 });
  cleanups.push(() => sim.close());
  return sim;
}

/** The bot's HTTP receiver with main.ts's readiness: returns its URL and the platform client. */
async function startReadyBot(platformPort: number, token = adminToken) {
  const platform: PlatformClient = createPlatformClient({
    baseUrl: `http://127.0.0.1:${platformPort}`,
    credentials: { kind: 'token', token },
    rateLimitPerMinute: 10_000,
    backoffBaseMs: 5,
  });
  const slack = await new SlackDouble().start();
  const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-ready-'));
  const store: Store = await openStore({ dataDir });
  const logger = createLogger('silent');
  const options = { url: `http://127.0.0.1:${platformPort}`, credentials: 'token' as const };
  const platformReady = new PlatformReadiness(
    platform,
    () => checkPlatform(platform, { ...options, priority: 'background' }),
    logger,
    100,
  );
  platformReady.record(await checkPlatform(platform, options));
  platformReady.start();
  let bot: SlackApp | undefined;
  const readiness = new Readiness()
    .add('platform', () => platformReady.state())
    .add('slack', () => bot?.connection() ?? { ok: false })
    .add('store', () => ({ ok: true }));
  const confdesk = createConfdesk({
    slack: {
      botToken: 'xoxb-ready',
      signingSecret: 's',
      apiUrl: slack.apiUrl,
      port: 0,
      readiness: () => readiness.report(),
    },
    logger,
    platform,
    store,
  });
  bot = confdesk.slack;
  const url = `http://127.0.0.1:${await confdesk.start()}`;
  cleanups.push(async () => {
    platformReady.stop();
    await bot?.stop();
    await platform.close();
    await store.close();
    await slack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const readyz = async () => {
    const res = await fetch(`${url}/readyz`);
    return {
      status: res.status,
      body: (await res.json()) as { ok: boolean; checks: Record<string, { ok: boolean; problem?: string }> },
    };
  };
  return { platform, readyz };
}

describe('/readyz', () => {
  it('is 503 while the platform cannot be reached, saying so, and 200 once it answers (re-checked in the background)', async () => {
    const port = await freePort();
    const { readyz } = await startReadyBot(port);
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body.checks.platform?.problem).toContain(
      `PLATFORM_URL: the platform at http://127.0.0.1:${port} could not be reached (ECONNREFUSED)`,
    );
    expect(down.body.checks.slack).toEqual({ ok: true });
    await startSim(port);
    const up = await eventually(async () => {
      const r = await readyz();
      return r.status === 200 ? r : undefined;
    });
    expect(up.body).toEqual({
      ok: true,
      version,
      checks: { platform: { ok: true }, slack: { ok: true }, store: { ok: true } },
    });
  });

  it('turns 503 when a request later gets no answer, and 200 again when the platform is back', async () => {
    const port = await freePort();
    let sim = await startSim(port);
    const { platform, readyz } = await startReadyBot(port);
    expect((await readyz()).status).toBe(200);
    await sim.close();
    await expect(platform.listGroups({ enterpriseId: 1 })).rejects.toThrow();
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body.checks.platform?.problem).toContain('could not be reached');
    sim = await startSim(port);
    await eventually(async () => (await readyz()).status === 200);
  });

  it('is 503 with the PLATFORM_TOKEN sentence while the platform refuses the token (401), 200 when it takes it again', async () => {
    const port = await freePort();
    const sim = await startSim(port);
    sim.setFaults({ errorRate: 1, errorStatus: 401 });
    const { platform, readyz } = await startReadyBot(port);
    const refused = await readyz();
    expect(refused.status).toBe(503);
    expect(refused.body.checks.platform?.problem).toContain(
      'PLATFORM_TOKEN: the platform refused the token (401',
    );
    expect(platform.findings.auth?.message).toContain('PLATFORM_TOKEN');
    expect(JSON.stringify(refused.body)).not.toContain(adminToken);
    sim.setFaults({ errorRate: 0 });
    await eventually(async () => (await readyz()).status === 200);
    expect(platform.findings.auth).toBeUndefined();
  });

  it('is 503 when another part records a refused credential (findings.authFailed), until a re-check passes', async () => {
    const port = await freePort();
    const sim = await startSim(port);
    const { platform, readyz } = await startReadyBot(port);
    expect((await readyz()).status).toBe(200);
    // As the client does on a 401 to a static token, while the platform is refusing it.
    sim.setFaults({ errorRate: 1, errorStatus: 401 });
    platform.findings.authFailed(
      'PLATFORM_TOKEN expired: set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal',
    );
    const expired = await readyz();
    expect(expired.status).toBe(503);
    expect(expired.body.checks.platform?.problem).toContain('PLATFORM_TOKEN');
    // The re-checks keep failing while the platform refuses: still 503 a few rounds later.
    await new Promise((r) => setTimeout(r, 350));
    expect((await readyz()).status).toBe(503);
    sim.setFaults({ errorRate: 0 });
    await eventually(async () => (await readyz()).status === 200);
  });

  it('sends at most one /users/me per interval while not ready, and none while ready', async () => {
    const port = await freePort();
    const sim = await startSim(port);
    sim.setFaults({ errorRate: 1, errorStatus: 401 });
    await startReadyBot(port);
    const me = () => sim.requests.filter((r) => r.path === '/api/v3/users/me').length;
    const before = me();
    await new Promise((r) => setTimeout(r, 550));
    const during = me() - before;
    expect(during).toBeGreaterThanOrEqual(2);
    expect(during).toBeLessThanOrEqual(6);
    sim.setFaults({ errorRate: 0 });
    await eventually(() => me() > before + during);
    await new Promise((r) => setTimeout(r, 150));
    const settled = me();
    await new Promise((r) => setTimeout(r, 400));
    expect(me()).toBe(settled);
  });
});
