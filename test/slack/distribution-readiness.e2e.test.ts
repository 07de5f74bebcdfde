import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type RunningWorkspaces, startWorkspaces } from '../../src/distribution/start.js';
import { createLogger } from '../../src/observability/logger.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { eventually } from '../helpers/bot.js';
import { installThrough, settingsSubmission, type TestWorkspace } from '../helpers/distribution.js';
import { sendSigned } from '../helpers/slack-requests.js';

/*
 * Readiness tells the truth in distribution mode, through the real receiver, on both stores: a
 * workspace whose store cannot open (its folder taken by a file; its PostgreSQL schema holding a
 * migrations table it cannot read) is counted and named in /readyz and /metrics, its admin's save
 * says it did not start and that it is tried again, and the retry starts it once the cause is gone,
 * also after a restart of the process. The server answers while the workspaces start.
 */

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('PostgreSQL readiness tests SKIPPED: set TEST_DATABASE_URL to run them.');
/** A schema of this run's own (the workspaces' are `<it>_ws_<team>`). */
const schema = `confdesk_ready_${process.pid}`;

const secret = 'readiness-signing-secret';
const metricsToken = 'metrics-token-for-readiness';
const key = randomBytes(32).toString('base64');
const good: TestWorkspace = { team: 'TREADYOK1', name: 'Works', admin: 'UREADYOKADM' };
const broken: TestWorkspace = { team: 'TREADYKO2', name: 'Broken', admin: 'UREADYKOADM' };

let slack: SlackDouble;
let sim: Simulator;

beforeAll(async () => {
  slack = await new SlackDouble().start();
  slack.oauthApp = { clientId: '111.222', clientSecret: 'client-secret' };
  for (const w of [good, broken]) slack.addUser({ id: w.admin, email: 'admin@acme.example', is_admin: true });
  sim = await createSimulator({ rateLimit: 0 });
});

afterAll(async () => {
  await slack?.stop();
  await sim?.close();
});

interface Ready {
  ok: boolean;
  checks: Record<string, { ok: boolean; problem?: string; detail?: string }>;
  workspaces: Record<string, number> & {
    failed: { team: string; reason: string; problem: string; attempts?: number; retryAt?: string }[];
  };
}

const gauge = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

/** How a backend breaks the broken workspace's store, and mends it. */
interface Backend {
  name: string;
  env: () => Record<string, string>;
  block(): Promise<void>;
  unblock(): Promise<void>;
  cleanUp(): Promise<void>;
  /**
   * Holds a workspace's store at its opening until the answered function is called, without stopping
   * the process (a SQLite lock would block its event loop: PostgreSQL only).
   */
  hold?(team: string): Promise<() => Promise<void>>;
}

const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-readiness-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The broken workspace's store folder, taken by a file: its store cannot open (even as root). */
const storeFolder = () => join(dataDir, 'workspaces', broken.team);
const embedded: Backend = {
  name: 'embedded store',
  env: () => ({ DATA_DIR: dataDir }),
  async block() {
    rmSync(storeFolder(), { recursive: true, force: true });
    mkdirSync(join(dataDir, 'workspaces'), { recursive: true });
    writeFileSync(storeFolder(), 'not a folder');
  },
  async unblock() {
    rmSync(storeFolder(), { force: true });
  },
  async cleanUp() {},
};

