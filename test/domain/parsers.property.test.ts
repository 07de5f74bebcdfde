import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  formatConferenceRequest,
  isCompleteRequest,
  parseConferenceCommand,
  parseConferenceRequest,
} from '../../src/domain/conference-text.js';
import { formatDuration, formatWhenInput, parseDuration, parseWhen } from '../../src/domain/time.js';
import { conferenceWords } from '../../src/slack/commands/conference.js';

const zones = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Asia/Tokyo',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
];
const zone = fc.constantFrom(...zones);
/** Instants between 2020 and 2035, whole minutes. */
const instant = fc
  .integer({ min: Date.UTC(2020, 0, 1) / 60_000, max: Date.UTC(2035, 0, 1) / 60_000 })
  .map((m) => new Date(m * 60_000));
/** Text that looks like what people type: words, numbers, times, quotes, Slack escapes. */
const typed = fc.oneof(
  fc.string(),
  fc
    .array(
      fc.constantFrom(
        'tomorrow',
        'in',
        '3pm',
        '09:30',
        'mon',
        'now',
        'at',
        '45m',
        '1h30',
        '2026-12-01',
        '"',
        '“',
        'a@b.co',
        '+33612345678',
        '<@U123|bob>',
        '<mailto:x@y.z|x@y.z>',
        'list',
        'show',
        '12',
        'h',
        'am',
        ',',
      ),
      { maxLength: 12 },
    )
    .map((w) => w.join(' ')),
);

/**
 * The instant written in the zone reads back as the same text, and as the same instant, except in
 * the hour that happens twice when clocks go back: that wall time is read as its later occurrence.
 */
function expectReadBack(when: Date, z: string, now: Date) {
  const text = formatWhenInput(when, z);
  const r = parseWhen(text, { zone: z, now });
  if (!r.ok) throw new Error(r.error);
  expect(formatWhenInput(r.value, z)).toBe(text);
  const gap = r.value.toMillis() - when.getTime();
  if (gap !== 0) {
    expect(gap).toBeGreaterThan(0);
    expect(gap).toBeLessThanOrEqual(3_600_000);
    expect(DateTime.fromJSDate(when, { zone: z }).offset).toBeGreaterThan(r.value.offset);
  }
}

describe('the time parser (property-based)', () => {
  it('never throws, whatever the text, zone and clock', () => {
    fc.assert(
      fc.property(typed, fc.oneof(zone, fc.string()), instant, (text, z, now) => {
        const r = parseWhen(text, { zone: z, now });
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });

  it('places an instant in a zone with luxon’s own offset (the zones remember offsets by the minute)', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: 0, max: 59_999 }), (when, z, ms) => {
        const now = new Date(when.getTime() + ms);
        const r = parseWhen('now', { zone: z, now });
        if (!r.ok) throw new Error(r.error);
        const plain = DateTime.fromJSDate(now, { zone: z }).startOf('minute');
        expect(r.value.offset).toBe(plain.offset);
        expect(r.value.toISO()).toBe(plain.toISO());
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back every time it writes (yyyy-MM-dd HH:mm in the person’s zone), across DST changes', () => {
    fc.assert(fc.property(instant, zone, instant, (when, z, now) => expectReadBack(when, z, now)));
  });

  it('reads a wall time repeated when clocks go back as its later occurrence', () => {
    const r = parseWhen('2026-11-01 01:30', {
      zone: 'America/New_York',
      now: new Date('2026-10-01T00:00:00Z'),
    });
    expect(r.ok && r.value.toUTC().toISO()).toBe('2026-11-01T06:30:00.000Z');
    // Lord Howe Island goes back 30 minutes (a counterexample the property once found).
    const howe = parseWhen('2020-04-05 01:30', {
      zone: 'Australia/Lord_Howe',
      now: new Date('2020-01-01T00:00:00Z'),
    });
    expect(howe.ok && howe.value.toUTC().toISO()).toBe('2020-04-04T15:00:00.000Z');
  });

  it('round-trips what it accepts: accepted text → instant → written → the same instant', () => {
    fc.assert(
      fc.property(typed, zone, instant, (text, z, now) => {
        const r = parseWhen(text, { zone: z, now });
        if (!r.ok) return;
        expect(r.value.second).toBe(0);
        expectReadBack(r.value.toJSDate(), z, now);
      }),
    );
  });

  it('places relative phrases from the clock: in Nm is N minutes later; tomorrow Hh is the next day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        zone,
        instant,
        fc.integer({ min: 0, max: 23 }),
        (n, z, now, h) => {
          const later = parseWhen(`in ${formatDuration(n)}`, { zone: z, now });
          expect(later.ok && later.value.toMillis()).toBe(now.getTime() + n * 60_000);
          const tomorrow = parseWhen(`tomorrow ${String(h).padStart(2, '0')}:00`, { zone: z, now });
          const expected = DateTime.fromJSDate(now, { zone: z }).plus({ days: 1 });
          expect(tomorrow.ok && tomorrow.value.toISODate()).toBe(expected.toISODate());
        },
      ),
    );
  });
});

