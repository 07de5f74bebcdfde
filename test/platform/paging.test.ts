import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPlatformClient } from '../../src/platform/client.js';
import type { SimState } from '../../src/sim/state.js';
import { startPlatform } from '../helpers/platform.js';

/* Paging when the platform caps pages below the limit asked, sends no total, or ignores offset. */

const addPeople = (state: SimState, n: number) =>
  Array.from({ length: n }, (_, i) =>
    state.addUser({
      enterpriseId: 1,
      username: `filler${i}`,
      password: 'x',
      email: `filler${i}@acme.example`,
      cellPhone: undefined,
      firstName: 'Filler',
      lastName: String(i),
      role: 'agent',
    }),
  );

const apiRequests = (requests: { path: string; query: Record<string, string> }[], path: string) =>
  requests.filter((r) => r.path === path).map((r) => `${r.query.offset}/${r.query.limit}`);

describe('paging against a platform that caps pages (bare arrays, no total)', () => {
  it('walks past a short page, learns the cap and asks for it from then on, without an extra request', async () => {
    const p = await startPlatform({ quirks: { pageCap: 20 } });
    try {
      const added = addPeople(p.sim.state, 45);
      const total = p.sim.state.liveUsers(1).length;
      const ids: string[] = [];
      for await (const u of p.client.paginate('listEnterpriseUsers', { enterpriseId: 1 }))
        ids.push(String(u.id));
      expect(ids).toHaveLength(total);
      expect(ids).toContain(String(added.at(-1)?.id));
      expect(p.client.findings.learnedPageCap).toBe(20);
      const path = '/api/v3/enterprises/1/users';
      // 20 of 100: unknowable, so the next page is asked; it has items: the cap is 20.
      expect(apiRequests(p.sim.requests, path)).toEqual([
        '0/100',
        '20/100',
        '40/20',
        ...(total > 60 ? ['60/20'] : []),
      ]);
      // A second walk asks for the cap (pages the first walk fetched come from the client's cache).
      p.sim.requests.length = 0;
      let again = 0;
      for await (const _ of p.client.paginate('listEnterpriseUsers', { enterpriseId: 1, limit: 50 })) again++;
      expect(again).toBe(total);
      expect(apiRequests(p.sim.requests, path).every((r) => r.endsWith('/20'))).toBe(true);
      expect(apiRequests(p.sim.requests, path).length).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  });

  it('uses next_offset/total when the envelope carries them, and learns the cap from them', async () => {
    const p = await startPlatform({ quirks: { pageCap: 3 } });
    try {
      const all = [...p.sim.state.tickets.values()].filter((t) => !t.deleted && t.enterpriseId === 1).length;
      expect(all).toBeGreaterThan(3);
      let n = 0;
      for await (const _ of p.client.paginate('listTickets', { user: 'all', limit: 50 })) n++;
      expect(n).toBe(all);
      expect(p.client.findings.learnedPageCap).toBe(3);
      // next_offset and total decide: never a page past the end; the cap is asked for once learned.
      expect(apiRequests(p.sim.requests, '/api/v3/tickets')).toEqual(
        Array.from({ length: Math.ceil(all / 3) }, (_, i) => `${i * 3}/${i === 0 ? 50 : 3}`),
      );
    } finally {
      await p.close();
    }
  });

  it('on an uncapped platform, a short page costs one look further only until a longer page was seen', async () => {
    const p = await startPlatform();
    try {
      const [big, small] = [...p.sim.state.tickets.values()];
      if (!big || !small) throw new Error('the seed has tickets');
      for (let i = big.events.length; i < 40; i++) p.sim.state.addEvent(big, `test.filler${i}`, 'system');
      const walk = async (ticketId: number) => {
        p.sim.requests.length = 0;
        const events = [];
        for await (const e of p.client.paginate('listTicketEvents', { ticketId, limit: 100 })) events.push(e);
        return { events, requests: p.sim.requests.length };
      };
      const first = await walk(big.id);
      expect(first.events).toHaveLength(big.events.length);
      expect(first.requests).toBe(2); // 40 could be a cap: the empty next page says it was the end
      const second = await walk(small.id);
      expect(second.events).toHaveLength(small.events.length);
      expect(small.events.length).toBeLessThan(big.events.length);
      expect(second.requests).toBe(1); // shorter than a page this list returned: no cap cut it
      expect(p.client.findings.learnedPageCap).toBeUndefined();
    } finally {
      await p.close();
    }
  });

  it('stops when the platform ignores offset instead of looping on the same page', async () => {
    const ids20 = Array.from({ length: 20 }, (_, i) => i + 1);
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(ids20.map((id) => ({ id, eventName: 'x', timestamp: '2027-01-01T00:00:00Z' }))));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = createPlatformClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { kind: 'token', token: 't' },
    });
    try {
      const walk = async () => {
        const ids = [];
        for await (const e of client.paginate('listTicketEvents', { ticketId: 1 })) ids.push(e.id);
        return ids;
      };
      expect(await walk()).toEqual(ids20.map(String));
      expect(hits).toBe(2);
      // Once could be a list that grew by exactly a page between the two: said at the second walk.
      expect(client.findings.statusOf('listTicketEvents.offset')).toBe('unknown');
      expect(await walk()).toEqual(ids20.map(String));
      expect(hits).toBe(4);
      expect(client.findings.statusOf('listTicketEvents.offset')).toBe('ignored');
    } finally {
      await client.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
  it('does not take a list that grew by exactly a page between two pages for one that ignores offset', async () => {
    const page = (from: number) =>
      Array.from({ length: 20 }, (_, i) => ({
        id: from + i,
        eventName: 'x',
        timestamp: '2027-01-01T00:00:00Z',
      }));
    let walks = 0;
    const server = createServer((req, res) => {
      const offset = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('offset') ?? 0);
      if (offset === 0) walks++;
      // The first walk's second page comes after 20 new items pushed the list down by a page.
      const items =
        offset === 0 ? page(1) : offset === 20 && walks === 1 ? page(1) : offset === 20 ? page(21) : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(items));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = createPlatformClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { kind: 'token', token: 't' },
    });
    try {
      for (let i = 0; i < 3; i++) for await (const _ of client.paginate('listTicketEvents', { ticketId: 1 }));
      expect(walks).toBe(3);
      expect(client.findings.statusOf('listTicketEvents.offset')).toBe('unknown');
    } finally {
      await client.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('paging when the list changes between pages', () => {
  it('learns no cap from a short page followed by a longer one', async () => {
    const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    const pages = [range(1, 10), range(11, 20), []];
    let hits = 0;
    const server = createServer((_req, res) => {
      const ids = pages[hits++] ?? [];
      const body = ids.map((id) => ({ id, eventName: 'x', timestamp: '2027-01-01T00:00:00Z' }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = createPlatformClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { kind: 'token', token: 't' },
    });
    try {
      const ids = [];
      for await (const e of client.paginate('listTicketEvents', { ticketId: 1, limit: 50 })) ids.push(e.id);
      expect(ids).toEqual(range(1, 30).map(String));
      expect(client.findings.learnedPageCap).toBeUndefined();
      expect(hits).toBe(3);
    } finally {
      await client.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