/** SQL on the test server, as its operator would type it. */
async function psql(text: string) {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
const wsSchema = (team: string) => `${schema}_ws_${team.toLowerCase()}`;
/** The broken workspace's schema holds a migrations table of another shape: its store cannot open. */
const postgres: Backend = {
  name: 'PostgreSQL',
  env: () => ({ DATA_DIR: dataDir, DATABASE_URL: pgUrl ?? '', DATABASE_SCHEMA: schema }),
  async block() {
    const s = wsSchema(broken.team);
    await psql(
      `drop schema if exists "${s}" cascade; create schema "${s}"; create table "${s}".kysely_migration (oops int)`,
    );
  },
  async unblock() {
    await psql(`drop schema if exists "${wsSchema(broken.team)}" cascade`);
  },
  async cleanUp() {
    for (const s of [schema, wsSchema(good.team), wsSchema(broken.team)])
      await psql(`drop schema if exists "${s}" cascade`);
  },
  async hold(team) {
    // An operator's long transaction on the workspace's migrations table: opening its store waits.
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query('begin');
    await client.query(`lock table "${wsSchema(team)}".kysely_migration in access exclusive mode`);
    return async () => {
      await client.query('commit');
      await client.end();
    };
  },
};

describe.each(pgUrl ? [embedded, postgres] : [embedded])(
  '$name: a workspace whose store cannot open',
  (backend) => {
    let running: RunningWorkspaces | undefined;
    let url: string;
    const lines: { level: number; msg: string; team?: string }[] = [];
    const logger = createLogger('debug', { write: (l: string) => void lines.push(JSON.parse(l)) });
    const env = () => ({
      SLACK_SIGNING_SECRET: secret,
      SLACK_CLIENT_ID: '111.222',
      SLACK_CLIENT_SECRET: 'client-secret',
      SLACK_STATE_SECRET: 'state-secret-for-the-readiness-tests',
      CONFDESK_ENCRYPTION_KEY: key,
      PUBLIC_URL: 'https://confdesk.example',
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      METRICS_TOKEN: metricsToken,
      PLATFORM_RATE_LIMIT: '6000',
      PLATFORM_HOSTS: '127.0.0.1',
      ...backend.env(),
    });
    beforeAll(async () => {
      rmSync(join(dataDir, 'workspaces'), { recursive: true, force: true });
      await backend.cleanUp();
    });
    afterAll(async () => {
      await running?.stop();
      await backend.cleanUp();
    });

    /** A process on the tests' store; retries come quickly here (300 ms doubling to 1 s). */
    async function boot() {
      running = await startWorkspaces(loadConfig(env()), logger, {
        jobs: { deliverEveryMs: 50, paceMs: 20 },
        retry: { firstMs: 300, maxMs: 1_000 },
      });
      url = `http://127.0.0.1:${running.port}`;
      return running;
    }

    async function readyz() {
      const res = await fetch(`${url}/readyz`);
      return { status: res.status, body: (await res.json()) as Ready };
    }
    async function metrics() {
      const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      expect(res.status).toBe(200);
      return res.text();
    }

    /** The settings modal opened by the admin, submitted with the simulator's address: the modal's last text. */
    async function saveSettings(w: TestWorkspace) {
      const trigger = `trigger-${Math.random()}`;
      slack.registerTrigger(trigger, w.admin);
      const before = slack.views.size;
      const body = new URLSearchParams({
        command: '/conference',
        text: 'admin settings',
        user_id: w.admin,
        channel_id: 'CREADY',
        team_id: w.team,
        response_url: slack.responseUrl(),
        trigger_id: trigger,
      }).toString();
      expect((await sendSigned(url, secret, body, 'application/x-www-form-urlencoded')).status).toBe(200);
      await eventually(() => slack.views.size > before);
      const modal = [...slack.views.values()].at(-1);
      if (modal?.view.callback_id !== 'workspace_settings') throw new Error('no settings modal');
      const submission = settingsSubmission(w.team, w.admin, modal.id, {
        url: sim.url,
        token: sim.adminToken,
      });
      const r = await sendSigned(
        url,
        secret,
        new URLSearchParams({ payload: JSON.stringify(submission) }).toString(),
        'application/x-www-form-urlencoded',
      );
      expect(r.status).toBe(200);
      // The outcome replaces the modal (the ack showed "signing in…"): saved, or the form with a warning.
      return eventually(() => {
        const text = JSON.stringify(slack.views.get(modal.id)?.view ?? {});
        return text.includes('Saved') || text.includes(':warning:') ? text : undefined;
      }, 10_000);
    }

    it('is not "saved": its admin is told what failed and that it is tried again', async () => {
      await boot();
      await running?.started;
      for (const w of [good, broken]) expect((await installThrough(url, slack, w)).status).toBe(200);
      expect(await saveSettings(good)).toContain('Saved: the platform took');
      await backend.block();
      const answer = await saveSettings(broken);
      expect(answer).not.toContain('Saved: the platform took');
      expect(answer).toContain('could not start in this workspace: its store could not open');
      expect(answer).toContain('tries again by itself in');
      // Its people are told the same, not that it is not set up.
      const told = await sendSigned(
        url,
        secret,
        new URLSearchParams({
          command: '/ticket',
          text: 'list',
          user_id: broken.admin,
          channel_id: 'CREADY',
          team_id: broken.team,
          response_url: slack.responseUrl(),
          trigger_id: `trigger-${Math.random()}`,
        }).toString(),
        'application/x-www-form-urlencoded',
      );
      const text = await told.text();
      expect(text).toContain('set up in this workspace but could not start: its store could not open');
      expect(text).not.toContain('not set up');
    });

    it('is counted and named in /readyz and /metrics, while the replica stays ready for the others', async () => {
      const r = await readyz();
      expect(r.status).toBe(200);
      expect(r.body.checks.workspaces?.detail).toContain(
        `2 workspace(s): 1 running, 1 failed: ${broken.team} (its store could not open`,
      );
      expect(r.body.workspaces).toMatchObject({ running: 1, not_set_up: 0 });
      expect(r.body.workspaces.failed).toEqual([
        expect.objectContaining({ team: broken.team, reason: 'start', attempts: expect.any(Number) }),
      ]);
      const m = await metrics();
      expect(gauge(m, 'confdesk_workspaces{state="running"}')).toBe(1);
      expect(gauge(m, 'confdesk_workspaces{state="failed"}')).toBe(1);
      expect(gauge(m, `confdesk_workspace_failed{workspace="${broken.team}",reason="start"}`)).toBe(1);
      expect(m).not.toContain(`confdesk_workspace_failed{workspace="${good.team}"`);
      // Retried meanwhile, with the gaps growing (300 ms, 600 ms, then 1 s).
      await eventually(async () => ((await readyz()).body.workspaces.failed[0]?.attempts ?? 0) >= 3, 5_000);
    });

    it('starts at its next retry once the cause is gone', async () => {
      await backend.unblock();
      await eventually(() => running?.workspaces().get(broken.team)?.confdesk, 5_000);
      const r = await readyz();
      expect(r.body.workspaces).toMatchObject({ running: 2, failed: [] });
      expect(r.body.checks.workspaces?.detail).toBe('2 workspace(s): 2 running');
      expect(r.body.checks['ticket events']).toEqual({ ok: true, detail: 'no change waiting' });
      const m = await metrics();
      expect(gauge(m, 'confdesk_workspaces{state="running"}')).toBe(2);
      expect(gauge(m, 'confdesk_workspaces{state="failed"}')).toBe(0);
      expect(m).not.toContain('confdesk_workspace_failed{');
    });

    it('after a restart of the process: named again, and retried until it starts', async () => {
      await running?.stop();
      await backend.block();
      await boot();
      await running?.started;
      const r = await readyz();
      expect(r.status).toBe(200);
      expect(r.body.workspaces.failed.map((f) => f.team)).toEqual([broken.team]);
      expect(running?.workspaces().get(good.team)?.confdesk).toBeDefined();
      expect(lines.some((l) => l.team === broken.team && l.msg.includes('could not start'))).toBe(true);
      await backend.unblock();
      await eventually(() => running?.workspaces().get(broken.team)?.confdesk, 5_000);
      expect((await readyz()).body.workspaces.failed).toEqual([]);
    });

    it.skipIf(!backend.hold)(
      'answers while a workspace starts: /healthz 200, /readyz 503 "starting…"',
      async () => {
        await running?.stop();
        const release = (await backend.hold?.(good.team)) ?? (async () => undefined);
        try {
          await boot();
          expect((await fetch(`${url}/healthz`)).status).toBe(200);
          const r = await readyz();
          expect(r.status).toBe(503);
          expect(r.body.checks.workspaces?.problem).toMatch(/^starting workspaces: [01] of 2 tried/);
          expect(r.body.workspaces.starting).toBeGreaterThanOrEqual(1);
          // The other workspace does not wait for it.
          await eventually(() => running?.workspaces().get(broken.team)?.confdesk);
          expect((await readyz()).status).toBe(503);
        } finally {
          await release();
        }
        await running?.started;
        const r = await readyz();
        expect(r.status).toBe(200);
        expect(r.body.workspaces).toMatchObject({ running: 2, starting: 0, failed: [] });
      },
    );
  },
);
