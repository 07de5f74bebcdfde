import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import type { RequestLogEntry } from '../../src/sim/http.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';
import { botEnv, sleep, until } from '../helpers/event-stream.js';
import { sendCommand } from '../helpers/slack-requests.js';

/**
 * Issue 38 §1: the platform counts a previous process's requests in its window too. The bot as real
 * child processes (dist/main.js) against the simulator at its real 10 a minute: a first process
 * spends 8 (or all 10) of the window, is stopped as a supervisor stops it, and the next one starts at
 * once on the same store. A person's `/ticket show` in the new process's first seconds gets its card
 * within 2 s (8 of 10 spent), or, with the window full, is told within 2 s when it will come.
 */
let slack: SlackDouble;
const dirs: string[] = [];
beforeAll(async () => {
  slack = await new SlackDouble().start();
  slack.addUser({ id: 'UADMIN', email: 'admin@acme.example' });
});
afterEach(() => killAll());
afterAll(async () => {
  await slack.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const secret = 'child-secret';

/** The bot's requests in the simulator's log (no one else calls its API here). */
const botRequests = (sim: Simulator): RequestLogEntry[] =>
  sim.requests.filter((r) => r.path.startsWith('/api/v3/'));

async function show(port: number, reference: string, channel: string) {
  const responseUrl = slack.responseUrl();
  const asked = Date.now();
  const answer = await sendCommand(`http://127.0.0.1:${port}`, secret, {
    command: '/ticket',
    text: `show ${reference}`,
    user_id: 'UADMIN',
    channel_id: channel,
    team_id: slack.teamId,
    response_url: responseUrl,
    trigger_id: `trigger-${Math.random()}`,
  });
  return { asked, answer: await answer.text(), responseUrl };
}

const cardIn = (channel: string, reference: string) =>
  slack.messages.some((m) => m.channel === channel && JSON.stringify(m.blocks ?? '').includes(reference));

describe.each([
  { headers: 'X-RateLimit-Remaining and -Reset', quirks: {}, c: 'A' },
  { headers: 'X-RateLimit-Reset alone (as documented)', quirks: { onlyResetHeader: true }, c: 'B' },
])('a restart in the platform window, the simulator sending $headers', ({ quirks, c }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.close();
  });

  /**
   * A first process on a fresh store: its start, then a person's shows (one request each once the
   * person is known), until it has spent `spend` of the window; then stopped with SIGTERM.
   */
  async function spendThenStop(spend: number) {
    sim = await createSimulator({ rateLimit: 10, quirks, requestLog: 100_000 });
    const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-restart-budget-'));
    dirs.push(dataDir);
    const env = botEnv(sim, slack, { DATA_DIR: dataDir, PLATFORM_RATE_LIMIT: '10', REMINDER_INTERVAL: '0' });
    const references = [...sim.state.tickets.values()]
      .map((t) => t.reference)
      .filter((r): r is string => r?.startsWith('ACME-') === true);
    const first = spawnBot(env);
    const firstPort = await first.port;
    let i = 0;
    while (botRequests(sim).length < spend) {
      const reference = references[i++] as string;
      await show(firstPort, reference, `CFIRST${c}`);
      await until(() => cardIn(`CFIRST${c}`, reference), 10_000);
      await sleep(200);
    }
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const spent = botRequests(sim).length;
    expect(spent).toBeGreaterThanOrEqual(spend);
    return { env, references, spent };
  }

  it('after a process that used 8 of the 10, a person’s request in the next one’s first seconds gets its data within 2 s', async () => {
    const { env, references, spent } = await spendThenStop(8);
    expect(spent).toBe(8);
    const second = spawnBot(env);
    const port = await second.port;
    const reference = references.at(-1);
    if (!reference) throw new Error('the simulator has tickets');
    const { asked } = await show(port, reference, `CSECOND${c}`);
    const shown = await until(() => cardIn(`CSECOND${c}`, reference), 10_000);
    const waited = Date.now() - asked;
    console.log(
      'second process',
      botRequests(sim)
        .slice(spent)
        .map((r) => `${r.at - asked} ${r.method} ${r.path} ${r.status}`),
    );
    if (!shown) console.log(second.output(), JSON.stringify(slack.responses.slice(-3)));
    expect(shown).toBe(true);
    console.log(`a person's /ticket show in the new process: card after ${waited} ms`);
    expect(botRequests(sim).filter((r) => r.status === 429)).toEqual([]);
    // The start's check and the ticket's read at most: the person's account, the bot's profile and
    // the enterprise's people came from what the first process kept.
    expect(botRequests(sim).length - spent).toBeLessThanOrEqual(2);
    expect(waited).toBeLessThan(2_000);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('after a process that used all 10, the next one starts at once and tells a person within 2 s when the answer will come', async () => {
    const { env, references, spent } = await spendThenStop(10);
    const started = Date.now();
    const second = spawnBot(env);
    const port = await second.port;
    // The start did not wait for the window (its check answered from the profile kept in the store).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(second.output()).toContain('connected to the video platform');
    const reference = references.at(-1) as string;
    const { asked, answer } = await show(port, reference, `CTOLD${c}`);
    const toldMs = Date.now() - asked;
    const about = /about (\d+) s/.exec(answer);
    console.log(`window spent (${spent}): told after ${toldMs} ms: ${answer}`);
    expect(toldMs).toBeLessThan(2_000);
    expect(about).not.toBeNull();
    expect(await until(() => cardIn(`CTOLD${c}`, reference), 75_000)).toBe(true);
    const cardMs = Date.now() - asked;
    console.log(`the card came after ${cardMs} ms (told: about ${about?.[1]} s)`);
    // Honest: the card comes about when it was said to (within 5 s of it).
    expect(Math.abs(cardMs / 1000 - Number(about?.[1]))).toBeLessThan(5);
    expect(botRequests(sim).filter((r) => r.status === 429)).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);
});
