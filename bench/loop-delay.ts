import { subscribe } from 'node:diagnostics_channel';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/*
 * Loaded into the app under test with --import when BENCH_LOOP=1: each second, its event loop's worst
 * delay and the worst time from a request's arrival to the end of its response, as the app saw them.
 * Comparing them with the generator's figures tells the app's own time from the machine's.
 */
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const arrived = new WeakMap<object, number>();
let answered = 0;
let worst = 0;
subscribe('http.server.request.start', (m) =>
  arrived.set((m as { response: object }).response, performance.now()),
);
subscribe('http.server.response.finish', (m) => {
  const t = arrived.get((m as { response: object }).response);
  answered++;
  if (t !== undefined) worst = Math.max(worst, performance.now() - t);
});
setInterval(() => {
  if (answered)
    console.error(
      `app side: ${answered} answered, slowest ${worst.toFixed(0)} ms, event loop delay max ${(loop.max / 1e6).toFixed(0)} ms`,
    );
  answered = 0;
  worst = 0;
  loop.reset();
}, 1_000).unref();
