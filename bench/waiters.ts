import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createPlatformClient } from '../src/platform/client.js';
import { RateBudget } from '../src/platform/rate-budget.js';
import { countObjects, diffCounts, printDiff } from './heap-count.js';

/*
 * What one request waiting for the platform's rate budget keeps alive, counted in heap snapshots
 * (`npx tsx bench/waiters.ts`, WAITERS=n, 5,000 by default): N waiters on the budget alone, with and
 * without an abort signal, then N calls of the platform client (`getConference`, a person's) waiting
 * behind a spent budget of one request a minute. Each line: promises, closures and other objects per
 * waiter, and the kinds that grew most. The same count for a whole request of the bot under load is
 * `BENCH_HEAP=1` of `bench/run.ts`.
 */

const n = Number(process.env.WAITERS ?? 5_000);
const dir = mkdtempSync(join(tmpdir(), 'confdesk-waiters-'));
/** Keeps the promises alive, as their awaiting callers would. */
const held: unknown[] = [];

async function measure(label: string, start: () => void): Promise<void> {
  const before = writeHeapSnapshot(join(dir, `${label}-before.heapsnapshot`));
  start();
  await new Promise((r) => setTimeout(r, 50));
  const after = writeHeapSnapshot(join(dir, `${label}-after.heapsnapshot`));
  console.log(`${label} (${n} waiting):`);
  const d = diffCounts(countObjects(before), countObjects(after), n);
  printDiff({ ...d, top: d.top.slice(0, 8) });
}

const budget = new RateBudget({ perWindow: 1, interactiveReserve: 0 });
await budget.acquire('interactive');
await measure('budget.acquire', () => {
  for (let i = 0; i < n; i++) held.push(budget.acquire('interactive').catch(() => undefined));
});
const signal = new AbortController().signal;
await measure('budget.acquire with a signal', () => {
  for (let i = 0; i < n; i++) held.push(budget.acquire('interactive', signal).catch(() => undefined));
});
budget.close();

// Nothing listens there: the one request the budget lets through fails at once; the rest wait.
const client = createPlatformClient({
  baseUrl: 'http://127.0.0.1:9',
  credentials: { kind: 'token', token: 'bench' },
  rateLimitPerMinute: 1,
  maxAttempts: 1,
});
await client.getMe().catch(() => undefined);
await measure('client.getConference', () => {
  for (let i = 0; i < n; i++)
    held.push(client.getConference({ conferenceId: String(i) }).catch(() => undefined));
});
await client.close();
rmSync(dir, { recursive: true, force: true });
