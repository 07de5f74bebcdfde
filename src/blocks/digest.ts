import { DateTime } from 'luxon';
import { type DayStatistics, type DigestData, type Metric, metrics } from '../domain/digest.js';
import { stateIcon } from '../domain/ticket-workflow.js';
import { formatMinutes as formatMinutesIn, formatNumber } from '../i18n/format.js';
import type { Locale } from '../i18n/locale.js';
import { formatMinutes, humanSize } from './format.js';
import { type Block, context, type MessagePayload, message, mrkdwn, plain, section } from './kit.js';
import { limits } from './limits.js';
import { clipPlain, escaped, joinMd, type Mrkdwn, md } from './mrkdwn.js';
import { dateAt, t, tPlain } from './text.js';
import { stateLabel } from './ticket-labels.js';

/** What people call each metric (the digest's and App Home's), in English. */
export const metricLabels: Record<Metric, string> = {
  session_count: 'Sessions',
  session_duration: 'Session time',
  session_billing_duration: 'Billable time',
  user_count: 'Active users',
  disk_usage: 'Disk used',
  sms_count: 'SMS sent',
};

/** What people call a metric, in `locale`. */
export const metricLabel = (locale: Locale, metric: Metric): string =>
  tPlain(locale, `digest.metric.${metric}`);

/** Which quota of the enterprise a metric counts against, where it carries one. */
const quotaOf: Partial<Record<Metric, string>> = {
  session_count: 'sessions',
  user_count: 'users',
  disk_usage: 'disk_mb',
  sms_count: 'sms',
};

const count = (locale: Locale, n: number) => formatNumber(locale, n);
const duration = (locale: Locale, seconds: number) =>
  locale === 'en'
    ? seconds < 60
      ? `${Math.round(seconds)} s`
      : formatMinutes(Math.round(seconds / 60))
    : seconds < 60
      ? `${formatNumber(locale, Math.round(seconds))}\u00a0s`
      : formatMinutesIn(locale, Math.round(seconds / 60));

/** A size in `locale` (disk usage is given in MB): `1.4 GB`, `1,4 Go`. */
const sizeIn = (locale: Locale, bytes: number) => {
  if (locale === 'en') return humanSize(bytes);
  const [n, unit] = bytes >= 1e9 ? [bytes / 1e9, 'Go'] : bytes >= 1e6 ? [bytes / 1e6, 'Mo'] : [0, 'ko'];
  return unit === 'ko'
    ? `${formatNumber(locale, Math.ceil(bytes / 1e3))}\u00a0ko`
    : `${formatNumber(locale, n, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}\u00a0${unit}`;
};

/** A metric's value for people: counts, `3 h 12 min`, `1.4 GB` (disk usage is given in MB), in `locale` (English by default). */
export function formatMetric(metric: Metric, value: number, locale: Locale = 'en'): string {
  if (metric === 'session_duration' || metric === 'session_billing_duration') return duration(locale, value);
  if (metric === 'disk_usage') return sizeIn(locale, value * 1e6);
  return count(locale, value);
}

