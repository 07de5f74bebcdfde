import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../src/dev/slack-double.js';
import { eventually } from './helpers/bot.js';
import { spawnBot } from './helpers/child-bot.js';
import { sendCommand } from './helpers/slack-requests.js';

const run = promisify(execFile);

/**
 * What a production install holds: the built dist/ (from the global setup), the lockfile, the manifest
 * (the doctor reads it) and scripts/ (`npm run doctor|outbox` pick dist/ there), installed with
 * `npm ci --omit=dev`. deploy/Dockerfile's runtime stage copies the same list.
 */
const productionFiles = ['package.json', 'package-lock.json', 'manifest.yml', 'dist', 'scripts'];

/** The Dockerfile's CMD (its exec form), e.g. node --enable-source-maps dist/main.js. */
function startCommand(): string[] {
  const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')))?.[1];
  const argv = JSON.parse(cmd ?? 'null') as string[] | null;
  expect(argv?.[0], "the runtime stage's CMD runs node").toBe('node');
  return argv as string[];
}

const tree = mkdtempSync(join(tmpdir(), 'confdesk-production-'));
let slack: SlackDouble;
let install = { seconds: 0, megabytes: 0 };

beforeAll(async () => {
  slack = await new SlackDouble().start();
  for (const f of productionFiles) cpSync(f, join(tree, f), { recursive: true });
  const started = Date.now();
  // The npm cache is warm: only the registry (or nothing) is reached; better-sqlite3 builds its addon.
  await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: tree,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const { stdout } = await run('du', ['-sm', 'node_modules'], { cwd: tree });
  install = { seconds: Math.round((Date.now() - started) / 1000), megabytes: Number.parseInt(stdout, 10) };
}, 600_000);

afterAll(async () => {
  await slack?.stop();
  rmSync(tree, { recursive: true, force: true });
});

describe('a production install (npm ci --omit=dev on a built tree)', () => {
  it('holds no TypeScript, tsx nor esbuild, starts with node dist/main.js, is ready and answers a signed command; its tools run from dist/', async () => {
    console.log(
      `production install: npm ci --omit=dev took ${install.seconds} s, node_modules ${install.megabytes} MB`,
    );
    for (const dev of ['typescript', 'tsx', 'esbuild', 'vitest', '@biomejs/biome'])
      expect(existsSync(join(tree, 'node_modules', dev)), dev).toBe(false);

    const dataDir = join(tree, 'data');
    const env = {
      SLACK_BOT_TOKEN: 'xoxb-production-test',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      // The simulator by name: a production start without PLATFORM_URL stops.
      PLATFORM_URL: 'simulator',
      PORT: '0',
      DATA_DIR: dataDir,
      // Which of confdesk's modules the start loads (printed on stderr).
      NODE_OPTIONS: `--import ${resolve('test/fixtures/trace-loads.mjs')}`,
    };
    // Started as the image and the systemd unit start it (the last test checks they agree).
    const bot = spawnBot(env, { cwd: tree, args: startCommand().slice(1) });
    const port = await bot.port;
    const readyz = await eventually(async () => {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      return res.status === 200 && res;
    }, 10_000);
    expect(((await readyz.json()) as { ok: boolean }).ok).toBe(true);

    const ack = await sendCommand(`http://127.0.0.1:${port}`, 'secret', {
      command: '/conference',
      text: 'help',
      user_id: 'UPROD',
      channel_id: 'CPROD',
      team_id: 'T1',
      response_url: slack.responseUrl(),
      trigger_id: 't',
    });
    expect(ack.status).toBe(200);
    expect(await ack.text()).toContain('/conference');
    // PLATFORM_URL=simulator: the simulator is used, so it is loaded; the playground never is.
    expect(bot.output()).toContain('loaded: dist/sim/server.js');
    expect(bot.output()).not.toContain('loaded: dist/playground/');
    expect(bot.output()).not.toContain('xoxb-production-test');

    // SIGTERM to the PID a supervisor holds (node itself, as every documented form starts it): the
    // bot stops cleanly, and no node of it is left running.
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(() => process.kill(bot.child.pid as number, 0)).toThrow(/ESRCH/);

    // The maintenance commands, as an operator runs them in the production tree (no tsx, no src/).
    const toolEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, NODE_OPTIONS: '' };
    const outbox = await run('npm', ['run', '--silent', 'outbox', '--', 'dead'], { cwd: tree, env: toolEnv });
    expect(outbox.stdout).toContain('No dead letters');
    const doctor = await run('npm', ['run', '--silent', 'doctor'], { cwd: tree, env: toolEnv }).catch(
      (e: { stdout: string; code: number }) => e,
    );
    // It ran (exit 0, or 1 for a blocking row such as the double's missing scopes), not failed (2).
    expect(doctor.stdout).toContain('platform request(s) spent, none of them a write');
    expect('code' in doctor ? doctor.code : 0).toBeLessThan(2);
    const backup = await run('npm', ['run', '--silent', 'backup', '--', join(tree, 'backup')], {
      cwd: tree,
      env: toolEnv,
    });
    expect(backup.stdout).toContain(`Backed up ${dataDir} into ${join(tree, 'backup')}`);
    const restored = await run('npm', ['run', '--silent', 'restore', '--', join(tree, 'backup')], {
      cwd: tree,
      env: { ...toolEnv, DATA_DIR: join(tree, 'restored') },
    });
    expect(restored.stdout).toContain(`into ${join(tree, 'restored')}: 1 store(s)`);
  }, 120_000);

  it("is what deploy/Dockerfile's runtime stage holds: the same files, installed the same way", () => {
    const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const copied = [...runtime.matchAll(/^COPY (?:--from=\w+ )?(.+) \S+$/gm)]
      .flatMap((m) => (m[1] as string).split(' '))
      .map((f) => f.replace(/^\/src\/|^\/app\//, ''));
    expect(copied.sort()).toEqual(['node_modules', ...productionFiles].sort());
    expect(dockerfile).toContain('RUN npm ci --omit=dev --no-audit --no-fund');
    // What the first test starts is what the image and the systemd unit start.
    const unit = readFileSync('deploy/confdesk.service', 'utf8');
    expect(/^ExecStart=(.+)$/m.exec(unit)?.[1]?.split(' ')).toEqual(startCommand());
    // And what the docs' production forms start: node itself, never npm start (npm's PID does not
    // pass SIGTERM on to node through the script's shell: node would be orphaned).
    const command = startCommand().join(' ');
    const deployment = readFileSync('docs/deployment.md', 'utf8');
    expect(deployment).toMatch(new RegExp(`^${command.replaceAll('.', '\\.')}$`, 'm'));
    expect(readFileSync('README.md', 'utf8')).toMatch(
      new RegExp(`^HOST=127\\.0\\.0\\.1 ${command.replaceAll('.', '\\.')} `, 'm'),
    );
    expect(deployment).not.toContain('or: npm start');
    expect(deployment).toContain('**Under a supervisor, run node itself, not `npm start`.**');
    // A numeric user (Kubernetes' runAsNonRoot cannot check a name), not root, owning the volume.
    const user = /^USER (\d+):(\d+)$/m.exec(runtime);
    expect(user?.slice(1), 'USER uid:gid, in numbers').toEqual(['1000', '1000']);
    expect(runtime).toMatch(/^RUN mkdir -p \/data && chown 1000:1000 \/data$/m);
    expect(runtime.indexOf('chown 1000:1000 /data')).toBeLessThan(runtime.indexOf('USER 1000:1000'));
    expect(runtime).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtime).toMatch(/^ENV .*DATA_DIR=\/data\b/m);
  });
});
