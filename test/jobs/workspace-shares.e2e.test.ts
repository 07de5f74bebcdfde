import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Installation } from '@slack/oauth';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { WorkspaceRegistry } from '../../src/services/workspaces.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { openStore, workspaceStoreOptions } from '../../src/store/store.js';
import { SecretBox } from '../../src/util/secret-box.js';
import { type ChildBot, killAll, spawnBot } from '../helpers/child-bot.js';
import { allDelivered, exactlyOnce, sleep, until, type Watch } from '../helpers/event-stream.js';

/**
 * Distribution mode with two and three replicas (real child processes) on the CI PostgreSQL: the
 * workspaces' jobs split between them, a replica killed (SIGKILL) hands its workspaces over within
 * a lease period, webhooks are taken by whichever replica the balancer picks, and every ticket event
 * is told once in each workspace.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl)
  console.warn(
    'workspace-shares.e2e.test.ts: TEST_DATABASE_URL is not set, so the PostgreSQL workspace-share tests are skipped.',
  );
const schemas: string[] = [];
afterAll(async () => {
  if (!databaseUrl || !schemas.length) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (const s of schemas) await client.query(`drop schema if exists ${s} cascade`);
  await client.end();
});

const leaseS = 3;
const hookSecret = 'hook-secret-of-the-tests';
const key = randomBytes(32);

/** Every workspace installed and set up in the registry, each watching the same tickets in channels of its own. */
async function setUp(schema: string, sim: Simulator, teams: string[]): Promise<Watch[]> {
  const base = { databaseUrl: databaseUrl as string, schema };
  const store = await openStore(base);
  const registry = new WorkspaceRegistry(store, new SecretBox([key]));
  const installs = registry.installationStore(async () => undefined);
  const watches: Watch[] = [];
  const tickets = [...sim.state.tickets.values()].slice(0, 2);
  for (const team of teams) {
    await installs.storeInstallation({
      team: { id: team, name: `Team ${team}` },
      enterprise: undefined,
      isEnterpriseInstall: false,
      bot: { token: `xoxb-${team}`, id: `B${team}`, userId: `U${team}`, scopes: [] },
      user: { id: 'UADMIN', token: undefined, scopes: undefined },
      appId: 'ADOUBLE01',
      tokenType: 'bot',
    } as Installation);
    await registry.saveSettings(team, {
      platformUrl: sim.url,
      credentials: { kind: 'token', token: sim.adminToken },
      serviceKey: undefined,
      language: undefined,
      ticketCreators: 'account',
      webhookSecret: hookSecret,
      updatedBy: 'UADMIN',
      updatedAt: new Date(),
    });
    const ws = await openStore(workspaceStoreOptions(base, team));
    for (const [i, ticket] of tickets.entries()) {
      const channel = `C${team}${i}`;
      watches.push({ ticket, channel, since: Date.now() });
      await ws.addSubscription({
        id: `w-${channel}`,
        channel,
        kind: 'watch',
        ticketId: String(ticket.id),
        filter: {},
        createdBy: 'UADMIN',
      });
    }
    await ws.close();
  }
  await store.close();
  return watches;
}

/**
 * One URL in front of the replicas for the platform's webhooks, as a load balancer with health checks:
 * each delivery goes to every workspace's address, each time on the next replica alive (one that does
 * not answer is skipped). Counts what each replica was given.
 */