const metricValue = (stats: DayStatistics | undefined, metric: Metric) => {
  const v = stats?.[metric];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** Eight levels of a sparkline; a day without a figure is a dot. */
export function sparkline(values: (number | undefined)[]): string {
  const known = values.filter((v): v is number => v !== undefined);
  const low = Math.min(...known);
  const high = Math.max(...known);
  const bars = '▁▂▃▄▅▆▇█';
  return values
    .map((v) => (v === undefined ? '·' : bars[high === low ? 3 : Math.round(((v - low) / (high - low)) * 7)]))
    .join('');
}

function metricField(locale: Locale, metric: Metric, data: DigestData): Mrkdwn {
  const today = data.days.at(-1)?.stats;
  const value = metricValue(today, metric);
  const label = metricLabel(locale, metric);
  if (value === undefined) return t(locale, 'digest.metric.unavailable', { label });
  const before = metricValue(data.days.at(-2)?.stats, metric);
  const change =
    before === undefined
      ? t(locale, 'digest.change.none')
      : value === before
        ? t(locale, 'digest.change.same')
        : t(locale, 'digest.change.diff', {
            arrow: value > before ? '▲' : '▼',
            amount: formatMetric(metric, Math.abs(value - before), locale),
          });
  const quotas = (today as { quotas?: Record<string, unknown> } | undefined)?.quotas;
  const quota = quotaOf[metric] ? quotas?.[quotaOf[metric] as string] : undefined;
  const shown =
    typeof quota === 'number' && quota > 0
      ? t(locale, 'digest.metric.ofQuota', {
          value: formatMetric(metric, value, locale),
          quota: formatMetric(metric, quota, locale),
          percent: Math.round((value / quota) * 100),
        })
      : formatMetric(metric, value, locale);
  const trend = sparkline(data.days.slice(-7).map((d) => metricValue(d.stats, metric)));
  return t(locale, 'digest.metric.field', { label, value: shown, change, trend });
}

/** `[{username|name|…, count}]` of the report, most first; the report's field names are unpublished. */
function tally(locale: Locale, list: unknown, names: string[]): { name: string; n: number }[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((row) => {
      const r = row as Record<string, unknown>;
      const name = names.map((k) => r[k]).find((v) => v !== undefined && v !== null);
      return {
        name: name === undefined ? tPlain(locale, 'digest.tickets.nameless') : String(name),
        n: Number(r.count ?? 0),
      };
    })
    .sort((a, b) => b.n - a.n);
}

/** "alice 4 · bob 2 · and 12 more", within a section's text. */
function ranked(locale: Locale, title: string, rows: { name: string; n: number }[]): Block | undefined {
  if (!rows.length) return undefined;
  const parts: Mrkdwn[] = [];
  let length = title.length + 40;
  for (const [i, r] of rows.entries()) {
    const part = md`${r.name} ${count(locale, r.n)}`;
    if (length + part.text.length + 3 > limits.sectionText - 40) {
      parts.push(t(locale, 'digest.tickets.more', { count: rows.length - i }));
      break;
    }
    parts.push(part);
    length += part.text.length + 3;
  }
  return section(md`*${title}*\n${joinMd(parts, ' · ')}`);
}

function ticketBlocks(locale: Locale, data: DigestData): Block[] {
  const r = data.report as Record<string, unknown> | undefined;
  if (!r) return [section(t(locale, 'digest.tickets.unavailable'))];
  const total = typeof r.total === 'number' ? r.total : undefined;
  const states =
    r.by_state && typeof r.by_state === 'object'
      ? Object.entries(r.by_state as Record<string, unknown>)
          .filter(([, n]) => Number(n) > 0)
          .sort(([, a], [, b]) => Number(b) - Number(a))
          .map(
            ([state, n]) => md`${stateIcon(state)} ${stateLabel(locale, state)} ${count(locale, Number(n))}`,
          )
      : [];
  const created =
    total === undefined
      ? t(locale, 'digest.tickets.createdUnknown')
      : t(locale, 'digest.tickets.created', { total: count(locale, total) });
  const blocks: Block[] = [section(md`${created}${states.length ? md`\n${joinMd(states, ' · ')}` : ''}`)];
  const agents = ranked(
    locale,
    tPlain(locale, 'digest.tickets.byAgent'),
    tally(locale, r.by_agent, ['username', 'agent_id']),
  );
  const groups = ranked(
    locale,
    tPlain(locale, 'digest.tickets.byGroup'),
    tally(locale, r.by_group, ['name', 'group_id']),
  );
  for (const b of [agents, groups]) if (b) blocks.push(b);
  return blocks;
}

/**
 * The daily digest message, in the channel's language (`o.locale`): the six metrics with their change
 * against the day before, a 7-day sparkline and the quota where the enterprise carries one; the day's
 * tickets by state, agent and group; what is missing said as missing, never shown as zero; late
 * digests say so. With `chart` (a PNG the bot uploaded, see outbound/digest-chart.ts), the chart is
 * shown in the message as an image block, its figures in its alt text; the text figures stay (screen
 * readers, notifications).
 */
export function buildDigest(
  data: DigestData,
  o: {
    locale: Locale;
    late?: boolean;
    next?: Date;
    preview?: boolean;
    chart?: { fileId: string; alt: string };
  },
): MessagePayload {
  const { locale } = o;
  const day = DateTime.fromISO(data.date).setLocale(locale).toFormat('cccc d LLLL yyyy');
  const notes = [
    ...(o.preview ? [tPlain(locale, 'digest.note.preview')] : []),
    ...(o.late ? [tPlain(locale, 'digest.note.late')] : []),
    ...(data.missing.length
      ? [tPlain(locale, 'digest.note.missing', { missing: data.missing.join(', ') })]
      : []),
  ];
  const blocks: Block[] = [
    { type: 'header', text: plain(tPlain(locale, 'digest.header', { day }), limits.headerText) },
    ...(notes.length ? [context(escaped(notes.join(' ')))] : []),
    ...(o.chart
      ? [
          {
            type: 'image' as const,
            slack_file: { id: o.chart.fileId },
            alt_text: clipPlain(o.chart.alt, limits.imageAltText),
          },
        ]
      : []),
    {
      type: 'section',
      fields: metrics.map((m) => mrkdwn(metricField(locale, m, data), limits.fieldText)),
    },
    { type: 'divider' },
    ...ticketBlocks(locale, data),
    ...(o.next ? [context(t(locale, 'digest.next', { date: dateAt(locale, o.next) }))] : []),
  ];
  return message(t(locale, 'digest.fallback', { day }), blocks);
}
