import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { openStore } from '../../src/store/store.js';

/*
 * `npm run doctor` blocks on what `npm start` stops on: Slack credentials without a platform (the
 * built-in simulator would serve demo data), a bot token without its signing secret, distribution
 * mode without the signing secret. Run as the operator runs it (a child process, no .env).
 */

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
let slack: SlackDouble;
let dir: string;

beforeAll(async () => {
  slack = await new SlackDouble().start();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-doctor-refusals-'));
  await (await openStore({ dataDir: dir })).close();
});
afterAll(async () => {
  await slack.stop();
  rmSync(dir, { recursive: true, force: true });
});

const doctor = (env: Record<string, string>) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/doctor/cli.ts')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent', ...env },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string }) => e,
  );
const slackEnv = () => ({
  SLACK_BOT_TOKEN: 'xoxb-doctor-refusals',
  SLACK_SIGNING_SECRET: 'doctor-refusals-secret',
  SLACK_API_URL: slack.apiUrl,
});
const blockingRows = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => /^\w+ +\S+ +BLOCKING /.test(l))
    .map((l) => l.split(/ {2,}/)[1]);

describe('npm run doctor: what npm start stops on is blocking', () => {
  it('Slack credentials without PLATFORM_URL: PLATFORM_URL is blocking, naming PLATFORM_URL=simulator', async () => {
    const { code, stdout } = await doctor(slackEnv());
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /configuration +PLATFORM_URL +BLOCKING +not set: set your video platform's base URL/,
    );
    expect(stdout).toContain('PLATFORM_URL=simulator');
    expect(stdout).toContain('the platform rows below checked the built-in simulator');
  });

  it('PLATFORM_URL=simulator: a note that says demo data, not blocking', async () => {
    const { stdout } = await doctor({ ...slackEnv(), PLATFORM_URL: 'simulator' });
    expect(stdout).toMatch(
      /configuration +platform +note +the built-in simulator with demo data \(PLATFORM_URL=simulator\)/,
    );
    expect(blockingRows(stdout)).not.toContain('PLATFORM_URL');
  });

  it('a bot token without SLACK_SIGNING_SECRET: SLACK_SIGNING_SECRET is blocking', async () => {
    const { SLACK_SIGNING_SECRET: _, ...tokenOnly } = slackEnv();
    const { code, stdout } = await doctor({ ...tokenOnly, PLATFORM_URL: 'simulator' });
    expect(code).toBe(1);
    expect(stdout).toMatch(/configuration +SLACK_SIGNING_SECRET +BLOCKING +not set: the Signing Secret/);
  });

  it('distribution mode without SLACK_SIGNING_SECRET: the configuration check blocks on it', async () => {
    const { code, stdout } = await doctor({
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 'client-secret-value',
      SLACK_STATE_SECRET: 'state-secret-value',
      CONFDESK_ENCRYPTION_KEY: 'a'.repeat(64),
      PUBLIC_URL: 'https://confdesk.example',
    });
    expect(code).toBe(1);
    expect(blockingRows(stdout)).toEqual(['SLACK_SIGNING_SECRET']);
    expect(stdout).toMatch(/configuration +SLACK_SIGNING_SECRET +BLOCKING +distribution mode verifies/);
    expect(stdout).not.toContain('client-secret-value');
  });
});
