/*
 * npm run bench — acknowledgement latency of /conference and of a card button under load, against
 * the same load on a bare Bolt app that only acks, while the platform simulator answers every request
 * in 5 s; and the bot's resident memory idle and after the load.
 *
 * Everything runs on loopback, each part in its own process so that none slows another's clock: this
 * load generator, the backends (platform simulator and Slack double, bench/backends.ts), the bot (the
 * real entry point, built as `npm start` builds it: dist/main.js) and the bare app; the bot's memory
 * is its own.
 *
 * Knobs: BENCH_REQUESTS (2000), BENCH_CONCURRENCY (50), BENCH_PLATFORM_LATENCY_MS (5000),
 * BENCH_WARMUP (100), BENCH_ROUNDS (3: every target measured afresh in each, medians compared),
 * BENCH_TARGETS (bare,bot,flood,metrics), BENCH_LOOP=1 (the app reports its own event loop delay and
 * answer times), BENCH_CPU_PROF=1 (CPU profiles in bench/profiles), BENCH_SLOWEST=1 (the slowest 2 %
 * of requests and when they started), BENCH_NODE_FLAGS (Node flags for the apps, e.g. --trace-gc),
 * BENCH_PRIME=0 (no priming click: the measured requests all join the person's account lookup),
 * BENCH_DEBUG=1 (how long the priming took), BENCH_HEAP=1 (a heap snapshot of each app before and
 * right after the measured load, in bench/profiles/heap-<target>-<round>: what each request keeps
 * alive while it waits, counted by bench/heap-count.ts).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, platform } from 'node:os';
import { createInterface } from 'node:readline';
import { countObjects, diffCounts, printDiff } from './heap-count.js';

const total = Number(process.env.BENCH_REQUESTS ?? 2_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const latencyMs = Number(process.env.BENCH_PLATFORM_LATENCY_MS ?? 5_000);
const secret = 'bench-signing-secret';

/** Every process started, killed if this one stops early, so no bot is left running. */
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * CPU time a process has used, in ms (Linux: /proc/<pid>/stat's user and system ticks, 100 a second);
 * NaN elsewhere. Unlike latency, what an app spends on a load hardly moves when other processes
 * share the machine.
 */
const cpuMs = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
};

/** Resident set size of a process, in MB (ps works on Linux and macOS). */
const rssMb = (pid: number) =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  ) / 1024;

/**
 * On Linux with two CPUs or more, the load generator gets the first CPU(s) to itself, and the app
 * under test shares the last one with the backends it calls (so the cost of serving the bot's own
 * Slack and platform calls counts against the bot, never against the generator's clock). Unpinned on
 * a small machine, the processes take turns on the same cores and the figures measure the scheduler.
 */
const cpus = availableParallelism();
const pinned = cpus >= 2 && platform() === 'linux' && spawnSync('taskset', ['-V']).status === 0;
const pin = (cpuList: string, command: string[]) =>
  pinned ? ['taskset', '-c', cpuList, ...command] : command;
if (pinned) spawnSync('taskset', ['-cp', `0-${cpus - 2}`, String(process.pid)]);

