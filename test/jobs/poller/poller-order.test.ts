import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderGuess, orderRefusal, Poller } from '../../../src/jobs/poller/poller.js';
import { createLogger } from '../../../src/observability/logger.js';
import { PlatformHttpError } from '../../../src/platform/errors.js';
import type { SimTicket } from '../../../src/sim/model.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { type PlatformFixture, startPlatform } from '../../helpers/platform.js';

/** A pino logger whose lines are kept, to count what was logged. */
function capturingLogger() {
  const lines: { msg: string; guess?: string; status?: string }[] = [];
  const logger = createLogger('info', { write: (s: string) => lines.push(JSON.parse(s)) });
  return { logger, lines };
}

describe('the poller against a platform that ignores orderby', () => {
  let platform: PlatformFixture;
  let store: Store;
  let dir: string;
  let poller: Poller;
  const log = capturingLogger();

  beforeAll(async () => {
    // Seeded an hour ago, all in one second (a frozen clock: a seed that straddles a second would
    // already show an order), then the clock runs.
    let seeding = true;
    const seededAt = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
    platform = await startPlatform(
      { now: () => (seeding ? seededAt : Date.now()), quirks: { ignoreOrderBy: true } },
      { logger: log.logger },
    );
    seeding = false;
    dir = mkdtempSync(join(tmpdir(), 'confdesk-poller-order-'));
    store = await openStore({ dataDir: dir });
    // Small pages: the list spans several, and an old ticket's change is on the last one.
    poller = new Poller({ platform: platform.client, store, logger: createLogger('silent'), pageSize: 2 });
    await store.addSubscription({
      id: 'all',
      channel: 'CALL',
      kind: 'follow',
      ticketId: undefined,
      filter: {},
      createdBy: 'U1',
    });
  });
  afterAll(async () => {
    await store.close();
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ticket = (reference: string) =>
    [...platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;
  const listRequests = () => platform.sim.requests.filter((r) => r.path === '/api/v3/tickets');
  const pictures = async (t: SimTicket) =>
    (await store.outboxOf(String(t.id))).filter((i) => i.payload.eventName === 'media.pictureTaken');

  it('finds a change to the oldest ticket (on the last page) exactly once, then reads every page; logged once', async () => {
    await poller.scanOnce();
    // Seeded in one second: no order can be told from such a list yet, so nothing is decided.
    expect(platform.client.findings.statusOf(orderGuess)).toBe('unknown');
    await new Promise((r) => setTimeout(r, 1_600));
    await poller.scanOnce();
    // The ticket that started longest ago sorts last by start time: its change is on the last page.
    const oldest = [...platform.sim.state.tickets.values()]
      .filter((t) => !t.deleted)
      .sort((a, b) => (a.startTime ?? a.created) - (b.startTime ?? b.created))[0] as SimTicket;
    const known = (await pictures(oldest)).length;
    platform.sim.state.takePicture(oldest);
    expect(await poller.scanOnce()).toBeGreaterThan(0);
    expect(await pictures(oldest)).toHaveLength(known + 1);
    expect(platform.client.findings.statusOf(orderGuess)).toBe('ignored');
    // Later scans read the whole list, every page, no order asked, and find nothing twice.
    await new Promise((r) => setTimeout(r, 1_600));
    await poller.scanOnce();
    const before = listRequests().length;
    expect(await poller.scanOnce()).toBe(0);
    const scan = listRequests().slice(before);
    const listed = [...platform.sim.state.tickets.values()].filter(
      (t) => !t.deleted && t.enterpriseId === oldest.enterpriseId,
    );
    expect(listed.length).toBeGreaterThan(4);
    expect(scan.length).toBeGreaterThanOrEqual(Math.ceil(listed.length / 2));
    expect(scan.every((r) => r.query.orderby === undefined && r.query.order === undefined)).toBe(true);
    expect(await pictures(oldest)).toHaveLength(known + 1);
    const keys = (await store.outboxOf(String(oldest.id))).map((i) => `${i.channel} ${i.eventId}`);
    expect(new Set(keys).size).toBe(keys.length);
    const logged = log.lines.filter((l) => l.guess === orderGuess);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.status).toBe('ignored');
    expect(logged[0]?.msg).toMatch(/asked for orderby=modified&order=desc.*every page is read/);
  });

  it('still finds changes to several tickets in one scan', async () => {
    const [a, b] = [ticket('ACME-1002'), ticket('ACME-1001')];
    const [ka, kb] = [(await pictures(a)).length, (await pictures(b)).length];
    platform.sim.state.takePicture(a);
    await new Promise((r) => setTimeout(r, 1_100));
    platform.sim.state.takePicture(b);
    await poller.scanOnce();
    expect(await pictures(a)).toHaveLength(ka + 1);
    expect(await pictures(b)).toHaveLength(kb + 1);
  });
});

describe('the poller against a platform that honours orderby', () => {
  let platform: PlatformFixture;
  let store: Store;
  let dir: string;
  const log = capturingLogger();

  beforeAll(async () => {
    let offset = -3_600_000;
    platform = await startPlatform({ now: () => Date.now() + offset }, { logger: log.logger });
    offset = 0;
    dir = mkdtempSync(join(tmpdir(), 'confdesk-poller-order-'));
    store = await openStore({ dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('confirms the order once the list can show it, asking oldest first once, then stops early', async () => {
    const poller = new Poller({ platform: platform.client, store, logger: createLogger('silent') });
    await poller.scanOnce();
    await new Promise((r) => setTimeout(r, 1_600));
    const t4 = [...platform.sim.state.tickets.values()].find((t) => t.reference === 'ACME-1004') as SimTicket;
    platform.sim.state.takePicture(t4);
    await poller.scanOnce();
    expect(platform.client.findings.statusOf(orderGuess)).toBe('confirmed');
    const list = () => platform.sim.requests.filter((r) => r.path === '/api/v3/tickets');
    expect(list().filter((r) => r.query.order === 'asc')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1_600));
    await poller.scanOnce();
    const before = list().length;
    expect(await poller.scanOnce()).toBe(0);
    expect(
      list()
        .slice(before)
        .map((r) => r.query.order),
    ).toEqual(['desc']);
    expect(list().filter((r) => r.query.order === 'asc')).toHaveLength(1);
    expect(log.lines.filter((l) => l.guess === orderGuess).map((l) => l.status)).toEqual(['confirmed']);
  });
});

describe('a refusal of the order', () => {
  it('is a 4xx that names orderby or order, and nothing else', () => {
    const refusal = orderRefusal(
      new PlatformHttpError('listTickets', 400, { error: 'Parameter orderby: unknown value modified' }),
    );
    expect(refusal).toMatch(
      /refused orderby=modified&order=desc \(400: Parameter orderby: unknown value modified\)/,
    );
    expect(orderRefusal(new PlatformHttpError('listTickets', 400, { error: 'Invalid order' }))).toBeDefined();
    expect(
      orderRefusal(new PlatformHttpError('listTickets', 400, { error: 'Parameter user: bad' })),
    ).toBeUndefined();
    expect(
      orderRefusal(new PlatformHttpError('listTickets', 401, { error: 'bad order token' })),
    ).toBeUndefined();
    expect(
      orderRefusal(new PlatformHttpError('listTickets', 503, { error: 'orderby down' })),
    ).toBeUndefined();
    expect(orderRefusal(new Error('orderby'))).toBeUndefined();
  });
});
