import { DateTime, IANAZone, Info } from 'luxon';

/*
 * Times and durations as people type them, read in their own Slack time zone (users.info `tz`).
 * Pure: the clock and the zone are arguments. Every result is whole minutes, so that what the bot
 * writes (`formatWhenInput`, `formatDuration`) reads back to the same value.
 */

/** Epoch ms of 2100-01-01: up to there a zone's offsets change on whole minutes only. */
const minutesKnownUntil = 4_102_444_800_000;

/**
 * A named zone that remembers its offset for each minute it was asked about. Luxon asks Intl for the
 * offset of every DateTime in a named zone (a formatter's parts each time), which made it the largest
 * cost of reading a time; since 1970 every zone changes its offset on a whole minute, so a minute's
 * offset is the same for all its instants.
 */
class RememberingZone extends IANAZone {
  private readonly offsets = new Map<number, number>();

  override offset(ts: number): number {
    if (!(ts >= 0 && ts < minutesKnownUntil)) return super.offset(ts);
    const minute = Math.floor(ts / 60_000);
    let offset = this.offsets.get(minute);
    if (offset === undefined) {
      offset = super.offset(ts);
      if (this.offsets.size >= 4_096) this.offsets.clear();
      this.offsets.set(minute, offset);
    }
    return offset;
  }
}

/**
 * Zone names seen, as luxon reads them (its check builds an Intl formatter each time): a named zone
 * that remembers its offsets, a name luxon reads as a fixed offset itself (`UTC`), or UTC for a
 * name that is not an IANA zone.
 */
const zones = new Map<string, RememberingZone | string>();
const zoneOrUtc = (name: string): RememberingZone | string => {
  let zone = zones.get(name);
  if (zone === undefined) {
    const read = IANAZone.isValidZone(name) ? Info.normalizeZone(name) : undefined;
    zone = !read ? 'UTC' : read instanceof IANAZone ? new RememberingZone(read.name) : name;
    if (zones.size < 1_000) zones.set(name, zone);
  }
  return zone;
};

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string; fault?: WhenFault };

/** The phrases `parseWhen` understands, for help texts and error messages. */
export const whenExamples = '`now`, `in 2h`, `3pm`, `tomorrow 3pm`, `mon 09:30`, `2026-12-01 14:00`';
export const durationExamples = '`45m`, `1h`, `1h30`, `90min`';

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const unitMinutes: Record<string, number> = { m: 1, min: 1, mins: 1, minute: 1, minutes: 1 };
for (const u of ['h', 'hr', 'hrs', 'hour', 'hours']) unitMinutes[u] = 60;
for (const u of ['d', 'day', 'days']) unitMinutes[u] = 1440;

/** How far in the past a new conference's start may be: a `now` typed a minute ago is still now. */
export const pastGraceMs = 5 * 60_000;

/** The longest duration accepted: a conference of more than a week is a typo. */
export const maxDurationMinutes = 7 * 24 * 60;

/** `45m`, `45 min`, `1h`, `1h30`, `1h30m`, `2 hours`: whole minutes, at least 1. */
export function parseDuration(text: string): Parsed<number> {
  const s = text.trim().toLowerCase().replace(/\s+/g, '');
  const hm = /^(\d{1,4})h(?:our|ours|r|rs)?(\d{1,2})(?:m|min|mins)?$/.exec(s);
  const single = /^(\d{1,6})([a-z]+)$/.exec(s);
  let minutes: number | undefined;
  if (hm) {
    const m = Number(hm[2]);
    if (m < 60) minutes = Number(hm[1]) * 60 + m;
  } else if (single?.[2]) {
    const unit = unitMinutes[single[2]];
    if (unit !== undefined) minutes = Number(single[1]) * unit;
  }
  if (minutes === undefined)
    return { ok: false, error: `“${text.trim()}” is not a duration; try ${durationExamples}` };
  if (minutes < 1) return { ok: false, error: 'a duration is at least 1 minute' };
  if (minutes > maxDurationMinutes) return { ok: false, error: 'a duration is at most 7 days' };
  return { ok: true, value: minutes };
}