async function startProcess(
  script: string,
  env: Record<string, string>,
  heapDir?: string,
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [];
  const heap = heapDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heapDir}`] : [];
  const loop = process.env.BENCH_LOOP ? ['--import', './bench/loop-delay.ts'] : [];
  // Node's own flags for the apps under test (both alike), e.g. `--trace-gc`.
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // TypeScript (the bare app, the loop probe) runs through tsx; the bot runs compiled.
  const tsx = script.endsWith('.ts') || loop.length ? ['--import', 'tsx'] : [];
  const [command, ...args] = pin(String(cpus - 1), [
    process.execPath,
    ...flags,
    ...profile,
    ...heap,
    ...tsx,
    ...loop,
    script,
  ]);
  const child = spawn(command as string, args, {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error' },
    // Its logs go to this terminal: a pipe nobody reads would fill up and block the bot.
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`${script} did not start`)), 30_000);
    const poll = setInterval(async () => {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST' })).status) {
          clearInterval(poll);
          clearTimeout(deadline);
          resolve();
        }
      } catch {
        // not listening yet
      }
    }, 100);
  });
  return { child, port };
}

/**
 * Has the app write a heap snapshot (SIGUSR2, see `startProcess`) into `dir` and answers its path once
 * written: the app answers HTTP again when its loop is free, and the file stops growing.
 */
async function heapSnapshot(child: ChildProcess, port: number, dir: string): Promise<string> {
  const known = new Set(readdirSync(dir));
  child.kill('SIGUSR2');
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !known.has(f));
    if (!file) continue;
    await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST' }).catch(() => undefined);
    const size = statSync(`${dir}/${file}`).size;
    await new Promise((r) => setTimeout(r, 1_000));
    if (statSync(`${dir}/${file}`).size === size) return `${dir}/${file}`;
  }
}

function signed(body: string, contentType = 'application/x-www-form-urlencoded') {
  const ts = Math.floor(Date.now() / 1000);
  const sig = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
  return {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': sig,
    },
    body,
  };
}

/** Half `/conference` with complete text (creates a conference), half a click on a card's button. */
interface Backends {
  platformUrl: string;
  platformToken: string;
  slackApiUrl: string;
  slackUrl: string;
  teamId: string;
  conferenceId: string;
}

function request(i: number, b: Backends, responseUrl = `${b.slackUrl}/response/${i}`) {
  if (i % 2 === 0) {
    return new URLSearchParams({
      command: '/conference',
      text: `guest${i}@example.com +336${String(10_000_000 + i).slice(-8)} tomorrow 3pm 45m "Bench ${i}"`,
      user_id: 'UADMIN',
      channel_id: 'CBENCH',
      team_id: b.teamId,
      response_url: responseUrl,
      trigger_id: `t${i}`,
    }).toString();
  }
  const payload = {
    type: 'block_actions',
    user: { id: 'UADMIN' },
    team: { id: b.teamId },
    api_app_id: 'A1',
    trigger_id: `t${i}`,
    response_url: responseUrl,
    channel: { id: 'CBENCH' },
    container: { type: 'message', channel_id: 'CBENCH', message_ts: '1.000001', is_ephemeral: false },
    actions: [
      { type: 'button', action_id: 'conference_media', block_id: 'b', value: b.conferenceId, action_ts: '1' },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** One keep-alive agent for the generator: at most one socket per concurrent worker. */
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function post(port: number, init: ReturnType<typeof signed>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/slack/events', method: 'POST', headers: init.headers, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

interface Run {
  p50: number;
  p99: number;
  max: number;
  over3s: number;
  failed: number;
}

async function load(port: number, b: Backends, n: number): Promise<Run> {
  /** Each request: its number, when it started (ms into the run) and how long its answer took. */
  const took: { i: number; at: number; ms: number }[] = [];
  let failed = 0;
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const init = signed(request(i, b));
      const t0 = performance.now();
      const status = await post(port, init);
      took.push({ i, at: t0 - start, ms: performance.now() - t0 });
      if (status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (process.env.BENCH_SLOWEST) {
    // Which requests were the slowest 2 %, and when they started (ms into the run): a cluster at the
    // start is warm-up, a cluster mid-run a pause (garbage collection, a timer's work).
    const worst = [...took].sort((x, y) => y.ms - x.ms).slice(0, Math.ceil(n / 50));
    console.log(worst.map((w) => `#${w.i}@${w.at.toFixed(0)}:${w.ms.toFixed(0)}`).join(' '));
  }
  const times = took.map((t) => t.ms).sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: at(1), over3s: times.filter((t) => t > 3_000).length, failed };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main() {
  // The bot runs as `npm start` runs it: compiled JavaScript.
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const [command, ...args] = pin(String(cpus - 1), [
    process.execPath,
    '--import',
    'tsx',
    'bench/backends.ts',
  ]);
  const backends = spawn(command as string, args, {
    env: { ...process.env, BENCH_PLATFORM_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(backends);
  // Its first line is the addresses; the rest of its output is read and dropped (never left to fill the pipe).
  const lines = createInterface({ input: backends.stdout as NodeJS.ReadableStream });
  const b = await new Promise<Backends>((resolve) =>
    lines.once('line', (l) => resolve(JSON.parse(l) as Backends)),
  );
  // Then the replies to priming requests, as the Slack double gets them.
  const replied = new Set<string>();
  lines.on('line', (l) => {
    if (l.startsWith('{"replied"')) replied.add((JSON.parse(l) as { replied: string }).replied);
  });
  /**
   * One click, waited for until the Slack double has its reply: the person's account is then known
   * (its lookup is three platform calls in a row, 15 s at the simulator's 5 s), so the measured
   * requests go straight to their own platform calls — waiting in the budget as shipped, at the
   * platform with it lifted. Without it they all joined that one lookup, in every variant alike.
   */
  const prime = async (port: number, name: string) => {
    const path = `/response/prime-${name}`;
    const started = performance.now();
    await post(port, signed(request(1, b, `${b.slackUrl}${path}`)));
    while (!replied.has(path) && performance.now() - started < 120_000)
      await new Promise((r) => setTimeout(r, 100));
    return performance.now() - started;
  };
  const env = { SLACK_SIGNING_SECRET: secret, SLACK_API_URL: b.slackApiUrl, SLACK_BOT_TOKEN: 'xoxb-bench' };

  console.log(
    `confdesk ack benchmark: ${total} signed requests, ${concurrency} concurrent, platform latency ${latencyMs} ms`,
  );
  // The bot runs twice: as shipped (the platform's budget of 10 requests a minute, so most platform
  // calls wait in its queue), and with the budget lifted so that every call reaches the slow platform
  // at once (thousands of open requests): the worst case for its event loop.
  const targets = [
    { key: 'bare', label: 'bare Bolt (ack only)', script: 'bench/bare-bolt.ts', budget: '10' },
    { key: 'bot', label: 'confdesk (budget 10/min)', script: 'dist/main.js', budget: '10' },
    { key: 'flood', label: 'confdesk (budget lifted)', script: 'dist/main.js', budget: '100000' },
    // issue 23: the same bot with /metrics on (every ack timed, every platform call counted).
    {
      key: 'metrics',
      label: 'confdesk + metrics',
      script: 'dist/main.js',
      budget: '10',
      extra: { METRICS_TOKEN: 'bench-metrics-token-0123456789' },
    },
  ] as const;
  // Each round starts every target afresh, one after the other, and measures it once: a run's p99 is
  // its 20th slowest request, which one pause of the machine's (another process, a page fault) sets
  // for every request in flight, in whichever app it falls. The figures compared are each target's
  // medians over the rounds (its runs are listed too), so that one such pause moves one round.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const runs: Record<string, (Run & { idle: number; after: number; cpu: number; backendsCpu: number })[]> =
    {};
  const only = process.env.BENCH_TARGETS?.split(',');
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets.filter((x) => !only || only.includes(x.key))) {
      const heapDir = process.env.BENCH_HEAP ? `bench/profiles/heap-${t.key}-${round}` : undefined;
      if (heapDir) mkdirSync(heapDir, { recursive: true });
      const started = performance.now();
      const { child, port } = await startProcess(
        t.script,
        {
          ...env,
          PLATFORM_URL: b.platformUrl,
          PLATFORM_TOKEN: b.platformToken,
          PLATFORM_RATE_LIMIT: t.budget,
          ...('extra' in t ? t.extra : {}),
        },
        heapDir,
      );
      await new Promise((r) => setTimeout(r, 2_000));
      const idle = rssMb(child.pid as number);
      // The bare app only acks: nothing to prime. BENCH_PRIME=0 measures as before the priming.
      if (t.key !== 'bare' && process.env.BENCH_PRIME !== '0') {
        const primedMs = await prime(port, `${t.key}-${round}`);
        if (process.env.BENCH_DEBUG) console.log(`${t.label}: primed in ${(primedMs / 1000).toFixed(1)} s`);
      }
      // Warm-up, not counted: it also waits for the platform's slow answers, so that the code after
      // them (cards, replies) is loaded before the measured run.
      await load(port, b, Number(process.env.BENCH_WARMUP ?? 100));
      await new Promise((r) => setTimeout(r, latencyMs + 2_000));
      const before = heapDir ? await heapSnapshot(child, port, heapDir) : undefined;
      // With BENCH_DEBUG, when the measured load ran, in ms since the app started (as `--trace-gc`
      // prints its collections' times), to pick out its collections.
      const loadFrom = performance.now() - started;
      const cpuBefore = { app: cpuMs(child.pid), backends: cpuMs(backends.pid) };
      const run = await load(port, b, total);
      const cpu = {
        app: cpuMs(child.pid) - cpuBefore.app,
        backends: cpuMs(backends.pid) - cpuBefore.backends,
      };
      if (process.env.BENCH_DEBUG)
        console.log(
          `${t.label}: pid ${child.pid}, measured from ${loadFrom.toFixed(0)} to ${(performance.now() - started).toFixed(0)} ms`,
        );
      if (heapDir && before) {
        // Right after the load: as shipped, its requests wait for the budget; lifted, for the platform.
        const after = await heapSnapshot(child, port, heapDir);
        console.log(`${t.label}, round ${round}:`);
        printDiff(diffCounts(countObjects(before), countObjects(after), total));
      }
      runs[t.label] = [
        ...(runs[t.label] ?? []),
        { ...run, idle, after: rssMb(child.pid as number), cpu: cpu.app, backendsCpu: cpu.backends },
      ];
      console.log(`round ${round}/${rounds}  ${t.label}: p50 ${ms(run.p50)}, p99 ${ms(run.p99)}`);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((x, y) => x - y);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  };
  const results: Record<
    string,
    Run & { idle: number; after: number; cpu: number; backendsCpu: number; p99s: number[] }
  > = {};
  for (const [label, rs] of Object.entries(runs)) {
    const of = (k: keyof Run | 'idle' | 'after' | 'cpu' | 'backendsCpu') => median(rs.map((r) => r[k]));
    results[label] = {
      p50: of('p50'),
      p99: of('p99'),
      max: Math.max(...rs.map((r) => r.max)),
      over3s: rs.reduce((n, r) => n + r.over3s, 0),
      failed: rs.reduce((n, r) => n + r.failed, 0),
      idle: of('idle'),
      after: of('after'),
      cpu: of('cpu'),
      backendsCpu: of('backendsCpu'),
      p99s: rs.map((r) => r.p99),
    };
  }
  backends.kill('SIGTERM');

  console.table(
    Object.fromEntries(
      Object.entries(results).map(([label, r]) => [
        label,
        {
          'p50 (median)': ms(r.p50),
          'p99 (median)': ms(r.p99),
          'p99 of each round': r.p99s.map((v) => v.toFixed(0)).join(' / '),
          max: ms(r.max),
          '> 3 s': r.over3s,
          'non-200': r.failed,
          'RSS idle': `${r.idle.toFixed(0)} MB`,
          'RSS after': `${r.after.toFixed(0)} MB`,
          // CPU used while measured (medians), by the app and by the backends on its core.
          'CPU app': `${r.cpu.toFixed(0)} ms`,
          'CPU backends': `${r.backendsCpu.toFixed(0)} ms`,
        },
      ]),
    ),
  );
  const bare = results[targets[0].label];
  for (const t of targets.slice(1)) {
    const r = results[t.label];
    if (!bare || !r) continue;
    const ratio = r.p99 / Math.max(bare.p99, 0.001);
    const checks = [
      [`p99 (median of ${rounds}) ${ms(r.p99)} <= 100 ms`, r.p99 <= 100],
      [`p99 (median of ${rounds}) ${ratio.toFixed(2)}x the bare app's ${ms(bare.p99)} <= 1.5x`, ratio <= 1.5],
      [`${r.over3s} requests over 3 s (target 0)`, r.over3s === 0],
      [`${r.failed} non-200 answers (target 0)`, r.failed === 0],
    ] as const;
    for (const [what, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'}  ${t.label}: ${what}`);
  }
}

await main();
