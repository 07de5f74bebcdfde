import {
  createPlatformClient,
  type PlatformClient,
  type PlatformClientOptions,
} from '../../src/platform/client.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';

export interface PlatformFixture {
  sim: Simulator;
  client: PlatformClient;
  close(): Promise<void>;
}

/**
 * A simulator on a free loopback port and a client signed in as its admin. The rate limit is off
 * unless a test sets it: budget behaviour has its own tests. Strict about people's turns (see
 * `inPeoplesTurn`): a shared read people wait on that waits in a background lane throws.
 */
export async function startPlatform(
  simOptions: SimulatorOptions = {},
  clientOptions: Partial<PlatformClientOptions> = {},
): Promise<PlatformFixture> {
  // Every request kept: tests read the log from a position (a trimmed log would move it).
  const sim = await createSimulator({ rateLimit: 0, requestLog: Number.POSITIVE_INFINITY, ...simOptions });
  const client = createPlatformClient({
    baseUrl: sim.url,
    credentials: { kind: 'token', token: sim.adminToken },
    rateLimitPerMinute: 10_000,
    backoffBaseMs: 10,
    // Every test through this fixture fails if a turn people wait on waits in a background lane.
    strictTurns: true,
    ...clientOptions,
  });
  return {
    sim,
    client,
    close: async () => {
      await client.close();
      await sim.close();
    },
  };
}

/** A client for the same simulator signed in as another seeded user (e.g. an agent without admin role). */
export function clientAs(sim: Simulator, username: string, options: Partial<PlatformClientOptions> = {}) {
  return createPlatformClient({
    baseUrl: sim.url,
    credentials: { kind: 'token', token: sim.tokenFor(username) },
    rateLimitPerMinute: 10_000,
    backoffBaseMs: 10,
    ...options,
  });
}
