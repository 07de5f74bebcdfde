import { DateTime } from 'luxon';
import { type DayStatistics, type DigestData, type Metric, metrics } from '../domain/digest.js';
import { stateIcon } from '../domain/ticket-workflow.js';
import { formatMinutes, humanSize } from './format.js';
import { type Block, context, type MessagePayload, message, mrkdwn, plain, section } from './kit.js';
import { limits } from './limits.js';
import { clipPlain, date, escaped, joinMd, type Mrkdwn, md } from './mrkdwn.js';

/** What people call each metric (the digest's and App Home's). */
export const metricLabels: Record<Metric, string> = {
  session_count: 'Sessions',
  session_duration: 'Session time',
  session_billing_duration: 'Billable time',
  user_count: 'Active users',
  disk_usage: 'Disk used',
  sms_count: 'SMS sent',
};
/** Which quota of the enterprise a metric counts against, where it carries one. */
const quotaOf: Partial<Record<Metric, string>> = {
  session_count: 'sessions',
  user_count: 'users',
  disk_usage: 'disk_mb',
  sms_count: 'sms',
};

const count = (n: number) => n.toLocaleString('en-US');
const duration = (seconds: number) =>
  seconds < 60 ? `${Math.round(seconds)} s` : formatMinutes(Math.round(seconds / 60));

/** A metric's value for people: counts, `3 h 12 min`, `1.4 GB` (disk usage is given in MB). */
export function formatMetric(metric: Metric, value: number): string {
  if (metric === 'session_duration' || metric === 'session_billing_duration') return duration(value);
  if (metric === 'disk_usage') return humanSize(value * 1e6);
  return count(value);
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

function metricField(metric: Metric, data: DigestData): Mrkdwn {
  const today = data.days.at(-1)?.stats;
  const value = metricValue(today, metric);
  const title = md`*${metricLabels[metric]}*`;
  if (value === undefined) return md`${title}\n_not available: the platform did not give it_`;
  const before = metricValue(data.days.at(-2)?.stats, metric);
  const change =
    before === undefined
      ? 'no figure the day before'
      : value === before
        ? '= as the day before'
        : `${value > before ? '▲' : '▼'} ${formatMetric(metric, Math.abs(value - before))} vs the day before`;
  const quotas = (today as { quotas?: Record<string, unknown> } | undefined)?.quotas;
  const quota = quotaOf[metric] ? quotas?.[quotaOf[metric] as string] : undefined;
  const ofQuota =
    typeof quota === 'number' && quota > 0
      ? ` of ${formatMetric(metric, quota)} (${Math.round((value / quota) * 100)} %)`
      : '';
  const trend = sparkline(data.days.slice(-7).map((d) => metricValue(d.stats, metric)));
  return md`${title}\n${formatMetric(metric, value)}${ofQuota}\n${change}\n\`${trend}\` 7 days`;
}

/** `[{username|name|…, count}]` of the report, most first; the report's field names are unpublished. */
function tally(list: unknown, names: string[]): { name: string; n: number }[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((row) => {
      const r = row as Record<string, unknown>;
      const name = names.map((k) => r[k]).find((v) => v !== undefined && v !== null);
      return { name: name === undefined ? 'none' : String(name), n: Number(r.count ?? 0) };
    })
    .sort((a, b) => b.n - a.n);
}

/** "alice 4 · bob 2 · and 12 more", within a section's text. */
function ranked(title: string, rows: { name: string; n: number }[]): Block | undefined {
  if (!rows.length) return undefined;
  const parts: Mrkdwn[] = [];
  let length = title.length + 40;
  for (const [i, r] of rows.entries()) {
    const part = md`${r.name} ${count(r.n)}`;
    if (length + part.text.length + 3 > limits.sectionText - 40) {
      parts.push(md`and ${rows.length - i} more`);
      break;
    }
    parts.push(part);
    length += part.text.length + 3;
  }
  return section(md`*${title}*\n${joinMd(parts, ' · ')}`);
}

function ticketBlocks(data: DigestData): Block[] {
  const r = data.report as Record<string, unknown> | undefined;
  if (!r) return [section(md`*Tickets*\n_not available: the platform did not give the tickets report_`)];
  const total = typeof r.total === 'number' ? r.total : undefined;
  const states =
    r.by_state && typeof r.by_state === 'object'
      ? Object.entries(r.by_state as Record<string, unknown>)
          .filter(([, n]) => Number(n) > 0)
          .sort(([, a], [, b]) => Number(b) - Number(a))
          .map(([state, n]) => md`${stateIcon(state)} ${state} ${count(Number(n))}`)
      : [];
  const blocks: Block[] = [
    section(
      md`*Tickets created*: ${total === undefined ? md`_not in the report_` : count(total)}${
        states.length ? md`\n${joinMd(states, ' · ')}` : ''
      }`,
    ),
  ];
  const agents = ranked('By agent', tally(r.by_agent, ['username', 'agent_id']));
  const groups = ranked('By group', tally(r.by_group, ['name', 'group_id']));
  for (const b of [agents, groups]) if (b) blocks.push(b);
  return blocks;
}

/**
 * The daily digest message: the six metrics with their change against the day before, a 7-day
 * sparkline and the quota where the enterprise carries one; the day's tickets by state, agent and
 * group; what is missing said as missing, never shown as zero; late digests say so. With `chart` (a
 * PNG the bot uploaded, see outbound/digest-chart.ts), the chart is shown in the message as an image
 * block, its figures in its alt text; the text figures stay (screen readers, notifications).
 */
export function buildDigest(
  data: DigestData,
  o: { late?: boolean; next?: Date; preview?: boolean; chart?: { fileId: string; alt: string } } = {},
): MessagePayload {
  const day = DateTime.fromISO(data.date).toFormat('cccc d LLLL yyyy');
  const notes = [
    ...(o.preview ? ['A preview, only you can see it.'] : []),
    ...(o.late ? ['Late: confdesk was not running at the scheduled time.'] : []),
    ...(data.missing.length ? [`Missing: ${data.missing.join(', ')}; I will try again later today.`] : []),
  ];
  const blocks: Block[] = [
    { type: 'header', text: plain(`📊 Daily digest · ${day}`, limits.headerText) },
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
    { type: 'section', fields: metrics.map((m) => mrkdwn(metricField(m, data), limits.fieldText)) },
    { type: 'divider' },
    ...ticketBlocks(data),
    ...(o.next ? [context(md`Next digest ${date(o.next, '{date_short_pretty} at {time}')}`)] : []),
  ];
  return message(md`Daily digest for ${day}`, blocks);
}
