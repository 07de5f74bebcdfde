import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { createPlatformClient, type PlatformClientOptions } from '../../src/platform/client.js';
import { PlatformHttpError } from '../../src/platform/errors.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await createSimulator({ rateLimit: 0 });
});
afterAll(() => sim.close());

const paths = (from: number) => sim.requests.slice(from).map((r) => `${r.path} ${r.status}`);

function passwordClient(extra: Partial<PlatformClientOptions> = {}) {
  return createPlatformClient({
    baseUrl: sim.url,
    credentials: { kind: 'password', username: 'alice', password: 'demo-password' },
    rateLimitPerMinute: 10_000,
    ...extra,
  });
}

describe('username and password authentication', () => {
  it('obtains a token on first use and reuses it', async () => {
    const client = passwordClient();
    const from = sim.requests.length;
    expect((await client.getMe()).username).toBe('alice');
    await client.listGroups({ enterpriseId: 1 });
    expect(paths(from)).toEqual([
      '/api/v3/token 200',
      '/api/v3/users/me 200',
      '/api/v3/enterprises/1/groups 200',
    ]);
    await client.close();
  });

  it('renews the token before its 24-hour expiry', async () => {
    let now = Date.now();
    const client = passwordClient({ now: () => now, cacheTtlMs: 0 });
    await client.listGroups({ enterpriseId: 1 });
    now += 20 * 3_600_000; // still well inside the lifetime
    const from = sim.requests.length;
    await client.listGroups({ enterpriseId: 1 });
    expect(paths(from)).toEqual(['/api/v3/enterprises/1/groups 200']);
    now += 3 * 3_600_000 + 55 * 60_000; // 23 h 55: inside the last 10 minutes
    const from2 = sim.requests.length;
    await client.listGroups({ enterpriseId: 1 });
    expect(paths(from2)).toEqual(['/api/v3/token 200', '/api/v3/enterprises/1/groups 200']);
    await client.close();
  });

  it('renews once after a 401 and retries the request', async () => {
    const client = passwordClient({ cacheTtlMs: 0 });
    await client.getMe();
    sim.expireTokens();
    const from = sim.requests.length;
    expect((await client.getMe()).username).toBe('alice');
    expect(paths(from)).toEqual(['/api/v3/users/me 401', '/api/v3/token 200', '/api/v3/users/me 200']);
    await client.close();
  });

  it('shares one renewal between concurrent callers', async () => {
    const client = passwordClient({ cacheTtlMs: 0 });
    const from = sim.requests.length;
    await Promise.all(Array.from({ length: 5 }, () => client.getMe()));
    expect(paths(from).filter((p) => p.startsWith('/api/v3/token'))).toHaveLength(1);
    sim.expireTokens();
    const from2 = sim.requests.length;
    // Media lists are not cached or shared, so each caller sends its own request.
    await Promise.all(Array.from({ length: 5 }, () => client.listMedias({})));
    expect(paths(from2).filter((p) => p.startsWith('/api/v3/token'))).toHaveLength(1);
    expect(paths(from2).filter((p) => p === '/api/v3/medias 200')).toHaveLength(5);
    await client.close();
  });

  it('sends one request for concurrent reads of the same cached item', async () => {
    const client = passwordClient();
    await client.getMe();
    sim.expireTokens();
    const from = sim.requests.length;
    await Promise.all(Array.from({ length: 8 }, () => client.listGroups({ enterpriseId: 1 })));
    expect(paths(from).filter((p) => p === '/api/v3/enterprises/1/groups 200')).toHaveLength(1);
    await client.close();
  });

  it('gives up after one renewal when the credentials are wrong', async () => {
    const client = createPlatformClient({
      baseUrl: sim.url,
      credentials: { kind: 'password', username: 'alice', password: 'wrong' },
    });
    const error = await client.getMe().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformHttpError);
    expect((error as PlatformHttpError).status).toBe(401);
    expect((error as PlatformHttpError).userMessage).toMatch(/credentials/);
    await client.close();
  });
});

describe('static token authentication', () => {
  it('does not retry a 401 it cannot fix', async () => {
    const client = createPlatformClient({
      baseUrl: sim.url,
      credentials: { kind: 'token', token: 'revoked' },
    });
    const from = sim.requests.length;
    await expect(client.getMe()).rejects.toMatchObject({ status: 401 });
    expect(paths(from)).toEqual(['/api/v3/users/me 401']);
    await client.close();
  });
});

describe('secrets in logs', () => {
  it('never writes the password or a token to the log, even at trace level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('trace', sink);
    const client = passwordClient({ logger, cacheTtlMs: 0 });
    await client.getMe();
    sim.expireTokens();
    await client.getMe();
    // The logger redacts these fields wherever they appear.
    logger.info({ token: 'sim-abc', headers: { authorization: 'Bearer sim-abc' }, password: 'pw' }, 'probe');
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(3);
    expect(text).not.toContain('demo-password');
    expect(text).not.toMatch(/sim-[0-9a-f]{32}/);
    expect(text).not.toContain('sim-abc');
    expect(text).toContain('[redacted]');
    await client.close();
  });
});
