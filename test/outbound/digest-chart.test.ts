import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  barCentre,
  chartColours,
  chartGeometry,
  chartSeries,
  chartSvg,
  chartTexts,
} from '../../src/blocks/digest-chart.js';
import type { DigestData } from '../../src/domain/digest.js';
import { renderDigestChart } from '../../src/outbound/digest-chart.js';

/** 14 days ending 2026-11-26 (the digest's day), from `sessions[i]`/`minutes[i]`, oldest first. */
function data(days: { sessions?: number; minutes?: number }[]): DigestData {
  return {
    date: '2026-11-26',
    days: days.map((d, i) => ({
      date: new Date(Date.UTC(2026, 10, 26 - (days.length - 1 - i))).toISOString().slice(0, 10),
      stats:
        d.sessions === undefined
          ? undefined
          : ({ session_count: d.sessions, session_duration: (d.minutes ?? 0) * 60 } as never),
    })),
    report: undefined,
    missing: [],
  };
}

const hex = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));
const pixel = (png: PNG, x: number, y: number) => {
  const i = (png.width * Math.round(y) + Math.round(x)) * 4;
  return [...png.data.subarray(i, i + 4)];
};
const near = (p: number[], colour: string) => hex(colour).every((c, i) => Math.abs(c - (p[i] ?? 0)) <= 8);

/**
 * A bar's height in pixels: counted up from just over its panel's baseline (whose line blends the
 * bar's last rows) while the bar's colour goes on; 0 where the bar's colour is not there at all.
 */
function barHeight(png: PNG, day: number, panel: 0 | 1, colour: string): number {
  const { bottom, top } = chartGeometry.panels[panel];
  const x = barCentre(day) - chartGeometry.barWidth / 4;
  const start = bottom - 3;
  let h = 0;
  for (let y = start; y >= top - 20; y--) {
    if (!near(pixel(png, x, y), colour)) break;
    h++;
  }
  return h === 0 ? 0 : h + (bottom - start);
}

