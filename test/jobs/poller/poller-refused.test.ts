import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderGuess, Poller } from '../../../src/jobs/poller/poller.js';
import { createLogger } from '../../../src/observability/logger.js';
import { createPlatformClient, type PlatformClient } from '../../../src/platform/client.js';
import type { SimTicket } from '../../../src/sim/model.js';
import { createSimulator, type Simulator } from '../../../src/sim/server.js';
import { openStore, type Store } from '../../../src/store/store.js';

/**
 * A platform that refuses `orderby=modified` with a 400 naming it: the simulator behind a small
 * real HTTP front that answers that refusal and passes every other request through.
 */
describe('the poller against a platform that refuses the order', () => {
  let sim: Simulator;
  let front: Server;
  let client: PlatformClient;
  let store: Store;
  let dir: string;
  const lines: { guess?: string; status?: string; msg: string }[] = [];

  beforeAll(async () => {
    let offset = -3_600_000;
    sim = await createSimulator({ rateLimit: 0, now: () => Date.now() + offset });
    offset = 0;
    front = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://front');
      if (url.pathname === '/api/v3/tickets' && url.searchParams.has('orderby')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Parameter orderby: unknown parameter' }));
        return;
      }
      const answer = await fetch(`${sim.url}${req.url}`, {
        method: req.method ?? 'GET',
        headers: { authorization: req.headers.authorization ?? '' },
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    client = createPlatformClient({
      baseUrl: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
      credentials: { kind: 'token', token: sim.adminToken },
      rateLimitPerMinute: 10_000,
      logger: createLogger('info', { write: (s: string) => lines.push(JSON.parse(s)) }),
    });
    dir = mkdtempSync(join(tmpdir(), 'confdesk-poller-refused-'));
    store = await openStore({ dataDir: dir });
    await store.addSubscription({
      id: 'all',
      channel: 'CR',
      kind: 'follow',
      ticketId: undefined,
      filter: {},
      createdBy: 'U1',
    });
  });
  afterAll(async () => {
    await store.close();
    await client.close();
    await new Promise((r) => front.close(r));
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('switches to reading every page, finds each change once, and logs the refusal once with its reason', async () => {
    const poller = new Poller({ platform: client, store, logger: createLogger('silent'), pageSize: 2 });
    await poller.scanOnce();
    expect(client.findings.statusOf(orderGuess)).toBe('refused');
    const t4 = [...sim.state.tickets.values()].find((t) => t.reference === 'ACME-1004') as SimTicket;
    const pictures = async () =>
      (await store.outboxOf(String(t4.id))).filter((i) => i.payload.eventName === 'media.pictureTaken')
        .length;
    await new Promise((r) => setTimeout(r, 1_600));
    await poller.scanOnce();
    const known = await pictures();
    sim.state.takePicture(t4);
    expect(await poller.scanOnce()).toBeGreaterThan(0);
    expect(await pictures()).toBe(known + 1);
    await new Promise((r) => setTimeout(r, 1_600));
    await poller.scanOnce();
    expect(await poller.scanOnce()).toBe(0);
    expect(await pictures()).toBe(known + 1);
    const logged = lines.filter((l) => l.guess === orderGuess);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.msg).toContain(
      'refused orderby=modified&order=desc (400: Parameter orderby: unknown parameter); every page is read',
    );
    // After the first refusal, no scan asks for the order again.
    const asked = sim.requests.filter((r) => r.path === '/api/v3/tickets' && r.query.orderby !== undefined);
    expect(asked).toHaveLength(0);
  });
});
