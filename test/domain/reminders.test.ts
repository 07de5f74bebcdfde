import { describe, expect, it } from 'vitest';
import {
  dueBy,
  holdOf,
  inviteesOf,
  leadMinutesFor,
  type ReminderConference,
  type ReminderPeople,
  type ReminderPrefs,
  reminderKey,
  reminderMinutesOf,
  remindersOf,
} from '../../src/domain/reminders.js';

const now = new Date('2027-03-26T10:00:00Z');
const inMinutes = (m: number) => new Date(now.getTime() + m * 60_000);

const conference = (o: Partial<ReminderConference> = {}): ReminderConference => ({
  id: '7',
  title: 'Weekly',
  start: inMinutes(20),
  participants: ['ann@x.example', 'bob@x.example', '+33600000000'],
  ...o,
});

const people: ReminderPeople = {
  members: new Map([
    ['ann@x.example', 'UANN'],
    ['bob@x.example', 'UBOB'],
  ]),
  moderator: 'UMOD',
};

const plan = (cs: ReminderConference[], prefs: Record<string, ReminderPrefs> = {}, p = people) =>
  remindersOf(
    cs,
    () => p,
    (u) => prefs[u],
    now,
  );

describe('who is reminded of a conference, and when', () => {
  it('reminds each Slack member among the participants and the moderator once, 10 minutes before by default', () => {
    const planned = plan([conference()]);
    expect(planned.map((r) => [r.user, r.dueAt.toISOString(), r.moderator])).toEqual([
      ['UANN', inMinutes(10).toISOString(), false],
      ['UBOB', inMinutes(10).toISOString(), false],
      ['UMOD', inMinutes(10).toISOString(), true],
    ]);
  });

  it('a moderator who is also a participant gets one reminder, the moderator’s', () => {
    const planned = plan([conference()], {}, { ...people, moderator: 'UANN' });
    expect(planned.map((r) => [r.user, r.moderator])).toEqual([
      ['UANN', true],
      ['UBOB', false],
    ]);
  });

  it('takes the person’s own lead time first, then the conference’s setting, then 10 minutes; off is off', () => {
    const c = conference({ reminderMinutes: 25 });
    expect(leadMinutesFor({ enabled: true, leadMinutes: 5 }, c)).toBe(5);
    expect(leadMinutesFor({ enabled: true }, c)).toBe(25);
    expect(leadMinutesFor(undefined, c)).toBe(25);
    expect(leadMinutesFor(undefined, conference())).toBe(10);
    expect(leadMinutesFor({ enabled: false, leadMinutes: 5 }, c)).toBeNull();
    const planned = plan([c], { UANN: { enabled: true, leadMinutes: 5 }, UBOB: { enabled: false } });
    expect(planned.map((r) => [r.user, r.leadMinutes])).toEqual([
      ['UANN', 5],
      ['UMOD', 25],
    ]);
  });

  it('reads the conference’s reminder setting tolerantly: 1 to 60 whole minutes, else none', () => {
    expect(reminderMinutesOf(15)).toBe(15);
    expect(reminderMinutesOf('30')).toBe(30);
    expect(reminderMinutesOf(0)).toBeUndefined();
    expect(reminderMinutesOf(61)).toBeUndefined();
    expect(reminderMinutesOf(null)).toBeUndefined();
    expect(reminderMinutesOf('soon')).toBeUndefined();
    expect(reminderMinutesOf(2.5)).toBeUndefined();
  });

  it('reminds of no conference that has started (the bot back from a long stop), nor one without a start', () => {
    expect(plan([conference({ start: inMinutes(0) }), conference({ start: inMinutes(-30) })])).toEqual([]);
    expect(plan([conference({ start: new Date(Number.NaN) })])).toEqual([]);
  });

  it('one due already but not started yet goes at once (planned at short notice, or after a short stop)', () => {
    const soon = plan([conference({ start: inMinutes(3) })]);
    expect(dueBy(soon, now, 60_000)).toHaveLength(3);
    expect(holdOf(soon[0] as (typeof soon)[number], now)).toBe(0);
  });

  it('writes now only what is due before the next scan, each held until its time', () => {
    const planned = plan([
      conference({ id: '1', start: inMinutes(10.5) }),
      conference({ id: '2', start: inMinutes(12) }),
    ]);
    const due = dueBy(planned, now, 60_000);
    expect(new Set(due.map((r) => r.conferenceId))).toEqual(new Set(['1']));
    expect(holdOf(due[0] as (typeof due)[number], now)).toBe(30_000);
  });

  it('keys a reminder by conference, person and start: a moved conference is another reminder', () => {
    const a = reminderKey({ conferenceId: '7', user: 'UANN', start: inMinutes(20) });
    const moved = reminderKey({ conferenceId: '7', user: 'UANN', start: inMinutes(40) });
    expect(a).toEqual({ ticketId: 'conference:7', eventId: `reminder:UANN:${inMinutes(20).toISOString()}` });
    expect(moved.eventId).not.toBe(a.eventId);
    expect(reminderKey({ conferenceId: '7', user: 'UANN', start: inMinutes(20) })).toEqual(a);
  });

  it('tells the moderator the Slack members by mention and the others by the address entered, once each', () => {
    const c = conference({
      participants: ['ann@x.example', 'bob@x.example', '+33600000000', 'ann@x.example'],
    });
    expect(inviteesOf(c, people)).toEqual({ members: ['UANN', 'UBOB'], outside: ['+33600000000'] });
  });
});
