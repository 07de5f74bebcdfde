/*
 * The digest's chart (issue 39 §2): what one chart costs, and whether 1,000 workspaces' charts
 * rendered at the same minute stall the acks.
 *
 * 1. One chart: the SVG built from 14 days of figures and rendered to PNG by resvg (the job's own
 *    `renderDigestChart`), timed over BENCH_CHART_RUNS (200) renders after a warm-up; the process's
 *    rss and heap before and after them (after a GC when --expose-gc is given), and the PNG's size.
 * 2. 1,000 charts (BENCH_CHART_WORKSPACES) asked for at once, BENCH_CHART_CONCURRENCY (4) at a time
 *    (the renderer itself takes them one at a time),
 *    while a bare ack path is measured in this same process: a loopback HTTP server that answers 200
 *    at once (what an ack is to Bolt), asked every 10 ms; the event loop's delay
 *    (`perf_hooks.monitorEventLoopDelay`) and the acks' round trips, p50/p99/max. Twice: with
 *    `renderAsync` (resvg on libuv's thread pool, as the job renders) and with the synchronous
 *    `Resvg.render()` on the main thread yielding between charts, for comparison. Target: loop delay
 *    p99 under 50 ms. Exits 1 when the job's way misses it.
 *
 * Run: npx tsx bench/digest-chart.ts (npm run bench:chart)
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Resvg } from '@resvg/resvg-js';
import { chartSeries, chartSvg } from '../src/blocks/digest-chart.js';
import type { DigestData } from '../src/domain/digest.js';
import { chartFonts, renderDigestChart } from '../src/outbound/digest-chart.js';

const runs = Number(process.env.BENCH_CHART_RUNS ?? 200);
const workspaces = Number(process.env.BENCH_CHART_WORKSPACES ?? 1_000);
const concurrency = Number(process.env.BENCH_CHART_CONCURRENCY ?? 4);
const targetMs = 50;

/** Workspace `w`'s 14 days: figures that differ by workspace and day. */
function sample(w: number): DigestData {
  const days = Array.from({ length: 14 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 10, 13 + i)).toISOString().slice(0, 10);
    const sessions = 5 + ((w * 13 + i * 7) % 40);
    return {
      date,
      stats: { session_count: sessions, session_duration: sessions * (600 + ((w + i) % 9) * 120) },
    };
  });
  return { date: '2026-11-26', days: days as DigestData['days'], report: undefined, missing: [] };
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

// 1. One chart.
for (let i = 0; i < 10; i++) await renderDigestChart(sample(i), 'en');
gc();
const before = process.memoryUsage();
const times: number[] = [];
let bytes = 0;
let peakRss = before.rss;
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  const { png } = await renderDigestChart(sample(i), 'en');
  times.push(performance.now() - t);
  bytes = png.length;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
gc();
const after = process.memoryUsage();
times.sort((a, b) => a - b);
console.log(
  `digest chart: ${runs} renders (renderAsync, one at a time), PNG ${(bytes / 1024).toFixed(0)} KB`,
);
console.log(
  `  per chart: p50 ${pct(times, 0.5).toFixed(1)} ms, p99 ${pct(times, 0.99).toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms`,
);
console.log(
  `  memory over ${runs} renders: rss ${mb(before.rss)} → ${mb(after.rss)} MB (peak ${mb(peakRss)}), heap used ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB, external ${mb(before.external)} → ${mb(after.external)} MB${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: no GC forced)'}`,
);

// 2. 1,000 charts at the same minute, with a bare ack path measured meanwhile.
const server = createServer((_req, res) => res.writeHead(200).end());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const ack = () =>
  new Promise<number>((resolve, reject) => {
    const t = performance.now();
    const req = request({ host: '127.0.0.1', port, path: '/slack/events', method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t));
    });
    req.on('error', reject);
    req.end('{}');
  });

/** The synchronous render on the main thread, yielding to the loop between charts. */
const syncRender = async (data: DigestData) => {
  await new Promise((r) => setImmediate(r));
  const svg = chartSvg(chartSeries(data, 'en'), 'en');
  new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: chartFonts, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
};

async function underLoad(label: string, render: (d: DigestData) => Promise<unknown>) {
  const acks: number[] = [];
  let rendering = true;
  const asking = (async () => {
    while (rendering) {
      // A refused connection counts as an ack that never came: the run's longest.
      acks.push(await ack().catch(() => Number.POSITIVE_INFINITY));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < workspaces) await render(sample(next++));
    }),
  );
  const took = performance.now() - t;
  loop.disable();
  rendering = false;
  await asking;
  acks.sort((a, b) => a - b);
  const p99 = loop.percentile(99) / 1e6;
  console.log(
    `  ${label}: ${workspaces} charts in ${(took / 1000).toFixed(1)} s; event loop delay p99 ${p99.toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; ${acks.length} acks: p50 ${pct(acks, 0.5).toFixed(1)} ms, p99 ${pct(acks, 0.99).toFixed(1)} ms, max ${(acks.at(-1) ?? 0).toFixed(1)} ms — target loop p99 < ${targetMs} ms: ${p99 < targetMs ? 'met' : 'NOT met'}`,
  );
  return p99;
}

console.log(
  `${workspaces} workspaces' charts at the same minute, ${concurrency} at a time, a bare ack every 10 ms:`,
);
const idle: number[] = [];
for (let i = 0; i < 100; i++) idle.push(await ack());
idle.sort((a, b) => a - b);
console.log(`  no render: ack p50 ${pct(idle, 0.5).toFixed(1)} ms, p99 ${pct(idle, 0.99).toFixed(1)} ms`);
const asyncP99 = await underLoad('renderAsync (thread pool, as the job)', (d) => renderDigestChart(d, 'en'));
gc();
console.log(`  rss after these ${workspaces} more renders: ${mb(process.memoryUsage().rss)} MB`);
await underLoad('Resvg.render() on the main thread, yielding between charts (for comparison)', syncRender);
gc();
console.log(`  rss after the main thread's ${workspaces}: ${mb(process.memoryUsage().rss)} MB`);
server.close();
process.exitCode = asyncP99 < targetMs ? 0 : 1;
