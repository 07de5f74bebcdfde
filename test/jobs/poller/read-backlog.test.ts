import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Poller } from '../../../src/jobs/poller/poller.js';
import { createLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { type PlatformFixture, startPlatform } from '../../helpers/platform.js';

/*
 * The read backlog against the simulator and a real store: which ticket's timeline is read next.
 */
let platform: PlatformFixture;
let store: Store;
let dir: string;
let poller: Poller;
let ids: string[];

beforeAll(async () => {
  platform = await startPlatform();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-backlog-'));
  store = await openStore({ dataDir: dir });
  poller = new Poller({
    platform: platform.client,
    store,
    logger: createLogger('silent'),
    verifyGapMs: 60_000,
  });
  ids = [...platform.sim.state.tickets.values()].slice(0, 6).map((t) => String(t.id));
  // A busy channel watches four tickets, a quiet one one, a third the last (only checks wait for it).
  for (const [i, id] of ids.entries()) {
    const channel = i < 4 ? 'CBUSY' : i === 4 ? 'CQUIET' : 'CCHECK';
    await store.addSubscription({
      id: `s${i}`,
      channel,
      kind: 'watch',
      ticketId: id,
      filter: {},
      createdBy: 'U1',
    });
    await store.save({ ticketId: id, channel, ts: `5.${i}` });
  }
});
afterAll(async () => {
  await store.close();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const readsOf = (from: number) =>
  platform.sim.requests
    .slice(from)
    .filter((r) => r.path.endsWith('/events'))
    .map((r) => r.path.split('/')[4]);

describe('the read backlog', () => {
  it('reads changes before checks, the least recently served channel first, then the oldest', async () => {
    const want = (i: number, second: number, priority: 0 | 1, channel: string) =>
      store.wantRead({
        ticketId: ids[i] as string,
        since: `2027-01-01T10:00:0${second}Z`,
        priority,
        channels: [channel],
      });
    for (const i of [0, 1, 2, 3]) await want(i, i + 1, 0, 'CBUSY');
    await want(4, 9, 0, 'CQUIET');
    await want(5, 0, 1, 'CCHECK');
    const from = platform.sim.requests.length;
    await poller.backlog.drain();
    // The quiet channel's one change goes second, not after the busy channel's four; the check last.
    expect(readsOf(from)).toEqual([ids[0], ids[4], ids[1], ids[2], ids[3], ids[5]]);
    expect(await store.backlogSize()).toEqual({ reads: 0, verify: 0, oldest: undefined });
    const state = await poller.backlogState();
    expect(state).toMatchObject({ reads: 0, verify: 0, drainMs: 0 });
  });

  it('reads a check only when no change waits, and one per gap at most', async () => {
    for (const i of [0, 1])
      await store.wantRead({
        ticketId: ids[i] as string,
        since: '2027-01-01T10:00:00Z',
        priority: 1,
        channels: ['CBUSY'],
      });
    const from = platform.sim.requests.length;
    await poller.backlog.drain();
    // The first check was read by the test before (gap of 60 s): none now.
    expect(readsOf(from)).toEqual([]);
    expect(await store.backlogSize()).toMatchObject({ reads: 0, verify: 2 });
    // A change still goes at once.
    await store.wantRead({
      ticketId: ids[2] as string,
      since: '2027-01-01T10:00:00Z',
      priority: 0,
      channels: ['CBUSY'],
    });
    await poller.backlog.drain();
    expect(readsOf(from)).toEqual([ids[2]]);
  });
});

describe('the read backlog on a clock behind the timers', () => {
  it('reads a change whose gap ends just after the timer that waited for it fired', async () => {
    // The bot's clock runs at 0.9 of the timers' pace: a timer set for the gap's end fires before
    // the clock reaches it, as Date.now() may by a millisecond. The change is read in this drain.
    const start = Date.now();
    const slow = new Poller({
      platform: platform.client,
      store,
      logger: createLogger('silent'),
      now: () => start + (Date.now() - start) * 0.9,
    });
    const id = ids[3] as string;
    const want = () =>
      store.wantRead({ ticketId: id, since: '2027-01-01T10:00:00Z', priority: 0, channels: ['CBUSY'] });
    await want();
    const from = platform.sim.requests.length;
    await slow.backlog.drain();
    // (The earlier test's checks may be read too: only this ticket's reads count here.)
    const readsOfId = () => readsOf(from).filter((r) => r === id);
    expect(readsOfId()).toEqual([id]);
    // Changed again within its gap (1.5 s): the drain waits out the gap and reads it.
    await want();
    await slow.backlog.drain();
    expect(readsOfId()).toEqual([id, id]);
  });
});
