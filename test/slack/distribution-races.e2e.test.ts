import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type RunningWorkspaces, startWorkspaces } from '../../src/distribution/start.js';
import { createLogger } from '../../src/observability/logger.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { eventually } from '../helpers/bot.js';
import { installThrough, settingsSubmission } from '../helpers/distribution.js';
import { sendSigned } from '../helpers/slack-requests.js';

/*
 * Distribution mode (issue 23 §2) when things cross: an uninstall that comes while the workspace's admin
 * saves its settings (the platform is being asked) must leave nothing of the workspace behind.
 */

const secret = 'race-signing-secret';
const ws = { team: 'TRACE001', name: 'Race', admin: 'UR_ADMIN', channel: 'CR1' };

let slack: SlackDouble;
let sim: Simulator;
let dataDir: string;
let running: RunningWorkspaces;
let url: string;

beforeAll(async () => {
  slack = await new SlackDouble().start();
  slack.oauthApp = { clientId: '111.222', clientSecret: 'client-secret' };
  slack.addUser({ id: ws.admin, email: 'admin@acme.example', is_admin: true });
  sim = await createSimulator({ rateLimit: 0 });
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-race-'));
  const config = loadConfig({
    SLACK_SIGNING_SECRET: secret,
    SLACK_CLIENT_ID: '111.222',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_STATE_SECRET: 'state-secret-for-the-tests',
    CONFDESK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://confdesk.example',
    SLACK_API_URL: slack.apiUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    PLATFORM_RATE_LIMIT: '6000',
    PLATFORM_HOSTS: '127.0.0.1',
  });
  running = await startWorkspaces(config, createLogger('silent'), {
    jobs: { deliverEveryMs: 50, paceMs: 20 },
  });
  await running.started;
  url = `http://127.0.0.1:${running.port}`;
});

afterAll(async () => {
  await running?.stop();
  await slack?.stop();
  await sim?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (body: string, contentType = 'application/x-www-form-urlencoded') =>
  sendSigned(url, secret, body, contentType);

async function install() {
  expect((await installThrough(url, slack, ws)).status).toBe(200);
}

async function openSettings() {
  const trigger = `trigger-${Math.random()}`;
  slack.registerTrigger(trigger, ws.admin);
  const before = slack.views.size;
  await post(
    new URLSearchParams({
      command: '/conference',
      text: 'admin settings',
      user_id: ws.admin,
      channel_id: ws.channel,
      team_id: ws.team,
      response_url: slack.responseUrl(),
      trigger_id: trigger,
    }).toString(),
  );
  await eventually(() => slack.views.size > before);
  const modal = [...slack.views.values()].at(-1);
  if (modal?.view.callback_id !== 'workspace_settings') throw new Error('no settings modal');
  return modal.id;
}

const submitSettings = (viewId: string) =>
  post(
    new URLSearchParams({
      payload: JSON.stringify(
        settingsSubmission(ws.team, ws.admin, viewId, { url: sim.url, token: sim.adminToken }),
      ),
    }).toString(),
  );

/** An uninstall as Slack makes it: the installation's tokens stop working, then the event comes. */
const uninstalled = () => {
  slack.revokedTokens.add(slack.tokenOf(ws.team) ?? '');
  return post(
    JSON.stringify({
      type: 'event_callback',
      team_id: ws.team,
      api_app_id: 'ADOUBLE01',
      event_id: `Ev${Math.random().toString(36).slice(2)}`,
      event_time: Math.floor(Date.now() / 1000),
      event: { type: 'app_uninstalled' },
    }),
    'application/json',
  );
};

describe('distribution mode: an uninstall during a settings save', () => {
  it('keeps none of the settings, and a reinstall starts afresh', async () => {
    await install();
    const viewId = await openSettings();
    // The platform takes its time to answer the sign-in check…
    sim.setFaults({ latencyMs: 800 });
    try {
      expect((await submitSettings(viewId)).status).toBe(200);
      // …and the workspace uninstalls meanwhile.
      await new Promise((r) => setTimeout(r, 100));
      await uninstalled();
      await eventually(async () => !(await running.registry.teams()).includes(ws.team));
      // The save's outcome is said in the modal: the workspace was uninstalled meanwhile. (Slack refuses
      // the revoked token, as it would: the attempt is what shows.)
      await eventually(
        () =>
          slack.calls.some(
            (c) =>
              c.method === 'views.update' &&
              c.args.view_id === viewId &&
              JSON.stringify(c.args).includes('Not saved: confdesk was uninstalled from this workspace'),
          ),
        5_000,
      );
    } finally {
      sim.setFaults({ latencyMs: 0 });
    }
    expect(await running.store.workspaceSettings(ws.team)).toBeUndefined();
    await install();
    expect(running.workspaces().get(ws.team)?.confdesk).toBeUndefined();
    expect(await running.registry.settings(ws.team)).toBeUndefined();
  });
});
