import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Confdesk, createConfdesk } from '../../src/confdesk.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStore, type Store } from '../../src/store/store.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';
import { sendCommand } from '../helpers/slack-requests.js';

const secret = 'test-signing-secret';
let slack: SlackDouble;
let bot: Confdesk;
let url: string;
let platform: PlatformFixture;

let store: Store;
/** The lines the bot logs at warn and above. */
const warnings: { msg: string }[] = [];

beforeAll(async () => {
  store = await openStore({ dataDir: mkdtempSync(join(tmpdir(), 'confdesk-receiver-')) });
  platform = await startPlatform();
  slack = await new SlackDouble().start();
  bot = createConfdesk({
    slack: { botToken: 'xoxb-test', signingSecret: secret, apiUrl: slack.apiUrl, port: 0 },
    logger: createLogger('warn', {
      write: (l: string) => void warnings.push(JSON.parse(l) as { msg: string }),
    }),
    platform: platform.client,
    store,
  });
  url = `http://127.0.0.1:${await bot.start()}`;
});
afterAll(async () => {
  await bot.stop();
  await slack.stop();
  await platform.close();
  await store.close();
});

const command = { command: '/conference', text: 'help', user_id: 'U1', channel_id: 'C1', team_id: 'T1' };

describe('the HTTP receiver', () => {
  it('answers a signed /conference help with the usage, privately', async () => {
    const res = await sendCommand(url, secret, {
      ...command,
      response_url: slack.responseUrl(),
      trigger_id: 't1',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toContain('/conference list');
  });

  it('refuses a request without a signature, with a wrong one, and one older than 5 minutes (401)', async () => {
    expect((await sendCommand(url, secret, command, { signature: null })).status).toBe(401);
    expect((await sendCommand(url, 'another-secret', command)).status).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await sendCommand(url, secret, command, { timestamp: stale })).status).toBe(401);
    // Anyone can send these: at most one warning a minute, whatever their number.
    for (let i = 0; i < 20; i++)
      expect((await sendCommand(url, secret, command, { signature: 'v0=forged' })).status).toBe(401);
    const unsigned = warnings.filter((l) => /signature/i.test(l.msg));
    expect(unsigned).toHaveLength(1);
    expect(unsigned[0]?.msg).toContain('without a valid Slack signature');
  });

  it('serves /healthz and /readyz', async () => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ ok: true });
  });

  it('checked its token against the Slack double at start (auth.test)', () => {
    expect(slack.callsOf('auth.test').length).toBeGreaterThanOrEqual(1);
    expect(slack.callsOf('auth.test')[0]?.token).toBe('xoxb-test');
  });
});
