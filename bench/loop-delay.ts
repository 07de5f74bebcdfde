import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Imported with --import by the bench when BENCH_LOOP=1: prints the event loop's worst delay each 250 ms. */
const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
setInterval(() => {
  if (h.max > 50e6)
    console.error(`loop-delay max ${(h.max / 1e6).toFixed(0)} ms at ${Math.round(performance.now())}`);
  h.reset();
}, 250).unref();
