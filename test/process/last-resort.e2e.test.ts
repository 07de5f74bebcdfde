import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { eventually } from '../helpers/bot.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';

/*
 * The last resort in the bot as `npm start` runs it (dist/main.js): a preloaded fixture makes an
 * error no handler catches on SIGUSR2 (test/fixtures/escapes.mjs). A rejection nobody awaits is
 * logged and counted in /metrics, and the bot keeps serving; a throw stops it gracefully, exit 1.
 */

let slack: SlackDouble;
let dataDir: string;
beforeAll(async () => {
  slack = await new SlackDouble().start();
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-last-resort-'));
});
afterEach(() => killAll());
afterAll(async () => {
  await slack.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const escaped = async (url: string, kind: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`confdesk_escaped_errors_total\\{kind="${kind}"\\} (\\d+)`).exec(text)?.[1]);
};

describe('an error no handler caught, in the running bot', () => {
  it('a rejection: logged, counted, the bot stays up; a throw: logged, a graceful stop, exit 1', async () => {
    const bot = spawnBot({
      SLACK_BOT_TOKEN: 'xoxb-last-resort-test',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: '0',
      DATA_DIR: dataDir,
      METRICS: 'on',
      NODE_OPTIONS: `--import ${resolve('test/fixtures/escapes.mjs')}`,
    });
    const url = `http://127.0.0.1:${await bot.port}`;
    expect(await escaped(url, 'unhandledRejection')).toBe(0);

    bot.child.kill('SIGUSR2');
    await eventually(async () => (await escaped(url, 'unhandledRejection')) === 1, 10_000);
    // The counter is read at once; the log line reaches this process through a pipe, a moment later.
    await eventually(() => bot.output().includes('a rejected promise nobody awaited'), 5_000);
    expect(bot.output()).toContain('a rejected promise nobody awaited: its work is lost; confdesk stays up');
    expect(bot.output()).toContain('escape test: a rejection nobody awaits');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    bot.child.kill('SIGUSR2');
    expect(await bot.exited).toBe(1);
    expect(bot.output()).toContain(
      'an error escaped every handler: confdesk stops for its supervisor to restart it',
    );
    expect(bot.output()).toContain('escape test: a throw in a timer');
    expect(bot.output()).toMatch(/"signal":"uncaughtException".*shutting down/);
  }, 60_000);
});
