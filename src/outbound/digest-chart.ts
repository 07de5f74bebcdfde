import { createRequire } from 'node:module';
import { renderAsync } from '@resvg/resvg-js';
import { chartAlt, chartSeries, chartSvg } from '../blocks/digest-chart.js';
import type { DigestData } from '../domain/digest.js';

const require = createRequire(import.meta.url);

/**
 * The chart's fonts, shipped from npm (DejaVu Sans, regular and bold), so the labels draw on a bare
 * machine: resvg is given only these, never the system's.
 */
export const chartFonts = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];

/**
 * Renders an SVG to PNG with resvg, off the main thread (`renderAsync` runs on libuv's pool), so a
 * minute with many digests does not hold the acks.
 */
export async function renderSvg(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: false, fontFiles: chartFonts, defaultFontFamily: 'DejaVu Sans' },
    fitTo: { mode: 'original' },
  });
  return image.asPng();
}

/** The digest's chart: its PNG and the alt text that says its figures. */
export async function renderDigestChart(data: DigestData): Promise<{ png: Buffer; alt: string }> {
  const series = chartSeries(data);
  return { png: await renderSvg(chartSvg(series)), alt: chartAlt(series) };
}
