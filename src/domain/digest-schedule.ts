import { DateTime } from 'luxon';

/** A channel's daily digest: at `time` (HH:mm) in `zone` on the chosen weekdays (1 = Monday … 7 = Sunday). */
export interface DigestSchedule {
  id: string;
  channel: string;
  zone: string;
  time: string;
  weekdays: number[];
}

const minute = 60_000;

/** The local wall time y-m-d h:min in `zone` as instants: none (skipped by DST), one, or two (repeated). */
function instantsOf(zone: string, y: number, m: number, d: number, h: number, min: number): number[] {
  const wall = Date.UTC(y, m - 1, d, h, min);
  // The zone's offsets around that day: the wall time can only map with one of them.
  const around = [-1, 1].map((days) => DateTime.fromMillis(wall + days * 86_400_000, { zone }).offset);
  const found = new Set<number>();
  for (const offset of around) {
    const at = wall - offset * minute;
    const local = DateTime.fromMillis(at, { zone });
    if (local.hour === h && local.minute === min && local.day === d) found.add(at);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * When the schedule runs on a local date (`yyyy-MM-dd` in its zone), or undefined when that weekday
 * is not chosen. A time the clocks skip that day runs at the next minute that exists (02:30 on a
 * spring-forward night in Paris runs at 03:00); a time that happens twice runs at the first.
 */
export function runAt(s: DigestSchedule, localDate: string): Date | undefined {
  const day = DateTime.fromISO(localDate, { zone: s.zone });
  if (!day.isValid || !s.weekdays.includes(day.weekday)) return undefined;
  const [h, min] = s.time.split(':').map(Number) as [number, number];
  for (let step = 0; step <= 24 * 60; step++) {
    const total = h * 60 + min + step;
    const at = instantsOf(s.zone, day.year, day.month, day.day, Math.floor(total / 60), total % 60)[0];
    if (at !== undefined) return new Date(at);
  }
  return undefined;
}

/** The local date (`yyyy-MM-dd`) of an instant in a zone: the period a digest run is recorded under. */
export const periodOf = (zone: string, at: Date): string =>
  DateTime.fromJSDate(at, { zone }).toISODate() as string;

/**
 * What to send now: today's digest (in the schedule's zone) once its time has come — on time, or late
 * after downtime, saying so — and nothing for earlier days, so a bot that was down for a week sends
 * one digest, not seven. `sent` tells whether a period already has its run (records are keyed by
 * schedule and period, so a restart or a second replica cannot send it twice).
 */
export function dueRun(
  s: DigestSchedule,
  now: Date,
  lateAfterMs = 15 * minute,
): { period: string; at: Date; late: boolean } | undefined {
  const period = periodOf(s.zone, now);
  const at = runAt(s, period);
  if (!at || at.getTime() > now.getTime()) return undefined;
  return { period, at, late: now.getTime() - at.getTime() > lateAfterMs };
}

/** The next time the schedule runs after `after` (for "next digest: …" and for sleeping until then). */
export function nextRunAfter(s: DigestSchedule, after: Date): Date | undefined {
  const start = DateTime.fromJSDate(after, { zone: s.zone }).startOf('day');
  for (let d = 0; d <= 7; d++) {
    const at = runAt(s, start.plus({ days: d }).toISODate() as string);
    if (at && at.getTime() > after.getTime()) return at;
  }
  return undefined;
}

/** Reads `HH:mm`, `9`, `9am`, `9:30 pm`, `21h30`: the digest's local time, or undefined. */
export function parseDigestTime(text: string): string | undefined {
  const m = /^(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  const half = m[3]?.toLowerCase();
  if (half) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half === 'pm' ? 12 : 0);
  }
  if (h > 23 || min > 59) return undefined;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}

const dayNames = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const dayOf = (w: string) => dayNames.indexOf(w.slice(0, 3).toLowerCase()) + 1;

/** Reads `daily`, `weekdays`, `weekends`, `mon-fri`, `mon,wed,fri`: weekdays 1 = Monday … 7 = Sunday. */
export function parseWeekdays(text: string): number[] | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'daily' || t === 'every day' || t === 'everyday') return [1, 2, 3, 4, 5, 6, 7];
  if (t === 'weekdays') return [1, 2, 3, 4, 5];
  if (t === 'weekends') return [6, 7];
  const days = new Set<number>();
  for (const part of t.split(',')) {
    const [from = '', to] = part.trim().split('-');
    const a = dayOf(from);
    const b = to === undefined ? a : dayOf(to);
    if (a < 1 || b < 1) return undefined;
    for (let d = a; ; d = (d % 7) + 1) {
      days.add(d);
      if (d === b) break;
    }
  }
  return [...days].sort();
}

/** `Mon–Fri`, `every day`, `Mon, Wed, Fri`. */
export function describeWeekdays(days: number[]): string {
  const key = days.join(',');
  if (key === '1,2,3,4,5,6,7') return 'every day';
  if (key === '1,2,3,4,5') return 'Mon–Fri';
  if (key === '6,7') return 'weekends';
  return days.map((d) => `${dayNames[d - 1]?.[0]?.toUpperCase()}${dayNames[d - 1]?.slice(1)}`).join(', ');
}

/** The day a digest reports: the one before the schedule's local date (a complete day). */
export const reportedDay = (period: string) =>
  DateTime.fromISO(period).minus({ days: 1 }).toISODate() as string;
