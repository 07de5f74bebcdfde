import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { eventually } from '../helpers/bot.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';

/*
 * Distribution mode started as production starts it (the built bot under Node's own ESM loader, no
 * test transform): `@slack/oauth` is a CommonJS package whose `ClearStateStore` Node's loader does not
 * list among its named exports, so a named import of it stopped the process before it listened.
 */

const dirs: string[] = [];
afterAll(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('distribution mode as a process', () => {
  it('starts and serves the "Add to Slack" page', { timeout: 60_000 }, async () => {
    const slack = await new SlackDouble().start();
    const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-dist-process-'));
    dirs.push(dataDir);
    // A free port chosen here: distribution mode's start line is not the single workspace's.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    try {
      const bot = spawnBot({
        SLACK_SIGNING_SECRET: 'dist-process-signing-secret',
        SLACK_CLIENT_ID: '111.222',
        SLACK_CLIENT_SECRET: 'client-secret',
        SLACK_STATE_SECRET: 'state-secret-for-the-tests',
        CONFDESK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PUBLIC_URL: 'https://confdesk.example',
        SLACK_API_URL: slack.apiUrl,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      const listening = await eventually(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.ok,
            () => bot.child.exitCode !== null && 'exited',
          ),
        15_000,
      ).catch(() => false);
      expect(listening, bot.output()).toBe(true);
      const page = await fetch(`http://127.0.0.1:${port}/slack/install`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('oauth/v2/authorize?');
      bot.child.kill('SIGTERM');
      expect(await bot.exited).toBe(0);
    } finally {
      await slack.stop();
    }
  });
});
