import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { createPlatformClient, staticTokenExpired } from '../../src/platform/client.js';
import { PlatformHttpError } from '../../src/platform/errors.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { type BotFixture, eventually, people, useBot } from '../helpers/bot.js';

function capture() {
  const raw: string[] = [];
  const logger = createLogger('info', { write: (s: string) => raw.push(s) });
  return { logger, raw };
}

describe('credentials the platform refuses', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ rateLimit: 0, quirks: { expiredStaticToken: true } });
  });
  afterAll(() => sim.close());

  it('a static token answered 401 names the fix once in the log, without the token; a later 2xx clears it', async () => {
    const log = capture();
    const client = createPlatformClient({
      baseUrl: sim.url,
      credentials: { kind: 'token', token: sim.adminToken },
      rateLimitPerMinute: 10_000,
      logger: log.logger,
    });
    for (let i = 0; i < 2; i++) {
      const error = await client.listTickets({ user: 'all' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlatformHttpError);
      expect((error as PlatformHttpError).status).toBe(401);
    }
    expect(staticTokenExpired).toBe(
      'PLATFORM_TOKEN expired: set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal',
    );
    expect(client.findings.auth?.message).toBe(staticTokenExpired);
    expect(log.raw.filter((l) => l.includes(staticTokenExpired))).toHaveLength(1);
    expect(log.raw.join('\n')).not.toContain(sim.adminToken);
    // A new token is set on the platform's side (here: the quirk is lifted): the next answer clears it.
    sim.setQuirks({ expiredStaticToken: false });
    await client.listTickets({ user: 'all' });
    expect(client.findings.auth).toBeUndefined();
    expect(log.raw.some((l) => l.includes('credentials accepted again'))).toBe(true);
    sim.setQuirks({ expiredStaticToken: true });
    await client.close();
  });

  it('a token request refused names PLATFORM_USERNAME/PLATFORM_PASSWORD, without the password', async () => {
    const log = capture();
    const client = createPlatformClient({
      baseUrl: sim.url,
      credentials: { kind: 'password', username: 'alice', password: 'not-her-password' },
      rateLimitPerMinute: 10_000,
      logger: log.logger,
    });
    await expect(client.getMe()).rejects.toBeInstanceOf(PlatformHttpError);
    expect(client.findings.auth?.message).toMatch(/PLATFORM_USERNAME\/PLATFORM_PASSWORD.*401.*check them/);
    expect(log.raw.join('\n')).not.toContain('not-her-password');
    await client.close();
  });

  it('tokens from a username and password are not touched by the quirk, and record nothing', async () => {
    const client = createPlatformClient({
      baseUrl: sim.url,
      credentials: { kind: 'password', username: 'alice', password: 'demo-password' },
      rateLimitPerMinute: 10_000,
    });
    expect((await client.getMe()).username).toBe('alice');
    expect(client.findings.auth).toBeUndefined();
    await client.close();
  });
});

describe('a person using the bot while its static token has expired', () => {
  const f = {} as BotFixture;
  useBot(f, { sim: { quirks: { expiredStaticToken: true } } });

  it('is told the bot cannot sign in and that an administrator should check its credentials', async () => {
    const cmd = await f.command('list', people.admin.id, 'CA1', '/ticket');
    expect(cmd.status).toBe(200);
    const said = await eventually(() =>
      [JSON.stringify(cmd.body), ...f.slack.responses.map((r) => JSON.stringify(r.body))].find((t) =>
        t.includes('could not sign in to the video platform'),
      ),
    );
    expect(said).toContain('An administrator should check its credentials');
    expect(said).not.toContain(f.platform.sim.adminToken);
    expect(f.platform.client.findings.auth?.message).toBe(staticTokenExpired);
  });
});
