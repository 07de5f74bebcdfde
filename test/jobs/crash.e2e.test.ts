import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { openStore } from '../../src/store/store.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';
import {
  allDelivered,
  botEnv,
  exactlyOnce,
  hookTo,
  sleep,
  until,
  type Watch,
  watchTickets,
} from '../helpers/event-stream.js';

/**
 * The bot as a real child process (dist/main.js) against the simulator and the Slack double, killed
 * with SIGKILL at random moments while it delivers, then restarted: every ticket event and every card
 * must be in Slack exactly once. Slack's answers to chat.postMessage take 150 ms after the message
 * exists, so some kills fall between "posted" and "recorded as posted".
 */
const kills = Number(process.env.CRASH_KILLS ?? 30);
let sim: Simulator;
let slack: SlackDouble;
let dataDir: string;
let watches: Watch[];

beforeAll(async () => {
  sim = await createSimulator({ rateLimit: 0 });
  slack = await new SlackDouble().start();
  slack.latency.set('chat.postMessage', 150);
  slack.addUser({ id: 'UADMIN', email: 'admin@acme.example' }); // who the watches are added by
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-crash-'));
  const store = await openStore({ dataDir });
  watches = await watchTickets(store, sim);
  await store.close();
});
afterAll(async () => {
  killAll();
  await slack.stop();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it(`every event reaches Slack exactly once across ${kills} SIGKILLs during delivery`, async () => {
    const env = botEnv(sim, slack, { DATA_DIR: dataDir });
    let killedMidDelivery = 0;
    for (let k = 0; k < kills; k++) {
      const bot = spawnBot(env);
      hookTo(sim, await bot.port);
      // New events on the platform while it runs (their webhooks may die with it: the scans reconcile).
      for (let j = 0; j < 2; j++) {
        const w = watches[Math.floor(Math.random() * watches.length)] as Watch;
        sim.state.addEvent(w.ticket, `crash.event${k}`, 'agent');
      }
      const before = slack.messages.length;
      if (await until(() => slack.messages.length > before, 4_000)) killedMidDelivery++;
      await sleep(Math.random() * 400);
      bot.child.kill('SIGKILL');
      await bot.exited;
    }
    expect(killedMidDelivery).toBeGreaterThan(kills / 2); // most kills happened while it was posting

    const last = spawnBot(env);
    await last.port;
    expect(await until(() => allDelivered(slack, watches), 60_000)).toBe(true);
    await sleep(1_500); // a little longer: anything extra would show now
    last.child.kill('SIGTERM');
    expect(await last.exited).toBe(0);
    expect(exactlyOnce(slack, watches)).toEqual([]);
    // The unknown outcomes were resolved by looking, never by posting blindly.
    const looked =
      slack.callsOf('conversations.replies').length + slack.callsOf('conversations.history').length;
    expect(looked).toBeGreaterThan(0);
    const store = await openStore({ dataDir });
    const statuses = new Set<string>();
    for (const { ticket } of watches)
      for (const i of await store.outboxOf(String(ticket.id))) statuses.add(i.status);
    await store.close();
    expect([...statuses]).toEqual(['delivered']);
  }, 240_000);
});
