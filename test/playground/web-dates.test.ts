import { describe, expect, it } from 'vitest';
import { epochToWallClock, formatSlackDate, wallClockToEpoch } from '../../src/playground/web/dates.js';

// Saturday 27 March 2027, 09:00 UTC; the viewer's "now" is the day before.
const epoch = Date.UTC(2027, 2, 27, 9, 0) / 1000;
const now = new Date(Date.UTC(2027, 2, 26, 10, 0));

describe('Slack date tokens in the page', () => {
  it('formats each token in the zone given', () => {
    const f = (format: string, zone = 'UTC') => formatSlackDate(epoch, format, zone, now);
    expect(f('{date_num}')).toBe('2027-03-27');
    expect(f('{date}')).toBe('March 27th, 2027');
    expect(f('{date_short}')).toBe('Mar 27, 2027');
    expect(f('{date_long}')).toBe('Saturday, March 27th, 2027');
    expect(f('{time}')).toBe('9:00 AM');
    expect(f('{time_secs}')).toBe('9:00:00 AM');
    expect(f('{time}', 'Asia/Tokyo')).toBe('6:00 PM');
    expect(f('{date_num} {time}', 'America/New_York')).toBe('2027-03-27 5:00 AM');
  });

  it('writes French for a person whose Slack is in French: words, 24-hour clock, aujourd’hui', () => {
    const f = (format: string, at = now) => formatSlackDate(epoch, format, 'Europe/Paris', at, 'fr-FR');
    expect(f('{date_short_pretty} à {time}')).toBe('demain à 10:00');
    expect(f('{date_long}')).toBe('samedi 27 mars 2027');
    expect(f('{date_pretty}', new Date(epoch * 1000))).toBe('aujourd’hui');
    expect(f('{date_num}')).toBe('2027-03-27');
    expect(f('{ago}', new Date(epoch * 1000 + 5 * 60_000))).toBe('il y a 5 minutes');
    // English when the person's Slack is not French.
    expect(formatSlackDate(epoch, '{time}', 'Europe/Paris', now, 'en-GB')).toBe('10:00 AM');
  });

  it('says Today, Tomorrow or Yesterday in the viewer’s calendar', () => {
    expect(formatSlackDate(epoch, '{date_short_pretty} at {time}', 'UTC', now)).toBe('Tomorrow at 9:00 AM');
    expect(formatSlackDate(epoch, '{date_pretty}', 'UTC', new Date(epoch * 1000))).toBe('Today');
    expect(formatSlackDate(epoch, '{date_long_pretty}', 'UTC', new Date(Date.UTC(2027, 2, 28, 12)))).toBe(
      'Yesterday',
    );
    // In Tokyo the 26th at 10:00 UTC is already the 26th evening, and the start the 27th at 18:00.
    expect(formatSlackDate(epoch, '{date_pretty}', 'Asia/Tokyo', now)).toBe('Tomorrow');
    expect(formatSlackDate(epoch, '{date_long_pretty}', 'UTC', new Date(Date.UTC(2027, 3, 1)))).toBe(
      'Saturday, March 27th, 2027',
    );
  });

  it('writes ordinals and relative times as Slack does, and leaves unknown tokens', () => {
    const day = (d: number) => formatSlackDate(Date.UTC(2027, 0, d) / 1000, '{date}', 'UTC', now);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23].map(day).map((s) => s.split(' ')[1])).toEqual([
      '1st,',
      '2nd,',
      '3rd,',
      '4th,',
      '11th,',
      '12th,',
      '13th,',
      '21st,',
      '22nd,',
      '23rd,',
    ]);
    expect(formatSlackDate(epoch, '{ago}', 'UTC', now)).toBe('in 23 hours');
    expect(formatSlackDate(epoch - 120, '{ago}', 'UTC', new Date(epoch * 1000))).toBe('2 minutes ago');
    expect(formatSlackDate(epoch, '{nope} {time}', 'UTC', now)).toBe('{nope} 9:00 AM');
  });
});

describe('the date-time picker’s wall clock', () => {
  it('is read in the person’s zone, across a DST switch, and written back the same', () => {
    expect(wallClockToEpoch('2027-03-27T10:00', 'Europe/Paris')).toBe(Date.UTC(2027, 2, 27, 9) / 1000);
    // Paris switches to summer time on 28 March 2027 at 02:00.
    expect(wallClockToEpoch('2027-03-28T10:00', 'Europe/Paris')).toBe(Date.UTC(2027, 2, 28, 8) / 1000);
    expect(wallClockToEpoch('2027-03-27T10:00', 'America/New_York')).toBe(Date.UTC(2027, 2, 27, 14) / 1000);
    expect(epochToWallClock(Date.UTC(2027, 2, 28, 8) / 1000, 'Europe/Paris')).toBe('2027-03-28T10:00');
    expect(wallClockToEpoch('', 'UTC')).toBeUndefined();
  });
});
