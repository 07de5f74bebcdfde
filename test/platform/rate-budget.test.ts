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
    void take('bg-0', 'background');
    void take('bg-1', 'background');
    void take('bg-2', 'background');
    void take('bg-3', 'background');
    void take('person', 'interactive');
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['bg-0', 'bg-1']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual(['bg-0', 'bg-1', 'person', 'bg-2']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual(['bg-0', 'bg-1', 'person', 'bg-2', 'bg-3']);
  });

  it('keeps a reserve that background work cannot take, so a person never waits behind the poller', async () => {
    const budget = new RateBudget({ perWindow: 10 });
    expect(budget.reserve).toBe(2);
    const { order, take } = tracker(budget);
    for (let i = 0; i < 10; i++) void take(`bg-${i}`, 'background');
    await vi.advanceTimersByTimeAsync(0);
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
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(['read-0', 'read-1', 'read-2']);
    void take('scan', 'background');
    void take('person', 'interactive');
    expect(budget.estimateWaitMs('background')).toBe(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    // The window frees three: the person, the scan, then the read that queued first of all.
    expect(order.slice(3)).toEqual(['person', 'scan', 'read-3']);
    expect(budget.queued).toEqual({ interactive: 0, background: 0, backfill: 0 });
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
      budget.acquire('background', i % 7 === 3 ? aborts[i]?.signal : signal.signal).then(
        () => served.push(i),
        () => undefined,
      );
    // One listener per waiter on the shared signal (the first 100 were granted at once).
    expect(getEventListeners(signal.signal, 'abort')).toHaveLength(3_000 - 100 - 415);
    for (let i = 3; i < 3_000; i += 7) aborts[i]?.abort();
    await vi.advanceTimersByTimeAsync(30_000);
    const expected = Array.from({ length: 3_000 }, (_, i) => i).filter((i) => i < 100 || i % 7 !== 3);
    expect(served).toEqual(expected);
    expect(budget.queued.background).toBe(0);
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
