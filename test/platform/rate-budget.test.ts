import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Priority } from '../../src/platform/lane.js';
import { RateBudget } from '../../src/platform/rate-budget.js';

/** Acquires and records the order in which requests are granted. */
function tracker(budget: RateBudget) {
  const order: string[] = [];
  const take = (label: string, priority: Priority) => budget.acquire(priority).then(() => order.push(label));
  return { order, take };
}

describe('RateBudget (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('grants at most the budget per sliding minute', async () => {
    const budget = new RateBudget({ perWindow: 10, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    for (let i = 0; i < 12; i++) void take(`r${i}`, 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(order).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(1);
    expect(order).toHaveLength(12);
  });

  it('serves interactive requests before background ones that queued earlier', async () => {
    const budget = new RateBudget({ perWindow: 2, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    for (let i = 0; i < 4; i++) void take(`bg-${i}`, 'background');
    await vi.advanceTimersByTimeAsync(0);
    // Background work spreads through the window (see the spread's tests below).
    expect(order).toEqual(['bg-0']);
    await vi.advanceTimersByTimeAsync(budget.spread.stepMs);
    expect(order).toEqual(['bg-0', 'bg-1']);
    void take('person', 'interactive');
    await vi.advanceTimersByTimeAsync(60_000 - budget.spread.stepMs);
    // bg-0 left the window: the person's request, queued last, goes first.
    expect(order).toEqual(['bg-0', 'bg-1', 'person']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual(['bg-0', 'bg-1', 'person', 'bg-2', 'bg-3']);
  });

  it('keeps a reserve that background work cannot take, so a person never waits behind the poller', async () => {
    const budget = new RateBudget({ perWindow: 10 });
    expect(budget.reserve).toBe(2);
    const { order, take } = tracker(budget);
    for (let i = 0; i < 10; i++) void take(`bg-${i}`, 'background');
    await vi.advanceTimersByTimeAsync(60_000 - budget.spread.maxWaitMs);
    expect(order).toHaveLength(8);
    expect(budget.estimateWaitMs('interactive')).toBe(0);
    void take('person', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(order.at(-1)).toBe('person');
    expect(budget.queued).toEqual({ interactive: 0, background: 2, backfill: 0 });
  });

  it('serves the backfill lane (timeline reads) only when no background request waits, so a scan never queues behind reads', async () => {
    const budget = new RateBudget({ perWindow: 3, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    for (let i = 0; i < 4; i++) void take(`read-${i}`, 'backfill');
    await vi.advanceTimersByTimeAsync(2 * budget.spread.stepMs);
    expect(order).toEqual(['read-0', 'read-1', 'read-2']);
    void take('scan', 'background');
    void take('person', 'interactive');
    await vi.advanceTimersByTimeAsync(60_000);
    // The window frees three: the person, the scan, then the read that queued first of all.
    expect(order.slice(3)).toEqual(['person', 'scan', 'read-3']);
    expect(budget.queued).toEqual({ interactive: 0, background: 0, backfill: 0 });
  });

  it('spreads background work through the window: a burst takes a few slots at once, then one as the oldest ages', async () => {
    const budget = new RateBudget({ perWindow: 10 });
    const { burst, stepMs, maxWaitMs } = budget.spread;
    expect({ burst, stepMs, maxWaitMs }).toEqual({ burst: 2, stepMs: 8_500, maxWaitMs: 9_000 });
    const granted: number[] = [];
    for (let i = 0; i < 40; i++) void budget.acquire('background').then((at) => granted.push(at));
    await vi.advanceTimersByTimeAsync(180_000);
    // Each window holds its share (8) and no more, and a share spans at least 51 s.
    for (let i = 8; i < granted.length; i++)
      expect((granted[i] as number) - (granted[i - 8] as number)).toBeGreaterThanOrEqual(60_000);
    for (let i = 7; i < granted.length; i++)
      expect((granted[i] as number) - (granted[i - 7] as number)).toBeGreaterThanOrEqual(60_000 - maxWaitMs);
    expect(granted.length).toBeGreaterThanOrEqual(24);
  });

  it('answers a person beyond the reserve within seconds while background work holds its share', async () => {
    const budget = new RateBudget({ perWindow: 10 });
    for (let i = 0; i < 500; i++) void budget.acquire('background');
    await vi.advanceTimersByTimeAsync(90_000);
    // People ask 8 times a minute, three at once every 22.5 s for three minutes, the poller
    // saturated meanwhile: the third of each three is past the reserve.
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const asked = Date.now();
      for (let k = 0; k < 3; k++) void budget.acquire('interactive').then((at) => waits.push(at - asked));
      await vi.advanceTimersByTimeAsync(22_500);
    }
    await vi.advanceTimersByTimeAsync(60_000);
    expect(waits).toHaveLength(24);
    expect(Math.max(...waits)).toBeLessThanOrEqual(budget.spread.maxWaitMs);
    // Some did wait for a slot to free (the window was full): the bound is the spread's, not luck.
    expect(waits.filter((w) => w > 0).length).toBeGreaterThan(0);
  });

  it('starts from the grants an earlier process kept, and keeps its own', async () => {
    const kept: number[][] = [];
    const memory = {
      recall: async () => Array.from({ length: 8 }, (_, i) => -20_000 + i * 1_000),
      keep: async (grants: readonly number[]) => {
        kept.push([...grants]);
      },
    };
    const budget = new RateBudget({ perWindow: 10 });
    void budget.remember(memory);
    const { order, take } = tracker(budget);
    void take('scan', 'background').catch(() => undefined);
    void take('person-1', 'interactive');
    void take('person-2', 'interactive');
    void take('person-3', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    // 8 of 10 spent by the previous process: the reserve is the people's, nothing for the scan.
    expect(order).toEqual(['person-1', 'person-2']);
    // person-3 waits for the oldest of them to leave the window (40 s); one asking now, for the next.
    expect(budget.estimateWaitMs('interactive')).toBe(41_000);
    await vi.advanceTimersByTimeAsync(300);
    expect(kept.at(-1)).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(39_700);
    expect(order).toEqual(['person-1', 'person-2', 'person-3']);
    await budget.close();
    expect(kept.at(-1)?.filter((g) => g >= 0)).toHaveLength(3);
  });

  it('grants without the memory when it does not answer within 2 s, and never before it answered otherwise', async () => {
    let answer: (grants: number[]) => void = () => undefined;
    const memory = {
      recall: () => new Promise<number[]>((resolve) => (answer = resolve)),
      keep: async () => undefined,
    };
    const slow = new RateBudget({ perWindow: 10 });
    void slow.remember(memory);
    const { order, take } = tracker(slow);
    void take('person', 'interactive');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual([]);
    answer([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['person']);
    const silent = new RateBudget({ perWindow: 10 });
    void silent.remember({ recall: () => new Promise(() => {}), keep: async () => {} });
    const silentOrder = tracker(silent);
    void silentOrder.take('person', 'interactive');
    await vi.advanceTimersByTimeAsync(1_999);
    expect(silentOrder.order).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(silentOrder.order).toEqual(['person']);
  });

  it('estimates how long a request would wait', async () => {
    const budget = new RateBudget({ perWindow: 10, interactiveReserve: 0 });
    const { take } = tracker(budget);
    for (let i = 0; i < 10; i++) void take(`r${i}`, 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(budget.estimateWaitMs('interactive')).toBe(60_000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(budget.estimateWaitMs('interactive')).toBe(40_000);
    void take('queued', 'interactive');
    expect(budget.estimateWaitMs('interactive')).toBe(40_000);
  });

  it('learns from X-RateLimit-Remaining and X-RateLimit-Reset', async () => {
    const budget = new RateBudget({ perWindow: 10, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    budget.observe(1, 30); // another process of the same user spent most of the minute
    void take('a', 'interactive');
    void take('b', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['a']);
    expect(budget.estimateWaitMs('interactive')).toBe(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(order).toEqual(['a', 'b']);
  });

  it('aligns its window on X-RateLimit-Reset alone: sent before the reset, a request stops counting then', async () => {
    const budget = new RateBudget({ perWindow: 3, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    for (const at of [0, 10_000, 20_000]) {
      await vi.advanceTimersByTimeAsync(at - Date.now());
      void take(`r${at}`, 'interactive');
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(order).toHaveLength(3);
    // Without the header: the first request leaves the sliding window at 60 s, 40 s from now.
    expect(budget.estimateWaitMs('interactive')).toBe(40_000);
    // The platform says its window restarts in 5 s (no Remaining): it does not block, it frees.
    budget.observe(undefined, 5);
    const estimate = budget.estimateWaitMs('interactive');
    expect(estimate).toBe(5_000);
    void take('next', 'interactive');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(order).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(order.at(-1)).toBe('next');
  });

  it('never blocks on X-RateLimit-Reset alone while it has room, nor forgets requests sent just before the reset', async () => {
    const budget = new RateBudget({ perWindow: 2, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    budget.observe(undefined, 30);
    expect(budget.estimateWaitMs('interactive')).toBe(0);
    void take('a', 'interactive');
    await vi.advanceTimersByTimeAsync(29_000);
    // Sent within the header's rounding of the reset: it may count in the new window, so it stays.
    void take('b', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['a', 'b']);
    expect(budget.estimateWaitMs('interactive')).toBe(1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    void take('c', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['a', 'b', 'c']);
    // 'b' still counts: the next slot is when it leaves the sliding window (29 s + 60 s).
    expect(budget.estimateWaitMs('interactive')).toBe(59_000);
  });

  it('with X-RateLimit-Remaining too, frees what was sent before the platform’s window restarts, then', async () => {
    const budget = new RateBudget({ perWindow: 2, interactiveReserve: 0 });
    const { order, take } = tracker(budget);
    void take('r0', 'interactive');
    void take('r1', 'interactive');
    void take('r2', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    budget.observe(0, 20); // the platform's fixed minute restarts in 20 s
    expect(order).toEqual(['r0', 'r1']);
    await vi.advanceTimersByTimeAsync(20_000);
    // Sent 20 s before the platform's restart: they no longer count there, nor here.
    expect(order).toEqual(['r0', 'r1', 'r2']);
  });

  it('frees at once what was sent before the platform’s current window opened (an earlier process’s, recalled)', async () => {
    await vi.advanceTimersByTimeAsync(20_000);
    const budget = new RateBudget({ perWindow: 10 });
    await budget.remember({
      recall: async () => Array.from({ length: 8 }, (_, i) => i * 1_000),
      keep: async () => {},
    });
    expect(budget.used).toBe(8);
    // An answer says the platform's window restarts in 60 s: it opened just now, after those 8.
    budget.observe(undefined, 60);
    expect(budget.used).toBe(0);
    // One sent within the margin of the window's opening still counts (it may have arrived after it).
    const other = new RateBudget({ perWindow: 10 });
    await other.remember({ recall: async () => [Date.now() - 1_000], keep: async () => {} });
    other.observe(undefined, 60);
    expect(other.used).toBe(1);
  });

  it('stops everything for the wait a 429 announces', async () => {
    const budget = new RateBudget({ perWindow: 10 });
    const { order, take } = tracker(budget);
    budget.pauseFor(5_000);
    void take('a', 'interactive');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(order).toEqual(['a']);
  });

  it('removes an aborted request from the queue', async () => {
    const budget = new RateBudget({ perWindow: 1 });
    await budget.acquire('interactive');
    const controller = new AbortController();
    const waiting = budget.acquire('interactive', controller.signal);
    controller.abort(new Error('person gave up'));
    await expect(waiting).rejects.toThrow('person gave up');
    expect(budget.queued.interactive).toBe(0);
  });
  it('keeps the order of those still waiting when some abort, and counts only them', async () => {
    const budget = new RateBudget({ perWindow: 1, interactiveReserve: 0 });
    await budget.acquire('interactive');
    const order: string[] = [];
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    const waiting = controllers.map((c, i) =>
      budget.acquire('interactive', c.signal).then(
        () => order.push(`r${i}`),
        (e: Error) => order.push(`r${i} ${e.message}`),
      ),
    );
    controllers[1]?.abort(new Error('gave up'));
    controllers[3]?.abort(new Error('gave up'));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['r1 gave up', 'r3 gave up']);
    expect(budget.queued.interactive).toBe(3);
    // A new request would have the three still waiting ahead of it, one a minute: the fourth minute.
    expect(budget.estimateWaitMs('interactive')).toBe(240_000);
    await vi.advanceTimersByTimeAsync(180_000);
    await Promise.all(waiting);
    expect(order).toEqual(['r1 gave up', 'r3 gave up', 'r0', 'r2', 'r4']);
    expect(budget.queued.interactive).toBe(0);
  });

  it('serves thousands of waiters in their order, aborted ones skipped, and listens to their signals only while they wait', async () => {
    const budget = new RateBudget({ perWindow: 100, interactiveReserve: 0, windowMs: 1_000 });
    const signal = new AbortController();
    const aborts = Array.from({ length: 3_000 }, () => new AbortController());
    const served: number[] = [];
    for (let i = 0; i < 3_000; i++)
      budget.acquire('interactive', i % 7 === 3 ? aborts[i]?.signal : signal.signal).then(
        () => served.push(i),
        () => undefined,
      );
    // One listener per waiter on the shared signal (the first 100 were granted at once).
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(3_000 - 100 - 415);
    for (let i = 3; i < 3_000; i += 7) aborts[i]?.abort();
    await vi.advanceTimersByTimeAsync(30_000);
    const expected = Array.from({ length: 3_000 }, (_, i) => i).filter((i) => i < 100 || i % 7 !== 3);
    expect(served).toEqual(expected);
    expect(budget.queued.interactive).toBe(0);
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(0);
  });

  it('ends every waiter of every lane at once when closed, and stops listening to their signals', async () => {
    const budget = new RateBudget({ perWindow: 1, interactiveReserve: 0 });
    await budget.acquire('interactive');
    const controller = new AbortController();
    const ended: string[] = [];
    const lanes: Priority[] = ['backfill', 'interactive', 'background'];
    const waiting = lanes.map((lane) =>
      budget.acquire(lane, controller.signal).catch((e: Error) => ended.push(`${lane}: ${e.message}`)),
    );
    budget.close(new Error('stopping'));
    await Promise.all(waiting);
    expect(ended.sort()).toEqual(['backfill: stopping', 'background: stopping', 'interactive: stopping']);
    expect(budget.queued).toEqual({ interactive: 0, background: 0, backfill: 0 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // An abort after the close changes nothing (no second settlement, no count below zero).
    controller.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(budget.queued).toEqual({ interactive: 0, background: 0, backfill: 0 });
  });
});
