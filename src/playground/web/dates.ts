/**
 * Slack's date tokens (`<!date^epoch^{date_short_pretty} at {time}|fallback>`) formatted as Slack's
 * client shows them, in an explicit zone: the page passes the browser's, tests pass their own.
 * https://api.slack.com/reference/surfaces/formatting#date-formatting
 */

interface Parts {
  year: number;
  month: number;
  day: number;
  weekday: string;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock parts of an instant in a zone. */
function partsIn(ms: number, zone: string): Parts {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    weekday: 'long',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const get = (type: string) => fmt.formatToParts(ms).find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekday: get('weekday'),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
  };
}

const months = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function clock(p: Parts, seconds: boolean): string {
  const h12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${h12}:${pad(p.minute)}${seconds ? `:${pad(p.second)}` : ''} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** Calendar days from `b` to `a` (both wall-clock dates in the same zone). */
function dayDiff(a: Parts, b: Parts): number {
  return Math.round(
    (Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day)) / 86_400_000,
  );
}

function ago(seconds: number): string {
  const abs = Math.abs(seconds);
  const units: [number, string][] = [
    [86_400 * 365, 'year'],
    [86_400 * 30, 'month'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  const [size, unit] = units.find(([s]) => abs >= s) ?? [1, 'second'];
  const n = Math.floor(abs / size);
  const words = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return seconds >= 0 ? `${words} ago` : `in ${words}`;
}

/**
 * The tokens in French, as Slack's client shows them to a person whose Slack is in French (24-hour
 * clock, `27 novembre 2026`, « aujourd’hui »); `Intl` knows the words.
 */
function frenchTokens(epoch: number, zone: string, diff: number, now: Date): Record<string, string> {
  const ms = epoch * 1000;
  const f = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('fr-FR', { timeZone: zone, ...o }).format(ms);
  const date = f({ day: 'numeric', month: 'long', year: 'numeric' });
  const short = f({ day: 'numeric', month: 'short', year: 'numeric' });
  const long = f({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const pretty = (otherwise: string) =>
    diff === 0 ? 'aujourd’hui' : diff === -1 ? 'hier' : diff === 1 ? 'demain' : otherwise;
  const rel = new Intl.RelativeTimeFormat('fr', { numeric: 'always' });
  const minutes = Math.round((ms - now.getTime()) / 60_000);
  return {
    date,
    date_short: short,
    date_long: long,
    date_pretty: pretty(date),
    date_short_pretty: pretty(short),
    date_long_pretty: pretty(long),
    time: f({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    time_secs: f({ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }),
    ago:
      Math.abs(minutes) < 60 ? rel.format(minutes, 'minute') : rel.format(Math.round(minutes / 60), 'hour'),
  };
}

/**
 * A date token's format with each `{token}` replaced, as seen in `zone` at `now` by a person whose
 * Slack speaks `locale` (`fr-FR`: French words and a 24-hour clock; anything else English); unknown
 * tokens are left as written.
 */
export function formatSlackDate(
  epoch: number,
  format: string,
  zone: string,
  now: Date,
  locale = 'en-US',
): string {
  const p = partsIn(epoch * 1000, zone);
  const diff = dayDiff(p, partsIn(now.getTime(), zone));
  const month = months[p.month - 1] ?? '';
  const date = `${month} ${ordinal(p.day)}, ${p.year}`;
  const short = `${month.slice(0, 3)} ${p.day}, ${p.year}`;
  const long = `${p.weekday}, ${date}`;
  const pretty = (otherwise: string) =>
    diff === 0 ? 'Today' : diff === -1 ? 'Yesterday' : diff === 1 ? 'Tomorrow' : otherwise;
  const tokens: Record<string, string> = {
    date_num: `${p.year}-${pad(p.month)}-${pad(p.day)}`,
    date,
    date_short: short,
    date_long: long,
    date_pretty: pretty(date),
    date_short_pretty: pretty(short),
    date_long_pretty: pretty(long),
    time: clock(p, false),
    time_secs: clock(p, true),
    ago: ago(Math.round(now.getTime() / 1000 - epoch)),
    ...(locale.startsWith('fr') ? frenchTokens(epoch, zone, diff, now) : {}),
  };
  return format.replace(/\{(\w+)\}/g, (whole, name: string) => tokens[name] ?? whole);
}

/** The zone offset (ms, east positive) of `zone` at instant `ms`. */
function offsetAt(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The epoch seconds of a wall-clock `YYYY-MM-DDTHH:MM` (an `<input type="datetime-local">` value)
 * in `zone`, as Slack's datetimepicker sends it; undefined for an empty or unreadable value.
 */
export function wallClockToEpoch(local: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!m) return undefined;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  // Twice: the offset at the first guess may differ from the one at the answer around a DST switch.
  let ms = asUtc - offsetAt(asUtc, zone);
  ms = asUtc - offsetAt(ms, zone);
  return ms / 1000;
}

/** The `YYYY-MM-DDTHH:MM` wall clock of epoch seconds in `zone` (for a datetime-local input). */
export function epochToWallClock(epoch: number, zone: string): string {
  const p = partsIn(epoch * 1000, zone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}