describe('the duration parser (property-based)', () => {
  it('never throws and round-trips every duration it writes', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(typeof parseDuration(s).ok).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 * 24 * 60 }), (n) => {
        const r = parseDuration(formatDuration(n));
        expect(r.ok && r.value).toBe(n);
      }),
    );
  });
});

const request = fc.record(
  {
    participants: fc.uniqueArray(
      fc.oneof(
        fc.emailAddress().filter((e) => /^[a-z0-9._-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(e)),
        fc.integer({ min: 1_000_000, max: 99_999_999_999 }).map((n) => `+${n}`),
      ),
      { maxLength: 4 },
    ),
    mentions: fc.uniqueArray(fc.stringMatching(/^U[A-Z0-9]{8}$/), { maxLength: 3 }),
    // Absent, not undefined, like the parser's own output: the three are sometimes left out.
    when: fc.constantFrom('now', 'tomorrow 3pm', 'in 2h', 'mon 09:30', '2026-12-01 14:00', 'fri at 10:15am'),
    duration: fc.integer({ min: 1, max: 7 * 24 * 60 }),
    name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .:'()-]{0,40}[A-Za-z0-9)]$/),
  },
  { requiredKeys: ['participants', 'mentions'] },
);

describe('the /conference text parser (property-based)', () => {
  it('never throws, and parsing its own writing of a parse gives the same parse', () => {
    fc.assert(
      fc.property(typed, (text) => {
        const cmd = parseConferenceCommand(text, conferenceWords);
        expect(cmd.kind).toBeTypeOf('string');
        const r = parseConferenceRequest(text);
        const again = parseConferenceRequest(formatConferenceRequest(r));
        expect({ ...again, unknown: [], problems: [] }).toEqual({ ...r, unknown: [], problems: [] });
      }),
    );
  });

  it('round-trips every request it can write: participants, mentions, time, duration, name', () => {
    fc.assert(
      fc.property(request, (req) => {
        const parsed = parseConferenceRequest(formatConferenceRequest({ ...req, unknown: [], problems: [] }));
        expect(parsed).toEqual({ ...req, unknown: [], problems: [] });
        expect(isCompleteRequest(parsed)).toBe(
          req.participants.length + req.mentions.length > 0 && req.when !== undefined,
        );
      }),
    );
  });
});

describe('examples people type', () => {
  const now = new Date('2027-03-26T10:00:00Z'); // a Friday
  it.each([
    ['tomorrow 3pm', 'Europe/Paris', '2027-03-27T14:00:00.000Z'],
    ['in 2h', 'Asia/Tokyo', '2027-03-26T12:00:00.000Z'],
    ['mon 09:30', 'Europe/Paris', '2027-03-29T07:30:00.000Z'],
    ['2026-12-01 14:00', 'America/New_York', '2026-12-01T19:00:00.000Z'],
    ['now', 'UTC', '2027-03-26T10:00:00.000Z'],
    ['9am', 'Europe/Paris', '2027-03-27T08:00:00.000Z'],
    ['fri 12:00', 'Europe/Paris', '2027-03-26T11:00:00.000Z'],
  ])('%s in %s is %s', (text, z, iso) => {
    const r = parseWhen(text, { zone: z, now });
    expect(r.ok && r.value.toUTC().toISO()).toBe(iso);
  });

  it.each([['tomorrow'], ['25:00'], ['2027-02-30 10:00'], ['in soon'], ['13pm']])(
    'refuses %s with a hint',
    (text) => {
      const r = parseWhen(text, { zone: 'UTC', now });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatch(/tomorrow 3pm|time of day|does not exist/);
    },
  );

  it.each([
    ['45m', 45],
    ['1h30', 90],
    ['90min', 90],
    ['2 hours', 120],
    ['1h', 60],
  ])('duration %s is %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toEqual({ ok: true, value: minutes });
  });
});