describe('the digest chart', () => {
  it('is a PNG of the chart’s size, with an opaque light card', async () => {
    const { png } = await renderDigestChart(
      data(Array.from({ length: 8 }, () => ({ sessions: 5, minutes: 50 }))),
      'en',
    );
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = PNG.sync.read(png);
    expect([image.width, image.height]).toEqual([chartGeometry.width, chartGeometry.height]);
    // Inside the card (past its rounded corners) every pixel is opaque: the same in both Slack themes.
    const p = pixel(image, chartGeometry.width / 2, 60);
    expect(p[3]).toBe(255);
    expect(near(p, chartColours.card)).toBe(true);
  });

  it('draws each bar at its figure’s height, in both panels', async () => {
    const sessions = [10, 20, 30, 40, 15, 5, 25];
    const minutes = [100, 400, 200, 300, 0, 50, 350];
    const week = sessions.map((s, i) => ({ sessions: s, minutes: minutes[i] as number }));
    const image = PNG.sync.read((await renderDigestChart(data(week), 'en')).png);
    const [p0, p1] = chartGeometry.panels;
    sessions.forEach((s, i) => {
      expect(
        Math.abs(barHeight(image, i, 0, chartColours.sessions) - (s / 40) * (p0.bottom - p0.top)),
      ).toBeLessThanOrEqual(2);
    });
    minutes.forEach((m, i) => {
      expect(
        Math.abs(barHeight(image, i, 1, chartColours.minutes) - (m / 400) * (p1.bottom - p1.top)),
      ).toBeLessThanOrEqual(2);
    });
    // The tallest bars reach their panel's top, and the day with no minutes has no green at all.
    expect(barHeight(image, 3, 0, chartColours.sessions)).toBeGreaterThan(p0.bottom - p0.top - 3);
    expect(barHeight(image, 4, 1, chartColours.minutes)).toBe(0);
  });

  it('shows the week before as a line and labels the days in the digest’s days', () => {
    const fortnight = Array.from({ length: 14 }, (_, i) => ({ sessions: i + 1, minutes: 10 * (i + 1) }));
    const series = chartSeries(data(fortnight), 'en');
    expect(series.labels).toEqual(['Fri 20', 'Sat 21', 'Sun 22', 'Mon 23', 'Tue 24', 'Wed 25', 'Thu 26']);
    expect(series.sessions).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(series.sessionsBefore).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const svg = chartSvg(series, 'en');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).toContain('>Thu 26<');
  });

  it('draws a week with no figures sensibly: no bar, no NaN, says so', async () => {
    const svg = chartSvg(chartSeries(data([]), 'en'), 'en');
    expect(svg).not.toMatch(/NaN|Infinity|undefined/);
    expect(svg).toContain(chartTexts('en').noData);
    expect(svg).not.toContain('<rect x=');
    const image = PNG.sync.read((await renderDigestChart(data([]), 'en')).png);
    expect(image.width).toBe(chartGeometry.width);
    for (let i = 0; i < 7; i++) expect(barHeight(image, i, 0, chartColours.sessions)).toBe(0);
  });

  it('clips one huge day so the other days stay readable', async () => {
    const week = [3, 4, 5, 1_000_000, 2, 6, 4].map((s) => ({ sessions: s, minutes: s }));
    const svg = chartSvg(chartSeries(data(week), 'en'), 'en');
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg).toContain('>1,000,000<'); // the huge day's figure is said over its clipped bar
    const image = PNG.sync.read((await renderDigestChart(data(week), 'en')).png);
    const { top, bottom } = chartGeometry.panels[0];
    // The scale tops at 3× the second-highest day (6 → 18): a day of 6 is a third of the panel, not a pixel.
    expect(
      Math.abs(barHeight(image, 5, 0, chartColours.sessions) - (6 / 18) * (bottom - top)),
    ).toBeLessThanOrEqual(2);
    // The huge day fills its panel but is broken by the white band near its top (clipped).
    expect(barHeight(image, 3, 0, chartColours.sessions)).toBeLessThan(bottom - top - 5);
    expect(barHeight(image, 3, 0, chartColours.sessions)).toBeGreaterThan(bottom - top - 20);
  });

  it('says every figure in its alt text', () => {
    const week = [1, 2, 3, 4, 5, 6, 7].map((s) => ({ sessions: s, minutes: s * 10 }));
    const alt = chartTexts('en').alt([]);
    expect(alt).toContain(chartTexts('en').title.replace('Last', 'last'));
    const series = chartSeries(data(week), 'en');
    const text = chartTexts('en').alt(
      series.labels.map((label, i) => ({ label, sessions: series.sessions[i], minutes: series.minutes[i] })),
    );
    expect(text).toContain('Thu 26: 7 sessions, 70 minutes');
    expect(text).toContain('Fri 20: 1 sessions, 10 minutes');
  });
});

describe('the digest chart in French', () => {
  it('names the days, the panels and the figures in French, and says them in its alt text', async () => {
    const week = [1, 2, 3, 4, 5, 6, 1_234].map((s) => ({ sessions: s, minutes: s * 10 }));
    const series = chartSeries(data(week), 'fr');
    expect(series.labels.at(-1)).toBe('jeu. 26');
    const svg = chartSvg(series, 'fr');
    expect(svg).toContain('>Les 7 derniers jours<');
    expect(svg).toContain('>Minutes de session<');
    expect(svg).toContain('>1\u202f234<');
    expect(svg).not.toContain('Last 7 days');
    const { png, alt } = await renderDigestChart(data(week), 'fr');
    expect(PNG.sync.read(png).width).toBe(chartGeometry.width);
    expect(alt).toContain('Graphique des 7 derniers jours');
    expect(alt).toContain('ven. 20\u202f: 1 session, 10 minutes');
  });
});
