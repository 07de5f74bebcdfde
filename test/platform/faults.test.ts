import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../src/platform/client.js';
import {
  PlatformHttpError,
  PlatformNetworkError,
  PlatformRateLimitedError,
} from '../../src/platform/errors.js';
import { noFaults } from '../../src/sim/server.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

let fx: PlatformFixture;
beforeAll(async () => {
  fx = await startPlatform({}, { cacheTtlMs: 0 });
});
afterAll(() => fx.close());
beforeEach(() => {
  fx.sim.setFaults(noFaults);
  fx.sim.setRateLimit(0);
});
const statuses = (from: number) => fx.sim.requests.slice(from).map((r) => `${r.method} ${r.status}`);

describe('retries', () => {
  it('retries an idempotent GET after 5xx and succeeds', async () => {
    fx.sim.setFaults({ failNext: 2, failNextStatus: 503 });
    const from = fx.sim.requests.length;
    expect((await fx.client.getMe()).username).toBe('admin');
    expect(statuses(from)).toEqual(['GET 503', 'GET 503', 'GET 200']);
  });

  it('retries a PUT, which is idempotent', async () => {
    fx.sim.setFaults({ failNext: 1, failNextStatus: 502 });
    const from = fx.sim.requests.length;
    await fx.client.updateMedia({ mediaId: [...fx.sim.state.medias.keys()][0] as number, title: 'x' });
    expect(statuses(from)).toEqual(['PUT 502', 'PUT 200']);
  });

  it('never retries a POST blindly after a 5xx', async () => {
    fx.sim.setFaults({ failNext: 1, failNextStatus: 503 });
    const from = fx.sim.requests.length;
    const tickets = fx.sim.state.tickets.size;
    const error = await fx.client.createTicket({ phones: '+33612345678' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformHttpError);
    expect((error as PlatformHttpError).userMessage).toMatch(/internal error/);
    expect(statuses(from)).toEqual(['POST 503']);
    expect(fx.sim.state.tickets.size).toBe(tickets);
  });

  it('gives up after the last attempt with the status and a readable message', async () => {
    fx.sim.setFaults({ errorRate: 1, errorStatus: 500 });
    const from = fx.sim.requests.length;
    await expect(fx.client.getMe()).rejects.toMatchObject({ status: 500, label: 'Server error' });
    expect(statuses(from)).toEqual(['GET 500', 'GET 500', 'GET 500']);
  });
});

describe('429 and the rate budget', () => {
  it('waits for X-RateLimit-Reset after a 429, then retries, even a POST (a 429 was not processed)', async () => {
    fx.sim.setFaults({ rateLimitStorm: true, stormResetSeconds: 1 });
    setTimeout(() => fx.sim.setFaults({ rateLimitStorm: false }), 200);
    const from = fx.sim.requests.length;
    const started = Date.now();
    const ticket = await fx.client.createTicket({ phones: '+33612345678', subject: 'after storm' });
    expect(ticket.subject).toBe('after storm');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(statuses(from)).toEqual(['POST 429', 'POST 200']);
  });

  it('tells the caller how long to wait when it may not wait that long', async () => {
    fx.sim.setFaults({ rateLimitStorm: true, stormResetSeconds: 20 });
    const error = await fx.client.getMe({}, { maxWaitMs: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformRateLimitedError);
    expect((error as PlatformRateLimitedError).retryAfterMs).toBe(20_000);
    expect((error as PlatformRateLimitedError).userMessage).toMatch(/about 20 s/);
    // The budget remembers the pause: the next request is refused without being sent.
    fx.sim.setFaults({ rateLimitStorm: false });
    const from = fx.sim.requests.length;
    await expect(fx.client.getMe({}, { maxWaitMs: 1_000 })).rejects.toBeInstanceOf(PlatformRateLimitedError);
    expect(fx.sim.requests.length).toBe(from);
  });

  it('stops sending when the platform says no request is left, before any 429', async () => {
    const client = createPlatformClient({
      baseUrl: fx.sim.url,
      credentials: { kind: 'token', token: fx.sim.tokenFor('bob') },
      rateLimitPerMinute: 100,
      cacheTtlMs: 0,
    });
    fx.sim.setRateLimit(3);
    for (let i = 0; i < 3; i++) await client.getMe();
    expect(client.estimateWaitMs()).toBeGreaterThan(50_000);
    const from = fx.sim.requests.length;
    await expect(client.getMe({}, { maxWaitMs: 5_000 })).rejects.toBeInstanceOf(PlatformRateLimitedError);
    expect(statuses(from)).toEqual([]);
    await client.close();
  });
});

describe('timeouts and network failures', () => {
  it('times out a hanging response and reports a timeout', async () => {
    const client = createPlatformClient({
      baseUrl: fx.sim.url,
      credentials: { kind: 'token', token: fx.sim.adminToken },
      timeouts: { headersMs: 200 },
      maxAttempts: 2,
      backoffBaseMs: 10,
    });
    fx.sim.setFaults({ hangRate: 1 });
    const started = Date.now();
    const error = await client.getMe().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformNetworkError);
    expect((error as PlatformNetworkError).reason).toBe('timeout');
    expect((error as PlatformNetworkError).userMessage).toMatch(/too long/);
    // Two attempts of 200 ms each; undici's timer wheel may add up to a second to each.
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close();
  });

  it('reports a refused connection without leaking the address or token', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const client = createPlatformClient({
      baseUrl: `http://127.0.0.1:${port}`,
      credentials: { kind: 'token', token: 'tok-secret' },
      backoffBaseMs: 5,
    });
    const error = await client.getMe().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformNetworkError);
    expect((error as PlatformNetworkError).causeCode).toBe('ECONNREFUSED');
    expect((error as PlatformNetworkError).userMessage).toBe(
      'The video platform could not be reached. Please try again in a moment.',
    );
    await client.close();
  });
});

describe('cache of repeated reads', () => {
  it('serves users/me and groups from a short cache and forgets them after a write', async () => {
    const cached = createPlatformClient({
      baseUrl: fx.sim.url,
      credentials: { kind: 'token', token: fx.sim.adminToken },
    });
    const from = fx.sim.requests.length;
    await cached.getMe();
    await cached.getMe();
    await cached.listGroups({ enterpriseId: 1 });
    await cached.listGroups({ enterpriseId: 1 });
    expect(fx.sim.requests.length - from).toBe(2);
    const me = await cached.getMe();
    await cached.updateUser({ userId: Number(me.id), jobTitle: 'Boss' });
    const fresh = await cached.getMe();
    expect(fresh.jobTitle).toBe('Boss');
    expect(fx.sim.requests.length - from).toBe(4);
    await cached.close();
  });
});
