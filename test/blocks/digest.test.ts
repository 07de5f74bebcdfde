import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDigest, formatMetric, sparkline } from '../../src/blocks/digest.js';
import { checkBlockKit } from '../../src/blocks/limits.js';
import type { DigestData } from '../../src/domain/digest.js';
import { DigestService } from '../../src/services/digest.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

let platform: PlatformFixture;
let store: Store;
let dir: string;
beforeAll(async () => {
  platform = await startPlatform();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-digest-'));
  store = await openStore({ dataDir: dir });
});
afterAll(async () => {
  await store.close();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const text = (payload: { blocks: unknown[] }) => JSON.stringify(payload.blocks);
const today = new Date().toISOString().slice(0, 10);

describe('the daily digest', () => {
  it('shows the platform’s figures of the day in human units, within Block Kit’s limits', async () => {
    const data = await new DigestService(platform.client, store).collect(today);
    expect(data.missing).toEqual([]);
    const stats = data.days.at(-1)?.stats;
    expect(stats?.session_count).toBeGreaterThan(0);
    const digest = buildDigest(data, { locale: 'en', next: new Date(Date.now() + 86_400_000) });
    expect(checkBlockKit(digest, 'message')).toEqual([]);
    const all = text(digest);
    expect(all).toContain(`*Sessions*\\n${formatMetric('session_count', stats?.session_count as number)}`);
    expect(all).toContain(formatMetric('session_duration', stats?.session_duration as number));
    expect(all).toContain('Tickets created');
    expect(all).toContain('Next digest');
  });

  it('reads past days once: the next digest costs the day’s statistics and report only', async () => {
    const service = new DigestService(platform.client, store);
    await service.collect(today);
    const before = platform.sim.requests.length;
    await service.collect(today);
    const paths = platform.sim.requests.slice(before).map((r) => r.path);
    expect(paths.filter((p) => p.endsWith('/statistics'))).toHaveLength(1);
    expect(paths.filter((p) => p.endsWith('/tickets/report'))).toHaveLength(1);
  });

  it('reads the chart’s two weeks once: 14 days at the first digest, then the day and the day before', async () => {
    const service = new DigestService(platform.client, store);
    const statisticsReads = async (date: string) => {
      const before = platform.sim.requests.length;
      const data = await service.collect(date);
      expect(data.days.map((d) => d.date).slice(0, 2)).toEqual(
        [13, 12].map((n) =>
          new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10),
        ),
      );
      expect(data.days).toHaveLength(14);
      return platform.sim.requests.slice(before).filter((r) => r.path.endsWith('/statistics')).length;
    };
    expect(await statisticsReads('2027-06-10')).toBe(14);
    // The next day: the new day, and the day before once more (it was today's, not kept, last time).
    expect(await statisticsReads('2027-06-11')).toBe(2);
  });

  it('shows its chart inside the message as an image block of the uploaded file, with its alt text', async () => {
    const data = await new DigestService(platform.client, store).collect(today);
    const digest = buildDigest(data, {
      locale: 'en',
      chart: { fileId: 'F0CHART01', alt: 'Chart of the last 7 days. Thu 26: 7 sessions' },
    });
    expect(checkBlockKit(digest, 'message')).toEqual([]);
    expect(digest.blocks).toContainEqual({
      type: 'image',
      slack_file: { id: 'F0CHART01' },
      alt_text: 'Chart of the last 7 days. Thu 26: 7 sessions',
    });
    // The text figures stay; without a chart there is no image block.
    expect(text(digest)).toContain('*Sessions*');
    expect(buildDigest(data, { locale: 'en' }).blocks.some((b) => b.type === 'image')).toBe(false);
    // An image block without alt text, or with both sources, is refused as Slack does.
    expect(
      checkBlockKit({ text: 'x', blocks: [{ type: 'image', slack_file: { id: 'F1' } }] }, 'message'),
    ).not.toEqual([]);
    expect(
      checkBlockKit(
        {
          text: 'x',
          blocks: [
            { type: 'image', alt_text: 'a', image_url: 'https://x.test/a.png', slack_file: { id: 'F1' } },
          ],
        },
        'message',
      ),
    ).not.toEqual([]);
  });

  it('says what is missing instead of showing zero when the platform fails', async () => {
    platform.sim.faults.errorRate = 1;
    try {
      const data = await new DigestService(platform.client, store).collect('2027-01-15');
      expect(data.missing).toEqual(['the statistics of the day', 'the tickets report']);
      const all = text(buildDigest(data, { locale: 'en' }));
      expect(all).toContain('not available: the platform did not give it');
      expect(all).toContain('I will try again later today');
      expect(all).not.toMatch(/\*Sessions\*\\n0/);
    } finally {
      platform.sim.faults.errorRate = 0;
    }
  });

  it('marks a single missing metric, shows the change, the 7-day trend and the quota', () => {
    const day = (date: string, sessions: number | undefined, extra: Record<string, unknown> = {}) => ({
      date,
      stats: {
        session_count: sessions,
        session_duration: 11_520,
        session_billing_duration: 12_000,
        user_count: 7,
        disk_usage: 1_434,
        sms_count: undefined,
        ...extra,
      },
    });
    const data: DigestData = {
      date: '2027-03-28',
      days: [
        ...[1, 2, 3, 4, 5, 6].map((n) => day(`2027-03-2${n}`, n * 2)),
        day('2027-03-27', 10),
        day('2027-03-28', 15, { quotas: { sessions: 100 } }),
      ],
      report: { total: 3, by_state: { open: 2, done: 1 } },
      missing: [],
    };
    const all = text(buildDigest(data, { locale: 'en', late: true }));
    expect(all).toContain('*Sessions*\\n15 of 100 (15 %)\\n▲ 5 vs the day before');
    expect(all).toContain('*Session time*\\n3 h 12 min');
    expect(all).toContain('*Disk used*\\n1.4 GB');
    expect(all).toContain('*SMS sent*\\n_not available');
    expect(all).toContain('Late: confdesk was not running');
    expect(sparkline([2, 4, 6, 8, 10, 12, 10, 15])).toBe('▁▂▃▄▅▆▅█');
    expect(sparkline([1, undefined, 1])).toBe('▄·▄');
  });

  it('stays within Block Kit’s limits with hundreds of agents and groups', () => {
    const data: DigestData = {
      date: '2027-03-28',
      days: [],
      report: {
        total: 5_000,
        by_state: { open: 3_000, closed: 2_000 },
        by_agent: Array.from({ length: 600 }, (_, i) => ({
          username: `agent-with-a-long-name-${i}`,
          count: i,
        })),
        by_group: Array.from({ length: 300 }, (_, i) => ({ name: `Group <${i}> & co`, count: i })),
      },
      missing: [],
    };
    const digest = buildDigest(data, { locale: 'en' });
    expect(checkBlockKit(digest, 'message')).toEqual([]);
    const all = text(digest);
    expect(all).toMatch(/By agent\*\\nagent-with-a-long-name-599 599 · agent-with-a-long-name-598 598/);
    expect(all).toMatch(/and \d+ more/);
    expect(all).toContain('Group &lt;299&gt; &amp; co 299');
  });
});
