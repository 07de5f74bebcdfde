import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsRead, Poller } from '../../../src/jobs/poller/poller.js';
import { createLogger } from '../../../src/observability/logger.js';
import type { SimTicket } from '../../../src/sim/model.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { type PlatformFixture, startPlatform } from '../../helpers/platform.js';

let platform: PlatformFixture;
let store: Store;
let dir: string;
let poller: Poller;
/** When set, the simulator's clock stands still there (so that things happen in one second). */
let frozen: number | undefined;

beforeAll(async () => {
  // The simulator's seeded history is an hour old; after that its clock is ours.
  let offset = -3_600_000;
  platform = await startPlatform({ now: () => (frozen ?? Date.now()) + offset });
  offset = 0;
  dir = mkdtempSync(join(tmpdir(), 'confdesk-poller-'));
  store = await openStore({ dataDir: dir });
  poller = new Poller({
    platform: platform.client,
    store,
    logger: createLogger('silent'),
  });
});
afterAll(async () => {
  await store.close();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const ticket = (reference: string) =>
  [...platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;
const requests = () => platform.sim.requests.filter((r) => r.path.startsWith('/api/v3/tickets'));

describe('the poller', () => {
  it('writes the new events of watched and followed tickets to the outbox, for the channels that want them', async () => {
    const t4 = ticket('ACME-1004');
    await store.addSubscription({
      id: 'w',
      channel: 'CW',
      kind: 'watch',
      ticketId: String(t4.id),
      filter: {},
      createdBy: 'U1',
    });
    await store.save({ ticketId: String(t4.id), channel: 'CW', ts: '9.0' });
    await store.addSubscription({
      id: 'f',
      channel: 'CF',
      kind: 'follow',
      ticketId: undefined,
      filter: { groupId: '10' },
      createdBy: 'U1',
    });
    const subscribedAt = Date.now();
    expect(await poller.scanOnce()).toBeGreaterThan(0);
    // The ticket's history (hours old in the simulator) stays out of the thread; new events go in.
    const t4events = () => store.outboxOf(String(t4.id));
    expect(t4.events.some((e) => e.timestamp < subscribedAt - 60_000)).toBe(true);
    expect(
      (await t4events()).filter((i) => Date.parse(String(i.payload.timestamp)) < subscribedAt - 60_000),
    ).toEqual([]);
    platform.sim.state.takePicture(t4);
    await poller.checkTicket(String(t4.id));
    const watched = await t4events();
    expect(watched.map((i) => i.channel)).toEqual(Array(watched.length).fill('CW'));
    expect(watched.map((i) => i.payload.eventName)).toContain('media.pictureTaken');
    // Level 1's tickets go to the follower, each after its card (the channel has none); Level 2's do not.
    const t1 = await store.outboxOf(String(ticket('ACME-1001').id));
    expect(t1[0]).toMatchObject({ channel: 'CF', eventId: 'card', payload: { card: true } });
    expect(t1.every((i) => i.channel === 'CF')).toBe(true);
    expect(watched.some((i) => i.channel === 'CF')).toBe(false);
  });

  it('spends one list request when nothing changed, and one more per changed followed ticket', async () => {
    // Versions read within 2 s of their change are looked at once more (times are to the second).
    await new Promise((r) => setTimeout(r, 2_100));
    await poller.scanOnce();
    const before = requests().length;
    expect(await poller.scanOnce()).toBe(0);
    expect(requests().length - before).toBe(1);
    const t4 = ticket('ACME-1004');
    const known = (await store.outboxOf(String(t4.id))).length;
    platform.sim.state.takePicture(t4);
    const mid = requests().length;
    const written = await poller.scanOnce();
    expect(written).toBe((await store.outboxOf(String(t4.id))).length - known);
    expect(written).toBeGreaterThan(0);
    expect(
      requests()
        .slice(mid)
        .map((r) => r.path),
    ).toEqual(['/api/v3/tickets', `/api/v3/tickets/${t4.id}/events`]);
  });

  it('leaves out the events of a change made from Slack, and tells what the guest did in the same second', async () => {
    const t = ticket('ACME-1002');
    const ticketId = String(t.id);
    await store.addSubscription({
      id: 'wg',
      channel: 'CG',
      kind: 'watch',
      ticketId,
      filter: {},
      createdBy: 'U1',
    });
    await store.save({ ticketId, channel: 'CG', ts: '8.0' });
    await poller.checkTicket(ticketId);
    const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();
    const since = second(t.modified);
    frozen = Math.floor(Date.now() / 1000) * 1000 + 1_500;
    try {
      // An agent takes the ticket from Slack; in the same second, the guest joins.
      platform.sim.state.assignAgent(t, t.agentId === 101 ? 102 : 101, 'agent');
      platform.sim.state.guestJoins(t);
      await store.advance([
        {
          ticketId,
          eventId: `move:${ticketId}:take`,
          channel: 'CG',
          payload: { line: 'took', actor: 'UALICE', cover: { since, at: second(t.modified) } },
        },
      ]);
      await poller.checkTicket(ticketId);
    } finally {
      frozen = undefined;
    }
    const told = (await store.outboxOf(ticketId))
      .filter((i) => i.channel === 'CG' && typeof i.payload.eventName === 'string')
      .map((i) => i.payload.eventName);
    // Before: none of the guest's join (all in the cover's second) was ever told.
    expect(told).toEqual(
      expect.arrayContaining([
        'ticket.invitationClicked',
        'consent.accepted',
        'session.established',
        'ticket.sessionStarted',
      ]),
    );
    // The person's line says the assignment.
    expect(told).not.toContain('ticket.assigned');
  });
});

describe('which webhooks cost a read (needsRead)', () => {
  it('a ticket update that does not say its state, and a partial event; not a described change nor a delete', () => {
    const ticket = { kind: 'ticket', ticketId: '1', event: 'update', at: undefined } as const;
    expect(needsRead({ ...ticket, state: undefined })).toBe(true);
    expect(needsRead({ ...ticket, state: 'open' })).toBe(false);
    expect(needsRead({ ...ticket, event: 'delete', state: undefined })).toBe(false);
    expect(needsRead({ kind: 'partial', ticketId: '1', missing: ['eventName'] })).toBe(true);
    expect(needsRead({ kind: 'none' })).toBe(false);
  });
});