async function front(ports: number[], teams: string[]) {
  const given = ports.map(() => 0);
  const dead = new Set<number>();
  let next = 0;
  const forward = async (team: string, body: Buffer): Promise<number> => {
    const first = next++;
    for (let tries = 0; tries < ports.length; tries++) {
      const i = (first + tries) % ports.length;
      if (dead.has(i)) continue;
      try {
        const r = await fetch(`http://127.0.0.1:${ports[i]}/webhooks/platform/${team}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-secret': hookSecret },
          body,
        });
        await r.text();
        given[i] = (given[i] ?? 0) + 1;
        return r.status;
      } catch {
        dead.add(i);
      }
    }
    return 502;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const statuses = await Promise.all(teams.map((t) => forward(t, Buffer.concat(chunks))));
      res.writeHead(statuses.every((s) => s === 202) ? 202 : 502).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, given };
}

/** A distribution-mode replica's port, from its start line. */
async function portOf(bot: ChildBot): Promise<number> {
  let port: number | undefined;
  await until(() => {
    port = Number(/"port":(\d+)[^\n]*distribution mode: starting/.exec(bot.output())?.[1]);
    return Number.isFinite(port) && (port ?? 0) > 0;
  }, 30_000);
  if (!port) throw new Error(`the replica did not start:\n${bot.output()}`);
  return port;
}

/** The replica's gauge of the workspaces whose jobs run there (undefined: it does not answer). */
async function jobsHere(port: number): Promise<number | undefined> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const m = /^confdesk_workspaces_jobs_here (\d+)/m.exec(text);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function gauges(ports: number[]): Promise<number[]> {
  return (await Promise.all(ports.map(jobsHere))).map((n) => n ?? -1);
}

async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

describe.skipIf(!databaseUrl)('replicas share the workspaces (PostgreSQL)', () => {
  for (const replicas of [2, 3])
    it(`${replicas} replicas split the workspaces’ jobs; one killed, the others take its workspaces within a lease period; each event told once`, async () => {
      const schema = `confdesk_shares_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      const teams = Array.from({ length: 3 * replicas }, (_, i) => `TSHARE${i}${replicas}`);
      const sim = await createSimulator({ rateLimit: 0 });
      const slack = await new SlackDouble().start();
      slack.addUser({ id: 'UADMIN', email: 'admin@acme.example' }); // who the watches are added by
      try {
        const watches = await setUp(schema, sim, teams);
        const bots = Array.from({ length: replicas }, () =>
          spawnBot({
            SLACK_SIGNING_SECRET: 'shares-signing-secret',
            SLACK_CLIENT_ID: '111.222',
            SLACK_CLIENT_SECRET: 'client-secret',
            SLACK_STATE_SECRET: 'state-secret-for-the-tests',
            CONFDESK_ENCRYPTION_KEY: key.toString('base64'),
            PUBLIC_URL: 'https://confdesk.example',
            SLACK_API_URL: slack.apiUrl,
            DATABASE_URL: databaseUrl as string,
            DATABASE_SCHEMA: schema,
            PORT: '0',
            PLATFORM_RATE_LIMIT: '100000',
            PLATFORM_HOSTS: '127.0.0.1',
            POLL_INTERVAL: '5',
            WORKSPACE_LEASE_S: String(leaseS),
            METRICS: 'on',
            LOG_LEVEL: 'info',
          }),
        );
        const ports = await Promise.all(bots.map(portOf));
        // Split: every workspace's jobs on exactly one replica, each its fair part.
        const fair = teams.length / replicas;
        expect(
          await eventually(async () => (await gauges(ports)).every((n) => n === fair), 6 * leaseS * 1000),
        ).toBe(true);
        // /readyz says so (a heartbeat late on a loaded machine may count a replica out a moment).
        const said = `jobs of ${fair} of ${teams.length} set-up workspace(s) run here (${replicas} replica(s) live)`;
        expect(
          await eventually(
            async () => (await (await fetch(`http://127.0.0.1:${ports[0]}/readyz`)).text()).includes(said),
            2 * leaseS * 1000,
          ),
        ).toBe(true);

        const lb = await front(ports, teams);
        sim.setWebhook({
          url: `http://127.0.0.1:${lb.port}/`,
          header: 'X-Webhook-Secret',
          secret: hookSecret,
        });
        let k = 0;
        const stream = async (n: number) => {
          for (let j = 0; j < n; j++, k++) {
            sim.state.addEvent((watches[k % 2] as Watch).ticket, `shares.event${k}`, 'agent');
            await sleep(150);
          }
        };
        const before = Date.now();
        await stream(10);
        expect(await until(() => allDelivered(slack, watches), 60_000)).toBe(true);
        const firstMs = Date.now() - before;
        // A webhook taken by a replica that does not run its workspace's jobs wakes the one that does
        // (not its idle delivery heartbeat, a minute): 10 events 150 ms apart, then a second or two.
        expect(firstMs).toBeLessThan(15_000);

        // One replica dies, at a quiet moment: a post in flight when it dies keeps its channel for the
        // claim's own lease (a minute: whether Slack got it is checked then), which is not the share's.
        await sleep(2_000);
        const killedAt = Date.now();
        bots[0]?.child.kill('SIGKILL');
        await bots[0]?.exited;
        const alive = ports.slice(1);
        expect(
          await eventually(
            async () => (await gauges(alive)).reduce((a, b) => a + b, 0) === teams.length,
            4 * leaseS * 1000,
          ),
        ).toBe(true);
        const tookMs = Date.now() - killedAt;
        // A lease period: the survivors look the moment its heartbeat ends (the scrape's own step besides).
        expect(tookMs).toBeLessThanOrEqual(leaseS * 1_000 + 1_000);
        console.info(`${replicas} replicas: the killed replica's workspaces taken over in ${tookMs} ms`);
        const after = await gauges(alive);
        expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(1);

        const since = Date.now();
        await stream(10);
        const ok = await until(() => allDelivered(slack, watches), 60_000);
        const secondMs = Date.now() - since;
        console.info(
          `${replicas} replicas: ${teams.length} workspaces, 10 events each told in ${firstMs} ms before the kill, ${secondMs} ms after (from the first event to the last post)`,
        );
        if (!ok)
          throw new Error(
            `not all delivered after the kill: ${JSON.stringify(exactlyOnce(slack, watches))}\n${bots
              .slice(1)
              .map((b) => b.output().slice(-6000))
              .join('\n----\n')}`,
          );
        expect(secondMs).toBeLessThan(15_000);
        await sleep(1_500);
        for (const b of bots.slice(1)) b.child.kill('SIGTERM');
        expect(await Promise.all(bots.slice(1).map((b) => b.exited))).toEqual(Array(replicas - 1).fill(0));
        expect(exactlyOnce(slack, watches)).toEqual([]);
        // Webhooks reached every replica, the survivors after the kill too.
        expect(lb.given.every((n) => n > 0)).toBe(true);
        lb.server.close();
      } finally {
        killAll();
        await slack.stop();
        await sim.close();
      }
    }, 180_000);
});
