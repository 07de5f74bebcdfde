import type { Db } from './db.js';
import { getSetting, setSetting } from './settings.js';

/**
 * The platform's statistics of past days, kept once read: a finished day's figures do not change,
 * and the digest of a week reads seven of them.
 */
export interface StatisticsRepository {
  /** The figures kept for an enterprise and a day (YYYY-MM-DD), as they were given to `keepStatistics`. */
  keptStatistics(enterpriseId: number, date: string): Promise<unknown>;
  keepStatistics(enterpriseId: number, date: string, figures: unknown): Promise<void>;
}

const scope = 'statistics';

export const statisticsRepository = (c: Db): StatisticsRepository => ({
  async keptStatistics(enterpriseId, date) {
    const kept = await getSetting(c, scope, `${enterpriseId}:${date}`);
    return kept === undefined ? undefined : JSON.parse(kept);
  },
  keepStatistics: (enterpriseId, date, figures) =>
    setSetting(c, scope, `${enterpriseId}:${date}`, JSON.stringify(figures)),
});
