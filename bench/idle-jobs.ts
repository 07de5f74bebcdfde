/*
 * npx tsx bench/idle-jobs.ts [N=100] [seconds=60] — the CPU N idle workspaces cost.
 *
 * N whole bots as distribution mode builds them (createConfdesk: services, Bolt on its own port, the
 * jobs at the default pace, POLL_INTERVAL 30 s), each over its own embedded store in a temp folder,
 * all pointing at one simulator and one Slack double in this process. Nothing is subscribed, no
 * digest is set, nothing waits: the workspaces are idle. After a warm-up (the first runs), the
 * process's CPU time over `seconds`, as a share of one core, in total and per workspace, and the
 * platform requests the jobs made meanwhile. The simulator's and the double's own work is in the
 * figure: it is what the jobs' requests cost.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Confdesk, createConfdesk } from '../src/confdesk.js';
import { SlackDouble } from '../src/dev/slack-double.js';
import { createLogger } from '../src/observability/logger.js';
import { createPlatformClient } from '../src/platform/client.js';
import { createSimulator } from '../src/sim/server.js';
import { openStore, type Store } from '../src/store/store.js';

const n = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 60);
const warmUpMs = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sim = await createSimulator({ rateLimit: 0 });
const slack = await new SlackDouble().start();
const root = mkdtempSync(join(tmpdir(), 'confdesk-idle-bench-'));
const logger = createLogger('silent');
const bots: { confdesk: Confdesk; store: Store }[] = [];
for (let i = 0; i < n; i++) {
  const store = await openStore({ dataDir: join(root, `w${i}`) });
  const platform = createPlatformClient({
    baseUrl: sim.url,
    credentials: { kind: 'token', token: sim.adminToken },
  });
  const confdesk = createConfdesk({
    slack: { botToken: `xoxb-idle-${i}`, signingSecret: 'idle-bench', apiUrl: slack.apiUrl, port: 0 },
    platform,
    store,
    logger,
    jobs: { pollIntervalMs: 30_000 },
  });
  await confdesk.start();
  bots.push({ confdesk, store });
}
await sleep(warmUpMs);
const requests = sim.requests.length;
const cpu = process.cpuUsage();
const started = performance.now();
await sleep(seconds * 1000);
const used = process.cpuUsage(cpu);
const elapsed = performance.now() - started;
const share = ((used.user + used.system) / 1000 / elapsed) * 100;
const perMinute = ((sim.requests.length - requests) / elapsed) * 60_000;
console.log(
  `${n} idle workspaces, ${seconds} s: ${share.toFixed(2)}% of a core ` +
    `(${(share / n).toFixed(4)}% per workspace), ${perMinute.toFixed(1)} platform requests a minute`,
);
for (const b of bots) {
  await b.confdesk.stop();
  await b.store.close();
}
await slack.stop();
await sim.close();
rmSync(root, { recursive: true, force: true });
process.exit(0);
