import { describe, expect, it } from 'vitest';
import { rateLimitedLine } from '../../src/observability/rate-limited-log.js';

describe('rateLimitedLine', () => {
  it('writes at most one line a minute, and the next one says how many were held back', () => {
    let t = 0;
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const line = rateLimitedLine((fields, message) => void lines.push({ fields, message }), {
      now: () => t,
    });
    for (let i = 0; i < 500; i++) {
      line({ reason: 'junk' }, 'refused');
      t += 50;
    }
    // 25 s of junk: one line.
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toEqual({ reason: 'junk' });
    t = 60_000;
    line({ reason: 'junk' }, 'refused');
    expect(lines).toHaveLength(2);
    expect(lines[1]?.fields.held).toBe(499);
    expect(lines[1]?.message).toContain('499 more like it');
    t = 60_001;
    line({ reason: 'junk' }, 'refused');
    expect(lines).toHaveLength(2);
  });
});
