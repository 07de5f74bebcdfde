import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/runner.js';
import { createLogger } from '../../src/observability/logger.js';
import { currentLane, inPeoplesTurn, runInLane, TurnHeldError } from '../../src/platform/lane.js';
import { RateBudget } from '../../src/platform/rate-budget.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/**
 * The lane of a platform request comes from the work that makes it: what a job asks (through any
 * service) waits behind people and never takes the reserve the budget keeps for them. The real rate
 * budget (10 a minute, 2 kept for people) and the in-process simulator.
 */
let platform: PlatformFixture;
let closed: Promise<void> | undefined;
const close = () => {
  closed ??= platform.close();
  return closed;
};
beforeEach(async () => {
  closed = undefined;
  platform = await startPlatform({ rateLimit: 10 }, { rateLimitPerMinute: 10 });
});
afterEach(close);

/** Spends `n` of the budget's slots (as people would). */
const spend = async (n: number) => {
  for (let i = 0; i < n; i++) await platform.client.listTickets({ limit: 1 });
};

describe('the lane a platform request runs in', () => {
  it('is interactive outside a job, background inside one and in everything it awaits', async () => {
    expect(currentLane()).toBe('interactive');
    const seen = await runInLane('background', async () => {
      await Promise.resolve();
      return new Promise<string>((resolve) => setTimeout(() => resolve(currentLane()), 1));
    });
    expect(seen).toBe('background');
    expect(currentLane()).toBe('interactive');
  });

  it('keeps the reserve for people: a job’s request waits once 8 of 10 are spent, a person’s goes at once', async () => {
    await spend(8);
    const runner = new JobRunner(createLogger('silent'));
    let jobDone = false;
    runner.start({
      name: 'scan',
      everyMs: 60_000,
      // A job that does not name a priority: the runner's lane decides.
      run: async () => {
        await platform.client.listTickets({ limit: 1 });
        jobDone = true;
      },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(platform.client.budget.queued).toEqual({ interactive: 0, background: 1, backfill: 0 });
    expect(jobDone).toBe(false);
    // A person's request is not behind it: the reserve answers it now.
    const started = Date.now();
    await platform.client.listTickets({ limit: 1 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(jobDone).toBe(false);
    // Closing the client rejects the queued request, so the job's run ends and the runner stops.
    const stopped = runner.stop();
    await close();
    await stopped;
  });

  it('a person’s shared read is answered at once while a job’s load of the same read waits for the budget', async () => {
    await spend(8); // the background share of the window is spent
    // A job asks for the groups (say, for a card's labels): its read waits for the window.
    const jobRead = runInLane('background', () => platform.client.getMe());
    jobRead.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(platform.client.budget.queued.background).toBe(1);
    // A person asks for the same read: not behind the job's load, their own from the reserve. The
    // fixture is strict: had the person's read waited in a background lane, it would throw.
    const started = Date.now();
    const me = await platform.client.getMe();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(me.id).toBeDefined();
    expect(platform.client.budget.turnsHeld).toBe(0);
    await close();
  });
});

describe('a turn people wait on', () => {
  it('fails (strict) or is counted when it waits for the budget in a background lane; the interactive lane is its own', async () => {
    const strict = new RateBudget({ perWindow: 10, strictTurns: true });
    await expect(inPeoplesTurn('the shared read groups', () => strict.acquire('background'))).rejects.toThrow(
      TurnHeldError,
    );
    await expect(inPeoplesTurn('the shared read groups', () => strict.acquire('backfill'))).rejects.toThrow(
      /the shared read groups \(a turn people wait on\) waits for the platform budget in the backfill lane/,
    );
    expect(await inPeoplesTurn('the shared read groups', () => strict.acquire('interactive'))).toBeTypeOf(
      'number',
    );
    const counting = new RateBudget({ perWindow: 10 });
    await inPeoplesTurn('a turn', () => counting.acquire('background'));
    expect(counting.turnsHeld).toBe(1);
    // Outside a turn, background work waits as it always did.
    await strict.acquire('background');
    expect(strict.turnsHeld).toBe(2);
    strict.close();
    counting.close();
  });
});
