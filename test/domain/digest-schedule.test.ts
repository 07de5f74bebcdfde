import { describe, expect, it } from 'vitest';
import {
  type DigestSchedule,
  dueRun,
  nextRunAfter,
  parseDigestTime,
  periodOf,
  runAt,
} from '../../src/domain/digest-schedule.js';

const every = [1, 2, 3, 4, 5, 6, 7];
const schedule = (zone: string, time: string, weekdays = every): DigestSchedule => ({
  id: 's',
  channel: 'C1',
  zone,
  time,
  weekdays,
});
const at = (s: DigestSchedule, date: string) => runAt(s, date)?.toISOString();

describe('digest schedules across zones and daylight-saving changes', () => {
  it('keeps 09:00 local on both sides of a change (Paris, New York) and in a zone without one (Kolkata)', () => {
    const paris = schedule('Europe/Paris', '09:00');
    expect(at(paris, '2027-03-27')).toBe('2027-03-27T08:00:00.000Z'); // CET, +01:00
    expect(at(paris, '2027-03-28')).toBe('2027-03-28T07:00:00.000Z'); // CEST from that night
    expect(at(paris, '2027-10-31')).toBe('2027-10-31T08:00:00.000Z'); // back to CET
    const ny = schedule('America/New_York', '09:00');
    expect(at(ny, '2027-03-13')).toBe('2027-03-13T14:00:00.000Z'); // EST
    expect(at(ny, '2027-03-14')).toBe('2027-03-14T13:00:00.000Z'); // EDT
    expect(at(schedule('Asia/Kolkata', '09:00'), '2027-03-28')).toBe('2027-03-28T03:30:00.000Z');
  });

  it('runs a time the clocks skip at the next minute that exists, once', () => {
    expect(at(schedule('Europe/Paris', '02:30'), '2027-03-28')).toBe('2027-03-28T01:00:00.000Z'); // 03:00 CEST
    expect(at(schedule('America/New_York', '02:15'), '2027-03-14')).toBe('2027-03-14T07:00:00.000Z'); // 03:00 EDT
    // Chatham moves from +12:45 to +13:45 at 02:45: 03:00 does not exist, 03:45 is the next minute.
    expect(at(schedule('Pacific/Chatham', '03:00'), '2027-09-26')).toBe('2027-09-25T14:00:00.000Z');
  });

  it('runs a time that happens twice at its first occurrence', () => {
    expect(at(schedule('Europe/Paris', '02:30'), '2027-10-31')).toBe('2027-10-31T00:30:00.000Z'); // CEST
    expect(at(schedule('Pacific/Chatham', '03:00'), '2027-04-04')).toBe('2027-04-03T13:15:00.000Z'); // +13:45
  });

  it('runs only on the chosen weekdays', () => {
    const weekdays = schedule('Europe/Paris', '09:00', [1, 2, 3, 4, 5]);
    expect(at(weekdays, '2027-03-26')).toBe('2027-03-26T08:00:00.000Z'); // a Friday
    expect(at(weekdays, '2027-03-27')).toBeUndefined(); // Saturday
    expect(nextRunAfter(weekdays, new Date('2027-03-26T09:00:00Z'))?.toISOString()).toBe(
      '2027-03-29T07:00:00.000Z', // Monday, after the change to CEST
    );
  });

  it('is due once its time has come, and after downtime sends today’s only, saying it is late', () => {
    const s = schedule('Asia/Kolkata', '09:00');
    expect(dueRun(s, new Date('2027-03-28T03:29:00Z'))).toBeUndefined();
    expect(dueRun(s, new Date('2027-03-28T03:31:00Z'))).toMatchObject({ period: '2027-03-28', late: false });
    // Down from Friday until Sunday noon, Kolkata time: Sunday's digest, late; Friday's and Saturday's never.
    expect(dueRun(s, new Date('2027-03-28T06:30:00Z'))).toMatchObject({ period: '2027-03-28', late: true });
    // The period is the local date: 23:30 UTC on the 27th is already the 28th in Kolkata.
    expect(periodOf('Asia/Kolkata', new Date('2027-03-27T23:30:00Z'))).toBe('2027-03-28');
    expect(periodOf('America/New_York', new Date('2027-03-28T03:30:00Z'))).toBe('2027-03-27');
  });

  it('reads the times people type', () => {
    expect(['9', '9am', '09:00', '9:30 pm', '21h30', '12am', '12pm'].map(parseDigestTime)).toEqual([
      '09:00',
      '09:00',
      '09:00',
      '21:30',
      '21:30',
      '00:00',
      '12:00',
    ]);
    expect(['25:00', '13pm', '9:75', 'noonish', ''].map(parseDigestTime)).toEqual(Array(5).fill(undefined));
  });
});