/** Minutes written the way `parseDuration` reads them: `45m`, `1h`, `1h30`. */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m}m`;
  return m === 0 ? `${h}h` : `${h}h${String(m).padStart(2, '0')}`;
}

/** A clock time: `3pm`, `3:30pm`, `15:00`, `9:30`, `noon`, `midnight`. */
function parseClock(s: string): { hour: number; minute: number } | undefined {
  if (s === 'noon') return { hour: 12, minute: 0 };
  if (s === 'midnight') return { hour: 0, minute: 0 };
  const m = /^(\d{1,2})(?::(\d{2}))?(am|pm)?$/.exec(s);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const meridiem = m[3];
  if (!meridiem && m[2] === undefined) return undefined; // a bare number is not a time
  if (minute > 59) return undefined;
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  } else if (hour > 23) return undefined;
  return { hour, minute };
}

function weekdayIndex(s: string): number | undefined {
  if (s.length < 3) return undefined;
  const i = weekdays.findIndex((d) => d.startsWith(s));
  return i < 0 ? undefined : i + 1;
}

/** Whether a word can be part of a time phrase (the command parser uses it to find the phrase; `in 2h` it reads itself). */
export function isWhenWord(word: string): boolean {
  const s = word.toLowerCase();
  return (
    ['now', 'today', 'tomorrow', 'tmrw', 'at', 'am', 'pm', 'noon', 'midnight', 'next'].includes(s) ||
    weekdayIndex(s) !== undefined ||
    /^\d{4}-\d{2}-\d{2}$/.test(s) ||
    parseClock(s) !== undefined
  );
}

export interface WhenContext {
  /** IANA zone of the person typing (Slack `tz`). */
  zone: string;
  now: Date;
}

/**
 * Why a time phrase cannot be read: `text` as typed, and `why` (no such date, no time of day, or
 * anything else): blocks/ writes it in the reader's language.
 */
export interface WhenFault {
  text: string;
  why: 'unreadable' | 'noSuchDate' | 'noClock';
}

const whyText: Record<WhenFault['why'], string> = {
  unreadable: '',
  noSuchDate: ': that date does not exist',
  noClock: ': add a time of day, e.g. 3pm or 09:30',
};

const fail = (
  text: string,
  why: WhenFault['why'] = 'unreadable',
): { ok: false; error: string; fault: WhenFault } => ({
  ok: false,
  error: `I could not read “${text.trim()}” as a time${whyText[why]}. Try ${whenExamples}.`,
  fault: { text: text.trim(), why },
});

/** A time phrase as read, before it is placed on the calendar in a zone (`readWhen`). */
type WhenWords =
  | { kind: 'now' }
  | { kind: 'in'; minutes: number }
  | {
      kind: 'at';
      clock: { hour: number; minute: number };
      day?: 'today' | 'tomorrow' | { year: number; month: number; day: number };
      weekday?: number;
    };

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Reads a time phrase's words without placing them in any zone: what a phrase means and whether it
 * can mean anything (`whenProblem`) costs no calendar arithmetic. Never throws.
 */
function readWhen(text: string): Parsed<WhenWords> {
  const words = text
    .trim()
    .toLowerCase()
    .replace(/(\d)\s+(am|pm)\b/g, '$1$2')
    .split(/\s+/)
    .filter((w) => w && w !== 'at' && w !== 'on' && w !== 'next');
  if (words.length === 0) return fail(text);
  if (words.length === 1 && words[0] === 'now') return { ok: true, value: { kind: 'now' } };
  if (words[0] === 'in') {
    const d = parseDuration(words.slice(1).join(''));
    return d.ok ? { ok: true, value: { kind: 'in', minutes: d.value } } : fail(text);
  }
  let day: Extract<WhenWords, { kind: 'at' }>['day'];
  let weekday: number | undefined;
  let clock: { hour: number; minute: number } | undefined;
  for (const w of words) {
    const c = parseClock(w);
    const wd = weekdayIndex(w);
    const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w);
    if (c && !clock) clock = c;
    else if (!day && weekday === undefined && (w === 'today' || w === 'tomorrow' || w === 'tmrw'))
      day = w === 'today' ? 'today' : 'tomorrow';
    else if (!day && weekday === undefined && iso) {
      const [year, month, date] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
      if (month < 1 || month > 12 || date < 1 || date > daysIn(year, month)) return fail(text, 'noSuchDate');
      day = { year, month, day: date };
    } else if (!day && weekday === undefined && wd !== undefined) weekday = wd;
    else return fail(text);
  }
  if (!clock) return fail(text, 'noClock');
  return { ok: true, value: { kind: 'at', clock, ...(day ? { day } : {}), ...(weekday ? { weekday } : {}) } };
}

/** Why a time phrase cannot be read, or undefined when it can (in any zone). */
export function whenProblem(text: string): string | undefined {
  const r = readWhen(text);
  return r.ok ? undefined : r.error;
}

/** Why a time phrase cannot be read, as a code (`WhenFault`), or undefined when it can (in any zone). */
export function whenFault(text: string): WhenFault | undefined {
  const r = readWhen(text);
  return r.ok ? undefined : (r.fault ?? { text: text.trim(), why: 'unreadable' });
}

/** A wall-clock time in a zone, as luxon's DateTime fields name it (`weekday`: 1 Monday … 7 Sunday). */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** A zone's offset at an instant, in minutes: a remembering zone's, or a fixed one's (`UTC`). */
const offsetIn = (zone: RememberingZone | string, ms: number): number =>
  typeof zone === 'string' ? (Info.normalizeZone(zone)?.offset(ms) ?? 0) : zone.offset(ms);

/** The wall clock of an instant in a zone (whole minutes). */
function wallAt(zone: RememberingZone | string, ms: number): Wall & { weekday: number } {
  const d = new Date(ms + offsetIn(zone, ms) * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    weekday: ((d.getUTCDay() + 6) % 7) + 1,
  };
}

/** A wall time's fields as UTC epoch ms (luxon's `objToLocalTS`: years 0–99 are not 1900–1999). */
function localMs(w: Wall): number {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute));
  if (w.year < 100 && w.year >= 0) d.setUTCFullYear(w.year, w.month - 1, w.day);
  return d.getTime();
}

/**
 * The instant of a wall time in a zone, from a first guess of its offset: luxon's own `fixOffset`
 * (a wall time the clocks skip comes out moved forward by the skip), so that this file places every
 * time exactly where luxon's `DateTime.fromObject` did.
 */
function instantOf(zone: RememberingZone | string, local: number, guess: number): number {
  const first = local - guess * 60_000;
  const o2 = offsetIn(zone, first);
  if (o2 === guess) return first;
  const second = first - (o2 - guess) * 60_000;
  const o3 = offsetIn(zone, second);
  if (o2 === o3) return second;
  return local - Math.min(o2, o3) * 60_000;
}

/** `days` calendar days after an instant, at the same wall time (luxon's `plus({ days })`). */
const plusDays = (zone: RememberingZone | string, ms: number, days: number): number => {
  const w = wallAt(zone, ms);
  return instantOf(zone, localMs({ ...w, day: w.day + days }), offsetIn(zone, ms));
};

/**
 * Reads a start time in the person's zone. Clock times alone mean their next occurrence; a weekday
 * means its next occurrence (today if the time is still ahead). A wall time that does not exist (the
 * hour skipped when clocks go forward) moves forward; one that happens twice is read as the later
 * occurrence. Never throws.
 *
 * The calendar arithmetic is done on epoch milliseconds with the zone's offsets (the zones remember
 * them by the minute), as luxon does it, and one DateTime is made at the end: a luxon DateTime per
 * step cost more than the rest of a /conference command together. The tests hold it to luxon's own
 * arithmetic, zone by zone, across the clocks' changes.
 */
export function parseWhen(text: string, ctx: WhenContext): Parsed<DateTime> {
  const read = readWhen(text);
  if (!read.ok) return read;
  const zone = zoneOrUtc(ctx.zone);
  const now = Math.floor(ctx.now.getTime() / 60_000) * 60_000;
  if (!Number.isFinite(now)) return fail(text);
  const at = (ms: number): Parsed<DateTime> => ({ ok: true, value: DateTime.fromMillis(ms, { zone }) });
  const w = read.value;
  if (w.kind === 'now') return at(now);
  if (w.kind === 'in') return at(now + w.minutes * 60_000);
  const { clock } = w;
  // Luxon's first guess of a wall time's offset is the zone's offset at the moment it is asked.
  const asked = offsetIn(zone, Date.now());
  const on = (d: { year: number; month: number; day: number }): number => {
    const local = localMs({
      year: d.year,
      month: d.month,
      day: d.day,
      hour: clock.hour,
      minute: clock.minute,
    });
    const dt = instantOf(zone, local, asked);
    // A wall time that happens twice is its later occurrence, whatever the shift (an hour, or 30
    // minutes as on Lord Howe Island): the same wall time at the offset in force after the change.
    const offset = offsetIn(zone, dt);
    const after = offsetIn(zone, dt + 3 * 3_600_000);
    if (after >= offset) return dt;
    const later = local - after * 60_000;
    const shown = wallAt(zone, dt);
    const laterShown = wallAt(zone, later);
    return later > dt && laterShown.hour === shown.hour && laterShown.minute === shown.minute ? later : dt;
  };
  const today = wallAt(zone, now);
  if (w.day)
    return at(
      on(w.day === 'today' ? today : w.day === 'tomorrow' ? wallAt(zone, plusDays(zone, now, 1)) : w.day),
    );
  if (w.weekday !== undefined) {
    let candidate = on(wallAt(zone, plusDays(zone, now, (w.weekday - today.weekday + 7) % 7)));
    if (candidate < now) candidate = on(wallAt(zone, plusDays(zone, candidate, 7)));
    return at(candidate);
  }
  const first = on(today);
  return at(first < now ? on(wallAt(zone, plusDays(zone, now, 1))) : first);
}

/** A start time written the way `parseWhen` reads it back: `2026-12-01 14:00`, in the person's zone. */
export function formatWhenInput(value: DateTime | Date, zone: string): string {
  const dt = value instanceof Date ? DateTime.fromJSDate(value) : value;
  return dt.setZone(zoneOrUtc(zone)).toFormat('yyyy-MM-dd HH:mm');
}

/**
 * A Slack date token: every viewer sees the time in their own zone, the fallback (for clients that
 * cannot render it) in UTC. https://api.slack.com/reference/surfaces/formatting#date-formatting
 */
export function slackDate(value: Date, format = '{date_short_pretty} at {time}'): string {
  const seconds = Math.floor(value.getTime() / 1000);
  const fallback = DateTime.fromJSDate(value, { zone: 'UTC' }).toFormat("yyyy-MM-dd HH:mm 'UTC'");
  return `<!date^${seconds}^${format}|${fallback}>`;
}
