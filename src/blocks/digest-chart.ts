import { DateTime } from 'luxon';
import type { DigestData } from '../domain/digest.js';
import { formatNumber } from '../i18n/format.js';
import type { Locale } from '../i18n/locale.js';
import { tPlain } from './text.js';

/*
 * The digest's chart as an SVG (rendered to PNG by outbound/digest-chart.ts): the last 7 days'
 * sessions and session minutes as bars, one panel each, and the week before as a faint dashed line.
 * Drawn on an opaque light card, so it reads the same in Slack's light and dark themes.
 */

/**
 * Every text the chart shows or says (its alt text too), in the channel's language: the one place to
 * translate them (the catalog's `digest.chart.*`).
 */
export const chartTexts = (locale: Locale) => ({
  title: tPlain(locale, 'digest.chart.title'),
  sessions: tPlain(locale, 'digest.chart.sessions'),
  minutes: tPlain(locale, 'digest.chart.minutes'),
  weekBefore: tPlain(locale, 'digest.chart.weekBefore'),
  noFigure: tPlain(locale, 'digest.chart.noFigure'),
  noData: tPlain(locale, 'digest.chart.noData'),
  /** The image's alt text: the figures the bars show, for screen readers. */
  alt: (days: { label: string; sessions?: number | undefined; minutes?: number | undefined }[]) =>
    tPlain(locale, 'digest.chart.alt', {
      days: days
        .map((d) =>
          d.sessions === undefined
            ? tPlain(locale, 'digest.chart.altDayNone', { day: d.label })
            : tPlain(locale, 'digest.chart.altDay', {
                day: d.label,
                sessions: d.sessions,
                minutes: d.minutes ?? 0,
              }),
        )
        .join(tPlain(locale, 'digest.chart.altJoin')),
    }),
  /** The uploaded PNG's title (Slack shows it when the image is opened). */
  fileTitle: (day: string) => tPlain(locale, 'digest.chart.fileTitle', { day }),
  /** A day under its bar (luxon's format, written in the locale: `Thu 26`, `jeu. 26`). */
  dayFormat: 'ccc d',
  locale,
});

/** The chart's geometry, in pixels (the PNG is this size): tests sample pixels from it. */
export const chartGeometry = {
  width: 960,
  height: 520,
  plotLeft: 70,
  plotRight: 930,
  /** Each panel's plot: top and bottom (the bars' baseline) of its bars. */
  panels: [
    { top: 92, bottom: 272 },
    { top: 332, bottom: 480 },
  ],
  barWidth: 64,
  /** A bar above this times the week's second-highest day is clipped at the top, its figure said. */
  clipRatio: 3,
} as const;

/** Colours: on a white card, dark enough for text, distinct for the two series. */
export const chartColours = {
  card: '#ffffff',
  text: '#1d1c1d',
  muted: '#616061',
  grid: '#e8e8e8',
  sessions: '#1264a3',
  minutes: '#2eb67d',
  before: '#1d1c1d',
} as const;

type Value = number | undefined;
export interface ChartSeries {
  /** The 7 days' labels, oldest first. */
  labels: string[];
  sessions: Value[];
  minutes: Value[];
  /** The same weekday a week earlier. */
  sessionsBefore: Value[];
  minutesBefore: Value[];
}

const finite = (v: unknown): Value => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/** The chart's figures from the digest's: its last 7 days, and the 7 before them where it has them. */
export function chartSeries(data: DigestData, locale: Locale): ChartSeries {
  const byDate = new Map(data.days.map((d) => [d.date, d.stats]));
  const end = DateTime.fromISO(data.date, { zone: 'utc' });
  const dates = (from: number) =>
    Array.from({ length: 7 }, (_, i) => end.minus({ days: from - i }).toISODate() as string);
  const week = dates(6);
  const before = dates(13);
  const sessions = (d: string) => finite(byDate.get(d)?.session_count);
  const minutes = (d: string) => {
    const s = finite(byDate.get(d)?.session_duration);
    return s === undefined ? undefined : Math.round(s / 60);
  };
  return {
    // Days are the digest's local days (its time zone's), named as such: no conversion here.
    labels: week.map((d) => DateTime.fromISO(d).setLocale(locale).toFormat(chartTexts(locale).dayFormat)),
    sessions: week.map(sessions),
    minutes: week.map(minutes),
    sessionsBefore: before.map(sessions),
    minutesBefore: before.map(minutes),
  };
}

export const chartAlt = (s: ChartSeries, locale: Locale): string =>
  chartTexts(locale).alt(
    s.labels.map((label, i) => ({ label, sessions: s.sessions[i], minutes: s.minutes[i] })),
  );

const xml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
const fmt = (locale: Locale, n: number) => formatNumber(locale, Math.round(n));
const px = (n: number) => Number(n.toFixed(1));

/** The top of the scale: the highest figure, or 3× the second highest when one day towers over the rest. */
export function scaleTop(values: Value[]): number {
  const known = values.filter((v): v is number => v !== undefined).sort((a, b) => b - a);
  const [first = 0, second = 0] = known;
  const top = second > 0 ? Math.min(first, second * chartGeometry.clipRatio) : first;
  return top > 0 ? top : 1;
}

