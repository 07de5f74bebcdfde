import { describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/runner.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/observability/logger.js';
import { currentLane, inPeoplesTurn, peoplesTurn, runInLane } from '../../src/platform/lane.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = createLogger('silent');

describe('the scheduler', () => {
  it('fires many runs in the order of their times, each once, and forgets a cancelled one', async () => {
    const scheduler = new Scheduler();
    const fired: number[] = [];
    const t0 = Date.now();
    // 200 runs in a shuffled order of times between 10 and 209 ms from now.
    const offsets = Array.from({ length: 200 }, (_, i) => 10 + ((i * 71) % 200));
    const entries = offsets.map((ms) => scheduler.at(t0 + ms, () => fired.push(ms)));
    expect(scheduler.size).toBe(200);
    expect(scheduler.nextAt).toBe(t0 + 10);
    // Cancel every tenth one, and one twice (the second costs nothing).
    const cancelled = new Set<number>();
    for (const [i, e] of entries.entries())
      if (i % 10 === 0) {
        scheduler.cancel(e);
        cancelled.add(offsets[i] as number);
      }
    scheduler.cancel(entries[0]);
    expect(scheduler.size).toBe(180);
    await sleep(300);
    expect(scheduler.size).toBe(0);
    expect(fired).toHaveLength(180);
    expect(fired).toEqual([...fired].sort((a, b) => a - b));
    expect(fired.some((ms) => cancelled.has(ms))).toBe(false);
  });

  it('arms no timer once nothing waits', async () => {
    const scheduler = new Scheduler();
    const fired: string[] = [];
    scheduler.at(Date.now() + 5, () => fired.push('first'));
    scheduler.at(Date.now() + 5, () => fired.push('second'));
    const far = scheduler.at(Date.now() + 60_000, () => fired.push('never'));
    scheduler.cancel(far);
    await sleep(50);
    expect(fired).toEqual(['first', 'second']);
    expect(scheduler.size).toBe(0);
    expect(scheduler.nextAt).toBeUndefined();
  });

  it('fires outside the context of whoever armed it (no lane, no people’s turn)', async () => {
    const scheduler = new Scheduler();
    const seen: unknown[] = [];
    inPeoplesTurn('a click', () =>
      runInLane('backfill', () =>
        scheduler.at(Date.now() + 5, () => seen.push(currentLane(), peoplesTurn())),
      ),
    );
    await sleep(50);
    expect(seen).toEqual(['interactive', undefined]);
  });
});

describe('job runners on one scheduler', () => {
  it('runs the jobs of many runners from one heap, and a stopped runner leaves nothing in it', async () => {
    const scheduler = new Scheduler();
    const runs = new Map<string, number>();
    const runners = Array.from({ length: 50 }, () => new JobRunner(silent, scheduler));
    for (const [i, r] of runners.entries())
      for (const job of ['a', 'b'])
        r.start({
          name: job,
          everyMs: 40,
          run: async () => runs.set(`${i}${job}`, (runs.get(`${i}${job}`) ?? 0) + 1),
        });
    await sleep(10);
    expect(scheduler.size).toBe(100);
    await sleep(200);
    await Promise.all(runners.map((r) => r.stop()));
    expect(scheduler.size).toBe(0);
    expect(runs.size).toBe(100);
    for (const n of runs.values()) expect(n).toBeGreaterThanOrEqual(3);
    const after = [...runs.values()].reduce((a, b) => a + b, 0);
    await sleep(100);
    expect([...runs.values()].reduce((a, b) => a + b, 0)).toBe(after);
  });

  it('lets an idle job sleep (everyMs answered long) and wakes it by trigger or at a time asked for', async () => {
    const scheduler = new Scheduler();
    const runner = new JobRunner(silent, scheduler);
    let idle = true;
    const runs: number[] = [];
    const t0 = Date.now();
    runner.start({
      name: 'deliver',
      everyMs: () => (idle ? 3_600_000 : 30),
      minGapMs: 20,
      run: async () => runs.push(Date.now() - t0),
    });
    await sleep(150);
    expect(runs).toHaveLength(1); // the first run, then asleep
    expect(scheduler.nextAt).toBeGreaterThan(Date.now() + 3_000_000);
    const wakeAt = Date.now() + 100;
    runner.triggerAt('deliver', wakeAt);
    runner.triggerAt('deliver', wakeAt); // the same time asked twice: one run
    await sleep(60);
    expect(runs).toHaveLength(1);
    await sleep(120);
    expect(runs).toHaveLength(2);
    expect(runs[1]).toBeGreaterThanOrEqual(245);
    runner.trigger('deliver'); // at once (its gap has passed)
    await sleep(15);
    expect(runs).toHaveLength(3);
    idle = false; // busy again: its steady pace from the next run on
    runner.trigger('deliver');
    await sleep(200);
    expect(runs.length).toBeGreaterThanOrEqual(6);
    runner.triggerAt('deliver', Date.now() + 60_000);
    await runner.stop();
    expect(scheduler.size).toBe(0);
  });

  it('puts a sleeping job back at its pace from its last run when asked (repace), not sooner', async () => {
    const scheduler = new Scheduler();
    const runner = new JobRunner(silent, scheduler);
    let busy = false;
    const runs: number[] = [];
    const t0 = Date.now();
    runner.start({
      name: 'poll',
      everyMs: () => (busy ? 200 : 3_600_000),
      minGapMs: 60_000, // a trigger would wait a minute: repace does not
      run: async () => runs.push(Date.now() - t0),
    });
    await sleep(50);
    busy = true;
    runner.repace('poll'); // due 200 ms after the first run
    await sleep(100);
    expect(runs).toHaveLength(1);
    await sleep(400);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs[1]).toBeGreaterThanOrEqual(195);
    await runner.stop();
  });

  it('counts a job that throws at once as a failed run, and goes on', async () => {
    const scheduler = new Scheduler();
    const runner = new JobRunner(silent, scheduler);
    let runs = 0;
    runner.start({
      name: 'broken',
      everyMs: 20,
      run: () => {
        runs++;
        throw new Error('not even a promise');
      },
    });
    await sleep(100);
    await runner.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
  });
});
