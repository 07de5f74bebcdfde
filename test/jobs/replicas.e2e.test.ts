import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createSimulator } from '../../src/sim/server.js';
import { openStore } from '../../src/store/store.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';
import {
  allDelivered,
  botEnv,
  exactlyOnce,
  hookTo,
  sleep,
  until,
  type Watch,
  watchTickets,
} from '../helpers/event-stream.js';

/**
 * Two and three replicas (real child processes) on the CI PostgreSQL, one stream of platform events:
 * each event in Slack exactly once, none lost, the work split between them.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl)
  console.warn(
    'replicas.test.ts: TEST_DATABASE_URL is not set, so the PostgreSQL replica tests are skipped.',
  );
const schemas: string[] = [];
afterAll(async () => {
  if (!databaseUrl || !schemas.length) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (const s of schemas) await client.query(`drop schema if exists ${s} cascade`);
  await client.end();
});

/**
 * One URL in front of the replicas, as a load balancer is: each webhook delivery goes to the next
 * replica in turn. Answers its port and how many deliveries each replica was given.
 */
async function roundRobin(ports: number[]): Promise<{ server: Server; port: number; given: number[] }> {
  const given = ports.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const i = next++ % ports.length;
    given[i] = (given[i] ?? 0) + 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      fetch(`http://127.0.0.1:${ports[i]}${req.url}`, {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
        ) as Record<string, string>,
        body: Buffer.concat(chunks),
      })
        .then(async (r) => res.writeHead(r.status).end(await r.text()))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, given };
}

describe.skipIf(!databaseUrl)('replicas on PostgreSQL', () => {
  for (const replicas of [2, 3])
    it(`${replicas} replicas deliver a stream of events exactly once, sharing the work`, async () => {
      const schema = `confdesk_replicas_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      const sim = await createSimulator({ rateLimit: 0 });
      const slack = await new SlackDouble().start();
      slack.latency.set('chat.postMessage', 50);
      slack.addUser({ id: 'UADMIN', email: 'admin@acme.example' }); // who the watches are added by
      try {
        const store = await openStore({ databaseUrl, schema });
        const watches = await watchTickets(store, sim);
        await store.close();
        // Each replica has its own token, so the Slack double tells who posted what.
        const bots = Array.from({ length: replicas }, (_, i) =>
          spawnBot(
            botEnv(sim, slack, {
              DATABASE_URL: databaseUrl as string,
              DATABASE_SCHEMA: schema,
              SLACK_BOT_TOKEN: `xoxb-replica-${i}`,
            }),
          ),
        );
        const ports = await Promise.all(bots.map((b) => b.port));
        // Webhooks reach the replicas through one URL, each delivery the next replica; the poller's
        // lease is whoever took it first.
        const front = await roundRobin(ports);
        hookTo(sim, front.port);
        for (let k = 0; k < 40; k++) {
          sim.state.addEvent((watches[k % watches.length] as Watch).ticket, `stream.event${k}`, 'agent');
          await sleep(100);
        }
        expect(await until(() => allDelivered(slack, watches), 60_000)).toBe(true);
        await sleep(1_500);
        for (const b of bots) b.child.kill('SIGTERM');
        expect(await Promise.all(bots.map((b) => b.exited))).toEqual(Array(replicas).fill(0));
        expect(exactlyOnce(slack, watches)).toEqual([]);
        const posters = new Set(slack.callsOf('chat.postMessage').map((c) => c.token));
        expect(posters.size).toBeGreaterThan(1);
        expect(front.given.every((n) => n > 0)).toBe(true);
        front.server.close();
      } finally {
        killAll();
        await slack.stop();
        await sim.close();
      }
    }, 120_000);
});
