import type { StatisticsRecord, TicketsReport } from '../platform/schemas.js';

/* What a daily digest is about: the metrics it shows and the figures the digest service collects. */

/** The six statistics metrics of the spec, in the digest's order. */
export const metrics = [
  'session_count',
  'session_duration',
  'session_billing_duration',
  'user_count',
  'disk_usage',
  'sms_count',
] as const;
export type Metric = (typeof metrics)[number];

/** A day's statistics, as the digest reads them (the platform's record: blocks render this name). */
export type DayStatistics = StatisticsRecord;

export interface DigestData {
  /** The day the digest is about (`yyyy-MM-dd`). */
  date: string;
  /** The figures of the 13 days before and of that day, oldest first; a day the platform did not give is undefined. */
  days: { date: string; stats: DayStatistics | undefined }[];
  report: TicketsReport | undefined;
  /** What could not be read, in words, for the digest to say instead of showing zero. */
  missing: string[];
}