/** A bar's centre (x) of day `i` of 7. */
export const barCentre = (i: number) => {
  const g = chartGeometry;
  return g.plotLeft + ((g.plotRight - g.plotLeft) / 7) * (i + 0.5);
};

function panel(
  locale: Locale,
  p: { top: number; bottom: number },
  title: string,
  colour: string,
  values: Value[],
  before: Value[],
  labels: string[] | undefined,
): string {
  const g = chartGeometry;
  const top = scaleTop([...values, ...before]);
  const h = p.bottom - p.top;
  const y = (v: number) => p.bottom - (Math.min(v, top) / top) * h;
  const out: string[] = [
    `<text x="${g.plotLeft}" y="${p.top - 14}" font-size="16" font-weight="bold" fill="${chartColours.text}">${xml(title)}</text>`,
    `<text x="${g.plotLeft - 8}" y="${p.top + 5}" font-size="12" text-anchor="end" fill="${chartColours.muted}">${fmt(locale, top)}</text>`,
    `<text x="${g.plotLeft - 8}" y="${p.bottom + 4}" font-size="12" text-anchor="end" fill="${chartColours.muted}">0</text>`,
    `<line x1="${g.plotLeft}" y1="${p.top}" x2="${g.plotRight}" y2="${p.top}" stroke="${chartColours.grid}" stroke-width="1"/>`,
    `<line x1="${g.plotLeft}" y1="${px((p.top + p.bottom) / 2)}" x2="${g.plotRight}" y2="${px((p.top + p.bottom) / 2)}" stroke="${chartColours.grid}" stroke-width="1"/>`,
  ];
  values.forEach((v, i) => {
    const x = barCentre(i);
    if (v === undefined) {
      out.push(
        `<text x="${px(x)}" y="${p.bottom - 6}" font-size="12" text-anchor="middle" fill="${chartColours.muted}">${xml(chartTexts(locale).noFigure)}</text>`,
      );
      return;
    }
    const yTop = y(v);
    out.push(
      `<rect x="${px(x - g.barWidth / 2)}" y="${px(yTop)}" width="${g.barWidth}" height="${px(p.bottom - yTop)}" fill="${colour}"/>`,
    );
    if (v > top)
      // Clipped: a white break across the bar's top says it goes on.
      out.push(
        `<path d="M${px(x - g.barWidth / 2)} ${p.top + 10} l${g.barWidth} -6 v5 l-${g.barWidth} 6 z" fill="${chartColours.card}"/>`,
      );
    out.push(
      `<text x="${px(x)}" y="${px(Math.max(yTop - 5, p.top - 2))}" font-size="12" text-anchor="middle" fill="${chartColours.text}">${fmt(locale, v)}</text>`,
    );
  });
  const points = before
    .map((v, i) => (v === undefined ? undefined : `${px(barCentre(i))},${px(y(v))}`))
    .filter((pt): pt is string => pt !== undefined);
  if (points.length > 1)
    out.push(
      `<polyline points="${points.join(' ')}" fill="none" stroke="${chartColours.before}" stroke-opacity="0.35" stroke-width="2.5" stroke-dasharray="7 5"/>`,
    );
  out.push(
    `<line x1="${g.plotLeft}" y1="${p.bottom}" x2="${g.plotRight}" y2="${p.bottom}" stroke="${chartColours.muted}" stroke-width="1"/>`,
  );
  if (labels)
    labels.forEach((label, i) => {
      out.push(
        `<text x="${px(barCentre(i))}" y="${p.bottom + 18}" font-size="13" text-anchor="middle" fill="${chartColours.text}">${xml(label)}</text>`,
      );
    });
  return out.join('');
}

/** The chart as SVG text (font family: DejaVu Sans, shipped from npm with the renderer). */
export function chartSvg(s: ChartSeries, locale: Locale): string {
  const g = chartGeometry;
  const texts = chartTexts(locale);
  const [sessionsPanel, minutesPanel] = g.panels;
  const empty = [...s.sessions, ...s.minutes].every((v) => v === undefined);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${g.width}" height="${g.height}" viewBox="0 0 ${g.width} ${g.height}" font-family="DejaVu Sans">`,
    `<rect width="${g.width}" height="${g.height}" rx="12" fill="${chartColours.card}"/>`,
    `<text x="${g.plotLeft}" y="40" font-size="20" font-weight="bold" fill="${chartColours.text}">${xml(texts.title)}</text>`,
    `<text x="${g.plotRight}" y="40" font-size="13" text-anchor="end" fill="${chartColours.muted}">${xml(texts.weekBefore)}</text>`,
    panel(
      locale,
      sessionsPanel,
      texts.sessions,
      chartColours.sessions,
      s.sessions,
      s.sessionsBefore,
      s.labels,
    ),
    panel(locale, minutesPanel, texts.minutes, chartColours.minutes, s.minutes, s.minutesBefore, s.labels),
    empty
      ? `<text x="${g.width / 2}" y="${g.height / 2}" font-size="18" text-anchor="middle" fill="${chartColours.muted}">${xml(texts.noData)}</text>`
      : '',
    '</svg>',
  ].join('');
}
