import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../src/platform/cache.js';
import { outsideTurns, runInLane } from '../../src/platform/lane.js';
import { RateBudget } from '../../src/platform/rate-budget.js';

/** A load that answers only when released, recording which lane started it. */
function gatedLoad(lanes: string[], lane: string, value: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const load = async () => {
    lanes.push(lane);
    await gate;
    return value;
  };
  return { load, release };
}

describe('the read cache', () => {
  it('never makes a person wait for a load that background work started: the person’s own load answers', async () => {
    const cache = new TtlCache(60_000);
    const lanes: string[] = [];
    const job = gatedLoad(lanes, 'background', 'from the job');
    const jobRead = runInLane('background', () => cache.getOrLoad('groups', 'groups', job.load));
    const person = gatedLoad(lanes, 'interactive', 'from the person');
    const personRead = cache.getOrLoad('groups', 'groups', person.load);
    person.release();
    // The job's load is still waiting (for the budget, say): the person is answered without it.
    expect(await personRead).toBe('from the person');
    expect(lanes).toEqual(['background', 'interactive']);
    // A second person now finds the value; the job's load, when it answers, is not lost either.
    expect(await cache.getOrLoad('groups', 'groups', () => Promise.reject(new Error('not read again')))).toBe(
      'from the person',
    );
    job.release();
    expect(await jobRead).toBe('from the job');
  });

  it('lets background work join a person’s load and people join each other’s: one request for all', async () => {
    const cache = new TtlCache(60_000);
    const lanes: string[] = [];
    const person = gatedLoad(lanes, 'interactive', 'v');
    const first = cache.getOrLoad('me', 'me', person.load);
    const second = cache.getOrLoad('me', 'me', () => Promise.reject(new Error('a second load')));
    const job = runInLane('background', () =>
      cache.getOrLoad('me', 'me', () => Promise.reject(new Error('a second load'))),
    );
    person.release();
    expect(await Promise.all([first, second, job])).toEqual(['v', 'v', 'v']);
    expect(lanes).toEqual(['interactive']);
  });

  it('gives background work a stale value at once and reads it again behind; a person gets a fresh one', async () => {
    let now = 0;
    const cache = new TtlCache(60_000, () => now, 500, 15 * 60_000);
    await cache.getOrLoad('groups', 'groups', async () => 'old');
    now = 61_000; // past the TTL
    const lanes: string[] = [];
    const refresh = gatedLoad(lanes, 'background', 'new');
    // The job does not wait for the budget: it gets the old labels now, and one refresh starts.
    expect(await runInLane('background', () => cache.getOrLoad('groups', 'groups', refresh.load))).toBe(
      'old',
    );
    expect(
      await runInLane('background', () =>
        cache.getOrLoad('groups', 'groups', () => Promise.reject(new Error('a second refresh'))),
      ),
    ).toBe('old');
    expect(lanes).toEqual(['background']);
    // A person does not take the stale value, nor wait for the job's refresh: their own read.
    const person = gatedLoad(lanes, 'interactive', 'fresh');
    person.release();
    expect(await cache.getOrLoad('groups', 'groups', person.load)).toBe('fresh');
    refresh.release();
    await new Promise((r) => setTimeout(r, 0));
    // Too stale (past TTL + stale window): background work waits for a read too.
    now = 61_000 + 16 * 60_000;
    const late = gatedLoad(lanes, 'background', 'late');
    const waiting = runInLane('background', () => cache.getOrLoad('groups', 'groups', late.load));
    late.release();
    expect(await waiting).toBe('late');
  });

  it('keeps what a write invalidated out, even from a load that was running', async () => {
    const cache = new TtlCache(60_000);
    const lanes: string[] = [];
    const before = gatedLoad(lanes, 'interactive', 'before the write');
    const read = cache.getOrLoad('users', 'users', before.load);
    cache.invalidate(['users']);
    before.release();
    expect(await read).toBe('before the write');
    expect(await cache.getOrLoad('users', 'users', async () => 'after the write')).toBe('after the write');
  });
});

describe('the read cache across a restart', () => {
  it('gives back what an earlier process kept, with the expiry it had, and never a read older than the stale margin', () => {
    let now = 0;
    const before = new TtlCache(60_000, () => now, 500, 30_000);
    before.set('me', 'me', { id: 1 });
    now = 20_000;
    before.set('groups', 'groups', ['Level 1']);
    now = 80_000; // 'me' is 20 s past its TTL (within the stale margin), 'groups' within it
    const kept = before.kept();
    expect(kept.map((e) => e.key)).toEqual(['me', 'groups']);

    const after = new TtlCache(60_000, () => now, 500, 30_000);
    after.set('groups', 'groups', ['Level 2']); // this process's own read wins
    after.restore(JSON.parse(JSON.stringify(kept)));
    expect(after.get('groups')).toEqual(['Level 2']);
    expect(after.get('me')).toBeUndefined(); // past its TTL: a person reads it again
    expect(after.peek('me')).toEqual({ id: 1 }); // background work may still take it
    now = 95_000;
    expect(after.peek('me')).toBeUndefined();
    // A clock that went back cannot make a kept read last longer than a TTL.
    const skewed = new TtlCache(60_000, () => 0, 500, 0);
    skewed.restore([{ key: 'x', tag: 't', value: 1, expiresAt: 10 * 60_000 }]);
    expect(skewed.get('x')).toBeUndefined();
  });
});

describe('a person’s shared load', () => {
  it('is a turn people wait on: waiting for the budget in a background lane inside it fails (strict), outside it does not', async () => {
    const cache = new TtlCache(60_000);
    const budget = new RateBudget({ perWindow: 10, strictTurns: true });
    try {
      // A person's load that would wait behind scans: caught, named after the read.
      await expect(cache.getOrLoad('groups', 'groups', () => budget.acquire('background'))).rejects.toThrow(
        /the shared read groups \(a turn people wait on\)/,
      );
      // The same load started by background work is no people's turn.
      expect(
        await runInLane('background', () =>
          cache.getOrLoad('groups', 'groups', () => budget.acquire('background')),
        ),
      ).toBeTypeOf('number');
      // A job a person's load woke runs outside the person's turn (the runner's `outsideTurns`).
      expect(
        await cache.getOrLoad('me', 'me', () => outsideTurns(() => budget.acquire('background'))),
      ).toBeTypeOf('number');
      expect(budget.turnsHeld).toBe(1);
    } finally {
      budget.close();
    }
  });
});
