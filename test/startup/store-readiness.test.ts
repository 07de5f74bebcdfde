import { createServer, type Server, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { ProbedCheck } from '../../src/observability/readiness.js';
import { storeProblem } from '../../src/startup/checks.js';
import { openStore } from '../../src/store/store.js';
import { eventually } from '../helpers/bot.js';

/**
 * /readyz's store check after start: PostgreSQL goes away (a TCP proxy between the store and the
 * real server is cut) and comes back. Before, the check said "ok" for the life of the process.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('store-readiness.test.ts SKIPPED: set TEST_DATABASE_URL to run it.');

/** A proxy to PostgreSQL that the test can cut (refusing and dropping connections) and restore. */
async function pgProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      const listening = createServer((client) => {
        const upstream = new Socket();
        upstream.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server = listening;
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closed = new Promise((r) => server?.close(r));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: listen,
  };
}

describe.skipIf(!pgUrl)('the store readiness check (PostgreSQL)', () => {
  const schema = `confdesk_ready_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  afterAll(async () => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it('turns not ready with the fix while PostgreSQL is unreachable, and ready again when it is back', async () => {
    const target = new URL(pgUrl as string);
    const proxy = await pgProxy(target);
    const viaProxy = new URL(target);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const options = { databaseUrl: viaProxy.toString(), dataDir: '.' };
    const store = await openStore({ ...options, schema });
    const check = new ProbedCheck(
      () => store.ping(),
      (error) => `store: ${storeProblem(error, options)}`,
      createLogger('silent'),
      50,
      500,
    );
    check.start();
    try {
      expect((await check.check()).ok).toBe(true);
      await proxy.cut();
      await eventually(() => !check.state().ok);
      expect(check.state().problem).toMatch(/^store: DATABASE_URL: /);
      expect(check.state().problem).not.toContain(viaProxy.toString());
      await proxy.restore();
      await eventually(() => check.state().ok);
      expect(check.state()).toEqual({ ok: true });
    } finally {
      check.stop();
      await store.close();
      await proxy.cut();
    }
  });
});

describe('the store readiness check (embedded store)', () => {
  it('is ok while the store answers, and names the failure when a probe fails or hangs', async () => {
    let answer: () => Promise<void> = async () => undefined;
    const check = new ProbedCheck(
      () => answer(),
      (error) => `store: ${(error as Error).message}`,
      createLogger('silent'),
      60_000,
      100,
    );
    expect(await check.check()).toEqual({ ok: true });
    answer = async () => {
      throw new Error('disk I/O error');
    };
    expect(await check.check()).toEqual({ ok: false, problem: 'store: disk I/O error' });
    answer = () => new Promise(() => undefined);
    expect(await check.check()).toEqual({ ok: false, problem: 'store: no answer within 100 ms' });
    answer = async () => undefined;
    expect(await check.check()).toEqual({ ok: true });
  });
});
