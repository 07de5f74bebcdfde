import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../src/dev/slack-double.js';
import { openStore } from '../src/store/store.js';
import { eventually } from './helpers/bot.js';
import { killAll, spawnBot } from './helpers/child-bot.js';
import { idsOf } from './helpers/event-stream.js';

let slack: SlackDouble;
const dirs: string[] = [];
beforeAll(async () => {
  slack = await new SlackDouble().start();
});
afterEach(() => killAll());
afterAll(async () => {
  await slack.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const channels = ['CSTOP1', 'CSTOP2', 'CSTOP3'];
const perChannel = 4;

/** A store with 12 ticket events waiting in the outbox, 4 in each of 3 channels (4 tickets). */
async function seededStore(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-shutdown-'));
  dirs.push(dataDir);
  const store = await openStore({ dataDir, databaseUrl: undefined });
  await store.advance(
    channels.flatMap((channel) =>
      Array.from({ length: perChannel }, (_, i) => ({
        // One ticket each: lines of one thread waiting together would go out as one message.
        ticketId: `7${i}`,
        eventId: `${channel}-e${i}`,
        channel,
        payload: { eventName: 'ticket.note', timestamp: '2027-01-01T09:59:00Z', source: 'agent' },
      })),
    ),
  );
  await store.close();
  return dataDir;
}

/** How many messages the double holds for each event, by event id. */
const postsByEvent = () => {
  const count = new Map<string, number>();
  for (const m of slack.messages) for (const id of idsOf(m)) count.set(id, (count.get(id) ?? 0) + 1);
  return count;
};

const env = (dataDir: string, extra: Record<string, string> = {}) => ({
  SLACK_BOT_TOKEN: 'xoxb-shutdown-test',
  SLACK_SIGNING_SECRET: 'secret',
  SLACK_API_URL: slack.apiUrl,
  PLATFORM_URL: 'simulator',
  PORT: '0',
  DATA_DIR: dataDir,
  ...extra,
});

describe('graceful shutdown (SIGTERM) with deliveries in flight', () => {
  it('exits within SHUTDOWN_TIMEOUT_S, says what it left, and the next start posts every event exactly once', async () => {
    const dataDir = await seededStore();
    // Slack answers each post 4 s after taking it: longer than the shutdown's bound.
    slack.latency.set('chat.postMessage', 4_000);
    const bot = spawnBot(env(dataDir, { SHUTDOWN_TIMEOUT_S: '1' }));
    await bot.port;
    // Each channel's first post is under way (taken by Slack, its answer not back yet).
    await eventually(() => postsByEvent().size >= channels.length, 15_000);
    const signalled = Date.now();
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const stopMs = Date.now() - signalled;
    console.log(`shutdown with posts in flight, SHUTDOWN_TIMEOUT_S=1: exited after ${stopMs} ms`);
    expect(stopMs).toBeLessThan(1_000 + 2_000);
    expect(bot.output()).toMatch(/left for the next start: .*outbox item\(s\) released/);
    expect(bot.output()).toContain('post(s) still under way (checked in Slack at the next start');

    // The next start takes them at once (no lease to run out) and posts each event once.
    slack.latency.clear();
    const restarted = Date.now();
    const again = spawnBot(env(dataDir));
    await again.port;
    await eventually(() => postsByEvent().size === channels.length * perChannel, 20_000);
    console.log(`after the restart, every event posted within ${Date.now() - restarted} ms`);
    // Let any late duplicate show up before counting.
    await new Promise((r) => setTimeout(r, 1_500));
    expect([...postsByEvent().values()].every((n) => n === 1)).toBe(true);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('nothing left for the next start');
  }, 60_000);

  it('within the bound, lets the posts under way finish and releases the rest', async () => {
    const dataDir = await seededStore();
    slack.messages.length = 0;
    slack.latency.set('chat.postMessage', 1_000);
    const bot = spawnBot(env(dataDir, { SHUTDOWN_TIMEOUT_S: '10' }));
    await bot.port;
    await eventually(() => postsByEvent().size >= 1, 15_000);
    const signalled = Date.now();
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const stopMs = Date.now() - signalled;
    console.log(`shutdown with 1 s posts in flight, SHUTDOWN_TIMEOUT_S=10: exited after ${stopMs} ms`);
    expect(stopMs).toBeLessThan(4_000);
    expect(bot.output()).toMatch(/left for the next start: \d+ outbox item\(s\) released/);
    expect(bot.output()).not.toContain('still under way');
    slack.latency.clear();
    const again = spawnBot(env(dataDir));
    await again.port;
    await eventually(() => postsByEvent().size === channels.length * perChannel, 20_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect([...postsByEvent().values()].every((n) => n === 1)).toBe(true);
  }, 60_000);
});

describe('graceful shutdown (SIGTERM) with a job waiting for the platform budget', () => {
  it('ends the wait at once: exits within 2 s, and logs nothing above info', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-shutdown-budget-'));
    dirs.push(dataDir);
    // Two requests a minute: the start's checks take them, so the first scan waits for the budget.
    const bot = spawnBot(env(dataDir, { PLATFORM_RATE_LIMIT: '2', METRICS: 'on', SHUTDOWN_TIMEOUT_S: '10' }));
    const port = await bot.port;
    const queued = async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const lines = text.split('\n').filter((l) => l.startsWith('confdesk_platform_budget_queued{'));
      return lines.reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    };
    // A background job is waiting for the budget (not just about to).
    await eventually(async () => (await queued()) > 0, 15_000);
    const signalled = Date.now();
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const stopMs = Date.now() - signalled;
    console.log(
      `shutdown with a job waiting for the budget (SHUTDOWN_TIMEOUT_S=10): exited after ${stopMs} ms`,
    );
    expect(stopMs).toBeLessThan(2_000);
    const lines = bot
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.some((l) => /stopped after/.test(l.msg))).toBe(true);
    expect(lines.filter((l) => l.level > 30).map((l) => `${l.level} ${l.msg}`)).toEqual([]);
  }, 60_000);
});
