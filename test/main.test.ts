import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../src/dev/slack-double.js';

const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-main-'));

/** Runs the bot as `npm start` does (dist/, built by the global setup), with exactly the given environment (its store in a temp dir). */
function runBot(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['dist/main.js'], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
const collect = (child: ChildProcess) => {
  const out = { text: '' };
  child.stdout?.on('data', (c) => {
    out.text += c;
  });
  child.stderr?.on('data', (c) => {
    out.text += c;
  });
  return out;
};
const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

let slack: SlackDouble;
beforeAll(async () => {
  slack = await new SlackDouble().start();
});
afterAll(async () => {
  await slack.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('without Slack credentials, exits naming each missing variable and where to get it', async () => {
    const child = runBot({});
    const out = collect(child);
    expect(await exited(child)).toBe(1);
    expect(out.text).toContain('SLACK_BOT_TOKEN');
    expect(out.text).toContain('SLACK_SIGNING_SECRET');
    expect(out.text).toContain('manifest.yml');
  });

  it('with credentials, starts the built-in simulator and the Slack app, then stops cleanly on SIGTERM', async () => {
    const child = runBot({
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
    });
    const out = collect(child);
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /listening on port (\d+)/.exec(out.text);
        if (m) {
          clearInterval(timer);
          resolve(Number(m[1]));
        }
      }, 50);
      child.on('exit', () => reject(new Error(out.text)));
    });
    expect(out.text).toContain('built-in platform simulator');
    expect(out.text).toContain('connected to the video platform');
    expect(out.text).not.toContain('xoxb-main-test');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });
});
