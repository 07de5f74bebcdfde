import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryDelayMs } from '../../src/startup/waiting.js';

/*
 * The pause between two tries of Slack's auth.test while the start waits for Slack: 1 s, doubling,
 * at most 30 s, each give or take a fifth (so replicas started together do not try together).
 */

afterEach(() => {
  vi.restoreAllMocks();
});

/** The delays of tries 1…n with Math.random fixed at `r`. */
const schedule = (r: number, n = 8, capMs?: number) => {
  vi.spyOn(Math, 'random').mockReturnValue(r);
  return Array.from({ length: n }, (_, i) => retryDelayMs(i + 1, capMs));
};

describe('the start’s retry schedule for Slack', () => {
  it('is 1 s, 2 s, 4 s… doubling, then 30 s apart for as long as it takes', () => {
    expect(schedule(0.5)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    vi.restoreAllMocks();
    // Far on (an hour of tries): still the cap, never an overflow or NaN.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(retryDelayMs(200)).toBe(30_000);
    expect(retryDelayMs(5_000)).toBe(30_000);
    // A try numbered 0 (or less) waits like the first.
    expect(retryDelayMs(0)).toBe(1_000);
  });

  it('is spread by a fifth either way, never more', () => {
    expect(schedule(0)).toEqual([800, 1_600, 3_200, 6_400, 12_800, 24_000, 24_000, 24_000]);
    vi.restoreAllMocks();
    expect(schedule(0.999_999)).toEqual([1_200, 2_400, 4_800, 9_600, 19_200, 36_000, 36_000, 36_000]);
    vi.restoreAllMocks();
    for (let attempt = 1; attempt <= 12; attempt++) {
      const base = Math.min(30_000, 1_000 * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const d = retryDelayMs(attempt);
        expect(d).toBeGreaterThanOrEqual(base * 0.8);
        expect(d).toBeLessThanOrEqual(base * 1.2);
      }
    }
  });

  it('takes another cap', () => {
    expect(schedule(0.5, 4, 3_000)).toEqual([1_000, 2_000, 3_000, 3_000]);
  });
});
