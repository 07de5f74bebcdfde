// `npx tsx scripts/digest-chart-sample.ts`: the README's picture of the digest's chart
// (docs/screenshots/digest-chart.png), drawn by the bot's own renderer from two sample weeks of a
// small desk (quiet weekends), the digest's day Thursday 2026-11-26.
import { writeFileSync } from 'node:fs';
import type { DigestData } from '../src/domain/digest.js';
import { renderDigestChart } from '../src/outbound/digest-chart.js';

const sessions = [18, 4, 2, 22, 25, 21, 24, 20, 5, 3, 26, 31, 27, 29];
const days = sessions.map((s, i) => ({
  date: new Date(Date.UTC(2026, 10, 13 + i)).toISOString().slice(0, 10),
  stats: { session_count: s, session_duration: s * (1500 + ((i * 7) % 5) * 240) },
}));
const { png } = await renderDigestChart(
  {
    date: '2026-11-26',
    days: days as DigestData['days'],
    report: undefined,
    missing: [],
  },
  'en',
);
writeFileSync('docs/screenshots/digest-chart.png', png);
console.log(`docs/screenshots/digest-chart.png: ${png.length} bytes`);
