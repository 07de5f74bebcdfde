import { DateTime } from 'luxon';
import type { DayStatistics, DigestData } from '../domain/digest.js';
import type { PlatformClient } from '../platform/client.js';
import type { StatisticsRecord, TicketsReport } from '../platform/schemas.js';
import type { StatisticsRepository } from '../store/store.js';

const background = { priority: 'background' as const };

/**
 * Reads what a digest shows: the statistics of the day and of the 13 days before (the text's 7-day
 * trend, the chart's week and the week before it) and the tickets report of the day. Past days are
 * kept in the store once read (they no longer change): a digest after yesterday's reads the day, the
 * day before once more (now finished), the report and the bot's own record (cached briefly), 4
 * requests; only the first digest of an enterprise, or one after days without any, reads the 13
 * past days (16 requests, 6 more than with 7). Every call waits on the budget's background lane.
 */
export class DigestService {
  constructor(
    private readonly platform: PlatformClient,
    private readonly store: StatisticsRepository,
  ) {}

  /**
   * `chart: false` (a person's preview, which has no chart and waits for it): the day and the 7
   * before only, as the text's trend needs, never the chart's week before (up to 6 reads more).
   */
  async collect(date: string, o: { chart?: boolean } = {}): Promise<DigestData> {
    const me = await this.platform.getMe({}, background);
    const enterpriseId = Number(me.enterprise_id);
    const missing: string[] = [];
    const day = DateTime.fromISO(date, { zone: 'utc' });
    const length = o.chart === false ? 8 : 14;
    const dates = Array.from({ length }, (_, i) => day.minus({ days: length - 1 - i }).toISODate() as string);
    const days = [];
    for (const d of dates) days.push({ date: d, stats: await this.statistics(enterpriseId, d, d !== date) });
    if (!days.at(-1)?.stats) missing.push('the statistics of the day');
    let report: TicketsReport | undefined;
    try {
      report = await this.platform.getTicketsReport(
        { enterpriseId, startTime: date, endTime: date },
        background,
      );
    } catch {
      missing.push('the tickets report');
    }
    return { date, days, report, missing };
  }

  /** One finished day's statistics (App Home's overview): kept once read, so a second look is free. */
  async day(date: string): Promise<DayStatistics | undefined> {
    const me = await this.platform.getMe({}, background);
    return this.statistics(Number(me.enterprise_id), date, true);
  }

  private async statistics(enterpriseId: number, date: string, past: boolean) {
    if (past) {
      const kept = await this.store.keptStatistics(enterpriseId, date);
      if (kept) return kept as StatisticsRecord;
    }
    try {
      const stats = await this.platform.getStatistics({ enterpriseId, date }, background);
      if (past) await this.store.keepStatistics(enterpriseId, date, stats);
      return stats;
    } catch {
      return undefined;
    }
  }
}
