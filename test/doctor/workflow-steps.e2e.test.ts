import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type DoctorReport, runDoctor } from '../../src/doctor/doctor.js';
import { readManifest } from '../../src/doctor/manifest.js';
import { PlatformFindings } from '../../src/platform/findings.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { inspectStore } from '../../src/store/store.js';

/** The doctor's row on the Workflow Builder steps, against the Slack double and the simulator. */
let sim: Simulator;
let slack: SlackDouble;
let dir: string;
beforeAll(async () => {
  sim = await createSimulator({ rateLimit: 1_000 });
  slack = await new SlackDouble().start();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-doctor-steps-'));
});
afterAll(async () => {
  await slack.stop();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stepsRow(): Promise<DoctorReport['checks'][number] | undefined> {
  const config = loadConfig({
    SLACK_BOT_TOKEN: 'xoxb-doctor-steps',
    SLACK_SIGNING_SECRET: 'secret',
    SLACK_APP_TOKEN: 'xapp-doctor-steps',
    SLACK_API_URL: slack.apiUrl,
    PLATFORM_URL: sim.url,
    PLATFORM_TOKEN: sim.adminToken,
    DATA_DIR: dir,
  });
  const report = await runDoctor({
    config,
    platform: {
      baseUrl: sim.url,
      credentials: { kind: 'token', token: sim.adminToken },
      simulator: false,
      findings: new PlatformFindings(),
    },
    store: () => inspectStore({ dataDir: dir }),
  });
  return report.checks.find((c) => c.name === 'workflow steps');
}

describe('the doctor on the Workflow Builder steps', () => {
  it('says the token has the steps’ scopes and what to set in the app’s settings (a note)', async () => {
    slack.grantedScopes = readManifest().botScopes;
    expect(await stepsRow()).toMatchObject({
      status: 'note',
      blocking: false,
      detail: expect.stringMatching(/scopes\. .*manifest\.steps\.yml.*Org Level Apps → Opt-In.*paid plan/),
    });
  });

  it('warns when the token lacks a scope the steps use', async () => {
    slack.grantedScopes = readManifest().botScopes.filter((s) => s !== 'chat:write');
    expect(await stepsRow()).toMatchObject({
      status: 'warning',
      detail: expect.stringMatching(/^the steps need chat:write \(missing\)/),
    });
  });
});