/*
 * parseWhen does its calendar arithmetic on epoch milliseconds (a luxon DateTime per step was the
 * largest cost of a /conference command). The oracle is the arithmetic it replaced, in luxon's own
 * DateTimes and luxon's own zones: both must place every phrase at the same instant, in zones whose
 * clocks change in every way there is (an hour, 30 minutes, at midnight, back in summer, twice a year
 * around Ramadan), on instants crowded around those changes.
 */
const trickyZones = [
  ...zones,
  'America/Havana', // changes at midnight
  'Asia/Gaza',
  'Europe/Dublin', // "winter time" is the one with the lower offset in the tz database
  'Africa/Casablanca', // goes back an hour for Ramadan
  'Pacific/Apia',
  'America/Sao_Paulo',
  'America/Santiago',
  'Asia/Tehran',
];
const weekdayWords = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** The phrase's words and its meaning: a clock time, with a day, a weekday, or neither. */
const phrase = fc.record({
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.constantFrom(0, 15, 30, 45, 59),
  day: fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('today' as const, 'tomorrow' as const),
    fc.record({
      year: fc.integer({ min: 2020, max: 2034 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
    }),
  ),
  weekday: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
});

type Phrase = typeof phrase extends fc.Arbitrary<infer T> ? T : never;

function luxonOracle(p: Phrase, zone: string, nowDate: Date) {
  const now = DateTime.fromJSDate(nowDate, { zone }).startOf('minute');
  const at = (d: { year: number; month: number; day: number }) => {
    const wall = { year: d.year, month: d.month, day: d.day, hour: p.hour, minute: p.minute };
    const dt = DateTime.fromObject(wall, { zone });
    const after = dt.plus({ hours: 3 }).offset;
    if (after >= dt.offset) return dt;
    const later = DateTime.fromObject(wall, { zone: FixedOffsetZone.instance(after) }).setZone(zone);
    return later > dt && later.hour === dt.hour && later.minute === dt.minute ? later : dt;
  };
  if (p.day) return at(p.day === 'today' ? now : p.day === 'tomorrow' ? now.plus({ days: 1 }) : p.day);
  if (p.weekday !== undefined) {
    let candidate = at(now.plus({ days: (p.weekday - now.weekday + 7) % 7 }));
    if (candidate < now) candidate = at(candidate.plus({ days: 7 }));
    return candidate;
  }
  const today = at(now);
  return today < now ? at(now.plus({ days: 1 })) : today;
}

const two = (n: number) => String(n).padStart(2, '0');
function words(p: Phrase): string {
  const day =
    typeof p.day === 'object' ? `${p.day.year}-${two(p.day.month)}-${two(p.day.day)}` : (p.day ?? '');
  const weekday = p.weekday !== undefined && !p.day ? (weekdayWords[p.weekday - 1] ?? '') : '';
  return `${day} ${weekday} ${two(p.hour)}:${two(p.minute)}`;
}

/** The days the zone's clocks change on, 2020–2030 (asked of luxon day by day: the cases add ±2 days). */
function nearChanges(zone: string): number[] {
  const found: number[] = [];
  let last = DateTime.fromMillis(Date.UTC(2020, 0, 1), { zone }).offset;
  for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2031, 0, 1); t += 86_400_000) {
    const o = DateTime.fromMillis(t, { zone }).offset;
    if (o !== last) found.push(t);
    last = o;
  }
  return found;
}
const changes = new Map(trickyZones.map((z) => [z, nearChanges(z)]));

describe('the time parser against luxon’s own arithmetic', () => {
  it('places every phrase where luxon places it, around every clock change', () => {
    const case_ = fc.constantFrom(...trickyZones).chain((z) =>
      fc.tuple(
        fc.constant(z),
        phrase,
        fc.oneof(
          instant,
          fc
            .tuple(
              fc.constantFrom(
                ...(changes.get(z)?.length ? (changes.get(z) as number[]) : [Date.UTC(2026, 0, 1)]),
              ),
              fc.integer({ min: -2 * 1_440, max: 2 * 1_440 }),
            )
            .map(([t, m]) => new Date(Math.floor(t / 60_000) * 60_000 + m * 60_000)),
        ),
      ),
    );
    fc.assert(
      fc.property(case_, ([z, p, now]) => {
        const r = parseWhen(words(p), { zone: z, now });
        if (!r.ok) throw new Error(`${words(p)}: ${r.error}`);
        const expected = luxonOracle(p, z, now);
        expect(r.value.toISO()).toBe(expected.toISO());
        expect(r.value.zoneName).toBe(expected.zoneName);
      }),
      { numRuns: 5_000 },
    );
  });
});
