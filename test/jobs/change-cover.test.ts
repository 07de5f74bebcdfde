import { describe, expect, it } from 'vitest';
import { coveredBy, coverOf } from '../../src/jobs/ports.js';

const at = (s: string) => new Date(`2027-03-26T10:00:${s}Z`);

describe('the platform events a change made from Slack covers', () => {
  it('are those after the version acted on, up to the version after', () => {
    const cover = { since: at('01.000').toISOString(), at: at('03.000').toISOString() };
    expect(coveredBy(cover, at('01.000'))).toBe(false);
    expect(coveredBy(cover, at('02.000'))).toBe(true);
    expect(coveredBy(cover, at('03.000'))).toBe(true);
    expect(coveredBy(cover, at('04.000'))).toBe(false);
  });

  it('are those of that second when both versions are in the same second (the platform writes seconds)', () => {
    const cover = { since: at('05.000').toISOString(), at: at('05.000').toISOString() };
    expect(coveredBy(cover, at('05.000'))).toBe(true);
    expect(coveredBy(cover, at('04.000'))).toBe(false);
    expect(coveredBy({ since: null, at: at('05.000').toISOString() }, at('05.000'))).toBe(true);
  });

  it('are read only from a person’s line, never from a platform event', () => {
    expect(coverOf({ eventName: 'ticket.approved', timestamp: at('01.000').toISOString() })).toBeUndefined();
    expect(coverOf({ line: 'moved', cover: { at: '2027-03-26T10:00:05.000Z' } })).toEqual({
      at: '2027-03-26T10:00:05.000Z',
      since: null,
    });
  });
});
