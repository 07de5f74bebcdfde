import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';

/*
 * Behind the proxy, /healthz, /readyz and /metrics are internal only if the bot listens on loopback:
 * the proxy's 404 does not stop anyone who reaches PORT directly. The shipped unit sets
 * HOST=127.0.0.1 and the docs say so; a bot started with the unit's environment answers on
 * 127.0.0.1 and on no other address of the host. 127.0.0.2 is loopback too (all of 127/8 is), but a
 * server bound to 127.0.0.1 does not take it, while one on every interface does: an address every
 * Linux host has, to tell the two apart.
 */

const unit = readFileSync('deploy/confdesk.service', 'utf8');
const deployment = readFileSync('docs/deployment.md', 'utf8');
const readme = readFileSync('README.md', 'utf8');
const envExample = readFileSync('.env.example', 'utf8');

/** The unit's `Environment=NAME=value` lines. */
const unitEnvironment = Object.fromEntries(
  [...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
);

/** This host's other addresses (IPv4, not loopback): none in a bare network namespace. */
const otherAddresses = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .filter((a) => a.family === 'IPv4' && !a.internal)
  .map((a) => a.address);

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

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

async function listening(extra: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-listen-'));
  dirs.push(dataDir);
  const bot = spawnBot({
    SLACK_BOT_TOKEN: 'xoxb-listen-test',
    SLACK_SIGNING_SECRET: 'secret',
    SLACK_API_URL: slack.apiUrl,
    PLATFORM_URL: 'simulator',
    PORT: '0',
    ...extra,
    DATA_DIR: dataDir,
  });
  const port = await bot.port;
  const reached = {
    loopback: await accepts('127.0.0.1', port),
    otherLoopback: await accepts('127.0.0.2', port),
    other: await Promise.all(otherAddresses.map((a) => accepts(a, port))),
  };
  bot.child.kill('SIGTERM');
  expect(await bot.exited).toBe(0);
  return reached;
}

describe('the listen address, as shipped', () => {
  it('the unit sets HOST=127.0.0.1, and the docs say it for every production form', () => {
    expect(unitEnvironment.HOST).toBe('127.0.0.1');
    // The run line of both docs, and the reason in docs/deployment.md.
    expect(deployment).toMatch(/^export HOST=127\.0\.0\.1\b/m);
    expect(readme).toMatch(/^HOST=127\.0\.0\.1 node --enable-source-maps dist\/main\.js/m);
    expect(deployment).toContain('**Listen on 127.0.0.1 behind a proxy.**');
    // Docker: the port published for the host only, never on every interface.
    expect(deployment).toContain('-p 127.0.0.1:3000:3000');
    expect(deployment).not.toMatch(/-p 3000:3000 -v/);
    expect(envExample).toContain('docker run -p 127.0.0.1:3000:3000');
    // The image's own example too; and it leaves HOST unset (Docker forwards to the container's address).
    const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
    expect(dockerfile).toContain('docker run --env-file .env -p 127.0.0.1:3000:3000 ');
    expect(dockerfile).not.toMatch(/-p 3000:3000 -v/);
    expect(dockerfile).not.toMatch(/^ENV .*\bHOST=/m);
  });

  it("a bot with the unit's environment answers on 127.0.0.1 and on no other address; without HOST, on every one", async () => {
    if (!otherAddresses.length)
      console.warn('listen address: this host has no address besides loopback; 127.0.0.2 is checked alone');
    const asShipped = await listening(unitEnvironment);
    console.log(`HOST=127.0.0.1 reached on: ${JSON.stringify(asShipped)} (others: ${otherAddresses})`);
    expect(asShipped).toEqual({
      loopback: true,
      otherLoopback: false,
      other: otherAddresses.map(() => false),
    });

    // The check can fail: the default (every interface) is reached on each of them.
    const { HOST: _, ...withoutHost } = unitEnvironment;
    const everywhere = await listening(withoutHost);
    expect(everywhere).toEqual({
      loopback: true,
      otherLoopback: true,
      other: otherAddresses.map(() => true),
    });
  }, 60_000);
});
