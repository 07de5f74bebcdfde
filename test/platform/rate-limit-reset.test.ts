import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';

/** A platform that documents only X-RateLimit-Reset (the real service): 4 requests per 4 s window. */
describe('the rate budget against a platform that sends X-RateLimit-Reset alone', () => {
  let sim: Simulator;
  let client: PlatformClient;
  beforeAll(async () => {
    sim = await createSimulator({ rateLimit: 4, rateWindowMs: 4_000, quirks: { onlyResetHeader: true } });
    client = createPlatformClient({
      baseUrl: sim.url,
      credentials: { kind: 'token', token: sim.adminToken },
      rateLimitPerMinute: 4,
      rateWindowMs: 4_000,
      backoffBaseMs: 10,
    });
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it('tells honestly how long each request will wait (within half a second)', async () => {
    const from = sim.requests.length;
    const gaps: { estimate: number; actual: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const estimate = client.estimateWaitMs('interactive');
      const started = Date.now();
      await client.listTickets({ user: 'all', limit: 1 });
      // The request's own time on the wire is a few ms on loopback.
      gaps.push({ estimate, actual: Date.now() - started });
    }
    for (const g of gaps) expect(Math.abs(g.actual - g.estimate)).toBeLessThan(500);
    // Some requests did wait, and were told so beforehand.
    expect(gaps.filter((g) => g.estimate >= 2_000).length).toBeGreaterThanOrEqual(2);
    expect(sim.requests.slice(from).every((r) => r.status === 200)).toBe(true);
    expect(client.findings.snapshot().rateLimitHeaders).toEqual(['x-ratelimit-reset']);
  }, 30_000);
});
