import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';

/*
 * The built bot (dist/, as `npm start` and the image run it) says which release it is: /readyz, its
 * start line, the User-Agent the platform sees, and `npm run doctor`'s first line — each read from
 * package.json two levels above dist/observability, as in a production tree.
 */

const root = resolve(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const userAgent = `confdesk/${version} (node ${process.version})`;

let sim: Simulator;
let slack: SlackDouble;
let dataDir: string;
beforeAll(async () => {
  sim = await createSimulator({ rateLimit: 0 });
  slack = await new SlackDouble().start();
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-version-'));
});
afterAll(async () => {
  await slack.stop();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});
afterEach(killAll);

const env = () => ({
  SLACK_BOT_TOKEN: 'xoxb-version-test',
  SLACK_SIGNING_SECRET: 'version-secret',
  SLACK_API_URL: slack.apiUrl,
  PLATFORM_URL: sim.url,
  PLATFORM_TOKEN: sim.adminToken,
  PORT: '0',
  DATA_DIR: dataDir,
});

describe('the release the built bot runs', () => {
  it('is in /readyz, in the start line, and in the User-Agent of its platform requests', async () => {
    const from = sim.requests.length;
    const bot = spawnBot(env());
    const port = await bot.port;
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    const body = (await res.json()) as { ok: boolean; version?: string };
    expect(res.status).toBe(200);
    expect(body.version).toBe(version);
    const started = bot
      .output()
      .split('\n')
      .find((line) => line.includes('listening on port'));
    expect(JSON.parse(started ?? '{}')).toMatchObject({ port, version });
    // The start's check of /users/me at least; every request the same.
    const sent = sim.requests.slice(from);
    expect(sent.map((r) => r.path)).toContain('/api/v3/users/me');
    expect(new Set(sent.map((r) => r.userAgent))).toEqual(new Set([userAgent]));
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  });

  it('is the first line of npm run doctor (from dist/), and its probe’s User-Agent', async () => {
    const from = sim.requests.length;
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'dist/doctor/cli.js')], {
      cwd: dataDir,
      env: { PATH: process.env.PATH ?? '', ...env() },
    }).catch((e: { stdout: string }) => e);
    expect(stdout.split('\n')[0]).toBe(`confdesk ${version} doctor (node ${process.version})`);
    expect(stdout).toContain('platform request(s) spent');
    const sent = sim.requests.slice(from);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.map((r) => r.userAgent))).toEqual(new Set([userAgent]));
  });
});
