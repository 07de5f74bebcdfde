import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { renderAsync } from '@resvg/resvg-js';
import type { WebClient } from '@slack/web-api';
import { chartAlt, chartSeries, chartSvg, chartTexts } from '../blocks/digest-chart.js';
import type { DigestData } from '../domain/digest.js';
import type { Locale } from '../i18n/locale.js';
import { uploadFile } from './upload.js';

const require = createRequire(import.meta.url);

/**
 * The chart's fonts, shipped from npm (DejaVu Sans, regular and bold), so the labels draw on a bare
 * machine: resvg is given only these, never the system's.
 */
export const chartFonts = [
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
];

/** The renders waiting or running: one at a time in this process (see `renderSvg`). */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Renders an SVG to PNG with resvg, off the main thread (`renderAsync` runs on libuv's pool), and one
 * at a time in the process: a minute with many workspaces' digests leaves the other core to the acks
 * (four renders at once on a 2-core machine put the event loop's p99 delay at 200 ms; see
 * bench/digest-chart.ts). Only the PNG's encoding (`asPng`, about 15 ms of a chart's 60) runs on the
 * main thread.
 */
export function renderSvg(svg: string): Promise<Buffer> {
  const turn = queue.then(async () => {
    const image = await renderAsync(svg, {
      font: { loadSystemFonts: false, fontFiles: chartFonts, defaultFontFamily: 'DejaVu Sans' },
      fitTo: { mode: 'original' },
    });
    return image.asPng();
  });
  queue = turn.catch(() => undefined);
  return turn;
}

/** The digest's chart: its PNG and the alt text that says its figures. */
export async function renderDigestChart(
  data: DigestData,
  locale: Locale,
): Promise<{ png: Buffer; alt: string }> {
  const series = chartSeries(data, locale);
  return { png: await renderSvg(chartSvg(series, locale)), alt: chartAlt(series, locale) };
}

/**
 * Uploads a chart through the files upload flow (`uploadFile`, as the media library's files go)
 * without a channel: no file message is posted; the digest shows it in its image block.
 */
export async function uploadChart(
  client: WebClient,
  png: Buffer,
  target: { filename: string; title: string },
): Promise<{ fileId: string }> {
  const file = {
    body: Readable.from([png]),
    contentLength: png.length,
    contentType: 'image/png',
    filename: target.filename,
  };
  return uploadFile(client, file, { channel: undefined, ...target });
}

/** A chart uploaded for a digest: the file its image block shows, and its alt text. */
export interface DigestChart {
  fileId: string;
  alt: string;
}

/** What a digest's chart shows, as one string: the same figures make the same chart. */
export const chartFigures = (data: DigestData, locale: Locale): string =>
  JSON.stringify(chartSeries(data, locale));

/** The digest's chart of local day `period`'s run in the channel's language, rendered and uploaded (no channel). */
export async function digestChart(
  client: WebClient,
  data: DigestData,
  period: string,
  locale: Locale,
): Promise<DigestChart> {
  const { png, alt } = await renderDigestChart(data, locale);
  const { fileId } = await uploadChart(client, png, {
    filename: `digest-${period}.png`,
    title: chartTexts(locale).fileTitle(data.date),
  });
  return { fileId, alt };
}
