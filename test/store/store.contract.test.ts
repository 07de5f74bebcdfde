import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/schema.js';
import {
  inspectStore,
  type OutboxItem,
  openStore,
  type Store,
  type StoreOptions,
} from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

/**
 * ONE contract for both backends: the embedded SQLite file always, PostgreSQL when TEST_DATABASE_URL
 * is set (`.ci/run` sets it); each run works in its own schema and drops it afterwards.
 */
const backends = storeBackends('store contract tests');

describe.each(backends)('the store, $name', ({ options }) => {
  const open = async (o: StoreOptions, now?: () => Date) => openStore({ ...o, ...(now ? { now } : {}) });

  it('keeps ticket ↔ card links, one per channel, and everything across a restart', async () => {
    const o = options();
    let store: Store = await open(o);
    await store.save({ ticketId: '1', channel: 'C1', ts: '1.1' });
    await store.save({ ticketId: '1', channel: 'C2', ts: '2.1' });
    await store.save({ ticketId: '1', channel: 'C1', ts: '1.2' });
    await store.keepStatistics(5, '2027-01-01', { session_count: 3 });
    await store.markGone('CG', 'channel_not_found');
    await store.close();
    store = await open(o);
    expect(await store.find('1', 'C1')).toEqual({ ticketId: '1', channel: 'C1', ts: '1.2' });
    expect((await store.forTicket('1')).map((l) => l.channel).sort()).toEqual(['C1', 'C2']);
    expect(await store.find('1', 'C9')).toBeUndefined();
    // A click on a card: which ticket the message it is on belongs to (a moved card, not its old ts).
    expect(await store.at('C1', '1.2')).toEqual({ ticketId: '1', channel: 'C1', ts: '1.2' });
    expect(await store.at('C1', '1.1')).toBeUndefined();
    expect(await store.keptStatistics(5, '2027-01-01')).toEqual({ session_count: 3 });
    expect(await store.keptStatistics(5, '2027-01-02')).toBeUndefined();
    expect(await store.isGone('CG')).toBe(true);
    expect(await store.isGone('C1')).toBe(false);
    await store.close();
  });

  it('keeps subscriptions per channel: watches match their ticket, follows match every ticket', async () => {
    const store = await open(options());
    await store.addSubscription({
      id: 's1',
      channel: 'C1',
      kind: 'watch',
      ticketId: '7',
      filter: {},
      createdBy: 'U1',
    });
    await store.addSubscription({
      id: 's2',
      channel: 'C2',
      kind: 'follow',
      ticketId: undefined,
      filter: { group: '10' },
      createdBy: 'U2',
    });
    expect((await store.subscriptionsOf('C1')).map((s) => s.id)).toEqual(['s1']);
    expect((await store.subscriptionsForTicket('7')).map((s) => s.id).sort()).toEqual(['s1', 's2']);
    expect((await store.subscriptionsForTicket('8')).map((s) => s.id)).toEqual(['s2']);
    expect((await store.subscriptionsOf('C2'))[0]?.filter).toEqual({ group: '10' });
    expect((await store.subscriptionsBy('U2')).map((s) => [s.id, s.channel])).toEqual([['s2', 'C2']]);
    expect(await store.subscriptionsBy('U3')).toEqual([]);
    expect(await store.removeSubscription('s1')).toBe(true);
    expect(await store.removeSubscription('s1')).toBe(false);
    await store.close();
  });

  // issue 37: reactions
  it('keeps a channel’s reactions as a subscription that no ticket matches and that watches nothing', async () => {
    const store = await open(options());
    expect(await store.watchesAnything()).toBe(false);
    await store.addSubscription({
      id: 'r1',
      channel: 'C1',
      kind: 'reactions',
      ticketId: undefined,
      filter: {},
      createdBy: 'U1',
    });
    expect((await store.subscriptionsOf('C1')).map((s) => [s.id, s.kind])).toEqual([['r1', 'reactions']]);
    expect(await store.subscriptionsForTicket('7')).toEqual([]);
    // Reactions alone leave the scans asleep: nothing is watched.
    expect(await store.watchesAnything()).toBe(false);
    await store.addSubscription({
      id: 's1',
      channel: 'C1',
      kind: 'follow',
      ticketId: undefined,
      filter: {},
      createdBy: 'U1',
    });
    expect(await store.watchesAnything()).toBe(true);
    await store.close();
  });

  it('takes a Slack event once by its id, across a restart, and forgets ids older than an hour', async () => {
    const o = options();
    let store = await open(o);
    const at = new Date('2027-03-26T10:00:00.000Z');
    expect(await store.firstDelivery('Ev1', at)).toBe(true);
    expect(await store.firstDelivery('Ev1', at)).toBe(false);
    await store.close();
    store = await open(o);
    expect(await store.firstDelivery('Ev1', new Date(at.getTime() + 5 * 60_000))).toBe(false);
    // A later event drops the ids older than an hour: Ev1 would be new again (Slack never retries so late).
    expect(await store.firstDelivery('Ev2', new Date(at.getTime() + 61 * 60_000))).toBe(true);
    expect(await store.firstDelivery('Ev1', new Date(at.getTime() + 62 * 60_000))).toBe(true);
    expect(await store.firstDelivery('Ev2', new Date(at.getTime() + 62 * 60_000))).toBe(false);
    await store.close();
  });

  it('keeps a platform account’s memory (grants, cached reads) across a restart, each account its own', async () => {
    const o = options();
    let store = await open(o);
    expect(await store.recallPlatformMemory('https://p.example user a', 'grants')).toEqual([]);
    await store.keepPlatformMemory('https://p.example user a', 'grants', [1, 2, 3]);
    await store.keepPlatformMemory('https://p.example user a', 'grants', [2, 3, 4]);
    const entry = { key: 'getMe x', tag: 'me', expiresAt: 5, value: { id: 1, name: 'Zoë' } };
    await store.keepPlatformMemory('https://p.example user a', 'reads', [entry]);
    await store.close();
    store = await open(o);
    expect(await store.recallPlatformMemory('https://p.example user a', 'grants')).toEqual([2, 3, 4]);
    expect(await store.recallPlatformMemory('https://p.example user a', 'reads')).toEqual([entry]);
    expect(await store.recallPlatformMemory('https://p.example user b', 'grants')).toEqual([]);
    await store.close();
  });

  it('fills the outbox and the version seen in one transaction; a re-polled event is a no-op', async () => {
    const store = await open(options());
    const item = (eventId: string) => ({
      ticketId: '7',
      eventId,
      channel: 'C1',
      payload: { eventName: 'x' },
    });
    const seen = (modified: string) => ({ ticketId: '7', modified, state: 'open', pushedAt: modified });
    expect(await store.advance([item('e1'), item('e2')], seen('A'))).toBe(2);
    expect(await store.advance([item('e2'), item('e3')], seen('B'))).toBe(1);
    expect((await store.lastSeen('7'))?.modified).toBe('B');
    expect((await store.outboxOf('7')).map((i) => i.eventId)).toEqual(['e1', 'e2', 'e3']);
    expect((await store.knownTicket('7')).pushedAt).toBe('B');
    // A failure inside the transaction keeps neither the version seen nor the events.
    const broken = { ...item('e4'), channel: null as unknown as string };
    await expect(store.advance([item('e5'), broken], seen('C'))).rejects.toThrow();
    expect((await store.lastSeen('7'))?.modified).toBe('B');
    expect((await store.knownTicket('7')).pushedAt).toBe('B');
    expect((await store.outboxOf('7')).map((i) => i.eventId)).toEqual(['e1', 'e2', 'e3']);
    await store.close();
  });

  // A state line ("open → inprogress", from a list page) and the platform's own event of that move.
  const stateLine = (ticketId: string) => ({
    ticketId,
    eventId: 'stateline:inprogress:2027-01-01T10:00:05.000Z',
    channel: 'C1',
    payload: {
      stateLine: true,
      from: 'open',
      to: 'inprogress',
      cover: { since: '2027-01-01T10:00:00.000Z', at: '2027-01-01T10:00:05.000Z', only: 'state' },
    },
  });
  const stateEvent = (ticketId: string) => ({
    ticketId,
    eventId: 'ev-started',
    channel: 'C1',
    payload: { eventName: 'ticket.sessionStarted', timestamp: '2027-01-01T10:00:05.000Z', source: 'agent' },
  });
  const statusOf = async (store: Store, ticketId: string) =>
    Object.fromEntries((await store.outboxOf(ticketId)).map((i) => [i.eventId.split(':')[0], i.status]));

  it('settles in the same write what a line already tells, whichever of the line and its event comes second', async () => {
    const store = await open(options());
    // The event waits; the line written after it tells it.
    await store.advance([stateEvent('1')]);
    expect(await store.advance([stateLine('1')])).toBe(1);
    expect(await statusOf(store, '1')).toEqual({ 'ev-started': 'delivered', stateline: 'pending' });
    // The line waits (or went out); the event written after it is told already.
    await store.advance([stateLine('2')]);
    await store.advance([stateEvent('2')]);
    expect(await statusOf(store, '2')).toEqual({ stateline: 'pending', 'ev-started': 'delivered' });
    // Settled without a post: no message, and nothing left to claim.
    expect((await store.outboxOf('2')).find((i) => i.eventId === 'ev-started')?.slackTs).toBeUndefined();
    expect((await store.claim('w1', 10, 60_000)).map((i) => i.eventId).sort()).toEqual(
      [stateLine('1').eventId, stateLine('2').eventId].sort(),
    );
    await store.close();
  });

  it('never settles an item in flight: the line gives way, and an event let go unposted is still told', async () => {
    const store = await open(options());
    await store.advance([stateEvent('3')]);
    const [claimed] = await store.claim('w1', 10, 60_000);
    // Its claimer may be posting it now: the line that tells it is the one left out.
    await store.advance([stateLine('3')]);
    expect(await statusOf(store, '3')).toEqual({ 'ev-started': 'unknown', stateline: 'delivered' });
    // Let go unposted (a 429, a shutdown): a later write for the ticket leaves it waiting, to be told.
    expect(await store.settle(claimed as OutboxItem, { status: 'pending' })).toBe(true);
    await store.advance([
      {
        ...stateEvent('3'),
        eventId: 'ev-picture',
        payload: { eventName: 'media.pictureTaken', timestamp: '2027-01-01T10:00:09.000Z' },
      },
    ]);
    expect(await statusOf(store, '3')).toEqual({
      'ev-started': 'pending',
      stateline: 'delivered',
      'ev-picture': 'pending',
    });
    await store.close();
  });

  it('two writers of one thread at the same moment, a line and its event: the event is settled, every time', async () => {
    const store = await open(options());
    const tickets = Array.from({ length: 20 }, (_, n) => `t${n}`);
    await Promise.all(
      tickets.flatMap((t, n) =>
        n % 2
          ? [store.advance([stateLine(t)]), store.advance([stateEvent(t)])]
          : [store.advance([stateEvent(t)]), store.advance([stateLine(t)])],
      ),
    );
    for (const t of tickets)
      expect(await statusOf(store, t)).toEqual({ stateline: 'pending', 'ev-started': 'delivered' });
    await store.close();
  });

  it('leases each channel to one claimer at a time, in order, until the lease runs out; settled items stay settled', async () => {
    let now = new Date('2027-01-01T10:00:00Z');
    const store = await open(options(), () => now);
    const item = (eventId: string, channel: string) => ({ ticketId: '9', eventId, channel, payload: {} });
    await store.advance([
      ...Array.from({ length: 6 }, (_, i) => item(`e${i}`, 'C1')),
      ...Array.from({ length: 3 }, (_, i) => item(`f${i}`, 'C2')),
    ]);
    const [a = [], b = []] = await Promise.all([store.claim('w1', 4, 60_000), store.claim('w2', 4, 60_000)]);
    const claimed = [...a, ...b];
    expect(new Set(claimed.map((i) => i.eventId)).size).toBe(claimed.length);
    // Whoever claimed first took C1's first four, in the order written; the other got C2 alone.
    const [c1, c2] = a[0]?.channel === 'C1' ? [a, b] : [b, a];
    expect(c1.map((i) => i.eventId)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(c2.map((i) => i.eventId)).toEqual(['f0', 'f1', 'f2']);
    // C1's last two wait: their channel is someone else's while the lease lasts.
    expect(await store.claim('w3', 10, 60_000)).toEqual([]);
    const [first, second, third] = c1 as [OutboxItem, OutboxItem, OutboxItem];
    expect(await store.settle(first, { status: 'delivered', slackTs: '123.456' })).toBe(true);
    expect(await store.settle({ ...third, leaseOwner: 'not-the-owner' }, { status: 'delivered' })).toBe(
      false,
    );
    await store.settle(second, { status: 'pending', retryAt: new Date(now.getTime() + 5_000) });
    // An item waiting for its retry holds its channel back, so nothing overtakes it.
    await store.settle(third, { status: 'pending' });
    now = new Date(now.getTime() + 61_000); // every lease has run out
    const again = await store.claim('w4', 10, 60_000);
    expect(again.map((i) => i.eventId)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'f0', 'f1', 'f2']);
    expect(again.find((i) => i.eventId === 'e1')?.attempts).toBe(2);
    expect(again.find((i) => i.eventId === 'e4')?.attempts).toBe(1);
    for (const i of again)
      await store.settle(i, {
        status: i.eventId === 'e1' ? 'unknown' : 'pending',
        ...(i.eventId === 'e1' ? { retryAt: new Date(now.getTime() + 2_000) } : {}),
      });
    expect((await store.claim('w5', 10, 60_000)).map((i) => i.channel)).toEqual(['C2', 'C2', 'C2']);
    const delivered = (await store.outboxOf('9')).find((i) => i.eventId === 'e0');
    expect(delivered).toMatchObject({ status: 'delivered', slackTs: '123.456' });
    await store.close();
  });

  it('claims at most so many items of one channel, so a batch spans every channel', async () => {
    const store = await open(options());
    const item = (eventId: string, channel: string) => ({ ticketId: '4', eventId, channel, payload: {} });
    await store.advance(['a', 'b', 'c'].map((e) => item(e, 'C3')));
    await store.advance(['d', 'e', 'f'].map((e) => item(e, 'C4')));
    const got = await store.claim('w', 10, 60_000, 2);
    expect(got.map((i) => `${i.channel}:${i.eventId}`).sort()).toEqual(['C3:a', 'C3:b', 'C4:d', 'C4:e']);
    await store.close();
  });

  it('counts an idle claimer (nothing due) among the claimers, and its later claims still take what became due', async () => {
    const store = await open(options());
    // Nothing due: an empty claim, but z is seen (a busy claimer leaves it its share).
    expect(await store.claim('z', 10, 60_000)).toEqual([]);
    expect((await store.liveLeases('claimer:')).map((l) => l.owner)).toEqual(['z']);
    await store.advance(
      ['C9', 'C10'].map((channel) => ({ ticketId: '9', eventId: 'e', channel, payload: {} })),
    );
    // Two claimers seen: w takes half the channels, z the rest.
    expect((await store.claim('w', 10, 60_000)).map((i) => i.channel)).toEqual(['C9']);
    expect((await store.claim('z', 10, 60_000)).map((i) => i.channel)).toEqual(['C10']);
    await store.close();
  });

  it('splits the channels with due items between the claimers seen lately', async () => {
    const store = await open(options());
    await store.advance(
      ['C5', 'C6', 'C7', 'C8'].map((channel) => ({ ticketId: '6', eventId: 'e', channel, payload: {} })),
    );
    expect((await store.claim('y', 1, 60_000)).map((i) => i.channel)).toEqual(['C5']);
    // Two claimers now: x takes half of the three channels left (rounded up), y's turn comes next.
    expect((await store.claim('x', 10, 60_000)).map((i) => i.channel)).toEqual(['C6', 'C7']);
    expect((await store.claim('y', 10, 60_000)).map((i) => i.channel)).toEqual(['C8']);
    await store.close();
  });

  it('keeps digest schedules, and sends each (schedule, day) once: retries when asked, takes over a dead sender', async () => {
    let now = new Date('2027-03-28T07:00:00Z');
    const store = await open(options(), () => now);
    const base = { channel: 'CD', zone: 'Europe/Paris', time: '09:00', createdBy: 'U1' };
    await store.addDigestSchedule({ id: 'd1', ...base, weekdays: [1, 2, 3, 4, 5] });
    await store.addDigestSchedule({ id: 'd2', ...base, channel: 'CE', weekdays: [7] });
    expect((await store.digestSchedules('CD')).map((d) => [d.id, d.weekdays])).toEqual([
      ['d1', [1, 2, 3, 4, 5]],
    ]);
    expect((await store.digestSchedules()).map((d) => d.id)).toEqual(['d1', 'd2']);
    // Three replicas at the same minute: one sends.
    const claims = await Promise.all(
      ['r1', 'r2', 'r3'].map((r) => store.claimDigestRun('d1', '2027-03-29', r, 60_000)),
    );
    expect(claims.filter((c) => c === 1)).toHaveLength(1);
    expect(claims.filter((c) => c === undefined)).toHaveLength(2);
    // A metric was missing: try again later that day, not before.
    await store.settleDigestRun('d1', '2027-03-29', {
      status: 'retry',
      retryAt: new Date(now.getTime() + 600_000),
    });
    expect(await store.claimDigestRun('d1', '2027-03-29', 'r2', 60_000)).toBeUndefined();
    now = new Date(now.getTime() + 600_000);
    expect(await store.claimDigestRun('d1', '2027-03-29', 'r2', 60_000)).toBe(2);
    // r2 dies while sending: once its lease runs out, another replica takes the run over.
    expect(await store.claimDigestRun('d1', '2027-03-29', 'r3', 60_000)).toBeUndefined();
    now = new Date(now.getTime() + 61_000);
    expect(await store.claimDigestRun('d1', '2027-03-29', 'r3', 60_000)).toBe(3);
    await store.settleDigestRun('d1', '2027-03-29', { status: 'sent', slackTs: '5.5' });
    now = new Date(now.getTime() + 86_400_000);
    expect(await store.claimDigestRun('d1', '2027-03-29', 'r1', 60_000)).toBeUndefined();
    expect(await store.digestRun('d1', '2027-03-29')).toEqual({
      status: 'sent',
      attempts: 3,
      slackTs: '5.5',
    });
    // Another day is another run.
    expect(await store.claimDigestRun('d1', '2027-03-30', 'r1', 60_000)).toBe(1);
    expect(await store.removeDigestSchedule('d2')).toBe(true);
    expect(await store.removeDigestSchedule('d2')).toBe(false);
    await store.close();
  });

  it('gives a named lease to one owner until it runs out or is released', async () => {
    let now = new Date('2027-01-01T10:00:00Z');
    const store = await open(options(), () => now);
    const [x, y] = await Promise.all([
      store.acquireLease('poller', 'r1', 60_000),
      store.acquireLease('poller', 'r2', 60_000),
    ]);
    expect([x, y].filter(Boolean)).toHaveLength(1);
    const [holder, other] = x ? ['r1', 'r2'] : ['r2', 'r1'];
    expect(await store.acquireLease('poller', holder, 60_000)).toBe(true); // renewed
    now = new Date(now.getTime() + 59_000);
    expect(await store.acquireLease('poller', other, 60_000)).toBe(false);
    now = new Date(now.getTime() + 61_000);
    expect(await store.acquireLease('poller', other, 60_000)).toBe(true); // the holder stopped renewing
    await store.releaseLease('poller', other);
    expect(await store.acquireLease('poller', holder, 60_000)).toBe(true);
    await store.close();
  });

  it('marks a channel gone once across concurrent callers; back in it, its parked items go out again', async () => {
    const store = await open(options());
    const tries = await Promise.all([1, 2, 3].map((n) => store.markGone('C9', `try ${n}`)));
    expect(tries.filter(Boolean)).toHaveLength(1);
    expect(await store.isGone('C9')).toBe(true);
    await store.advance([{ ticketId: '3', eventId: 'p1', channel: 'C9', payload: {} }]);
    const [claimed] = await store.claim('w', 1, 60_000);
    await store.settle(claimed as OutboxItem, { status: 'parked' });
    expect(await store.claim('w', 1, 60_000)).toEqual([]);
    expect(await store.backInChannel('C9')).toBe(1);
    expect(await store.isGone('C9')).toBe(false);
    // Not gone (any more): nothing to do, and said so.
    expect(await store.backInChannel('C9')).toBeUndefined();
    expect((await store.claim('w', 1, 60_000)).map((i) => i.eventId)).toEqual(['p1']);
    await store.close();
  });

  it('tells of a dead letter, a refused digest and a digest not allowed once each, until cleared', async () => {
    const store = await open(options());
    const told = await Promise.all([1, 2].map(() => store.markDeadLetterTold('C1', 'invalid_blocks')));
    expect(told.filter(Boolean)).toHaveLength(1);
    expect(await store.markDeadLetterTold('C1', 'msg_too_long')).toBe(true);
    expect(await store.markDigestRefused('d1', 'not_in_channel')).toBe(true);
    expect(await store.markDigestRefused('d1', 'not_in_channel')).toBe(false);
    await store.clearDigestRefused('d1');
    expect(await store.markDigestRefused('d1', 'is_archived')).toBe(true);
    expect(await store.markDigestNotAllowed('d1', 'U1')).toBe(true);
    expect(await store.markDigestNotAllowed('d1', 'U1')).toBe(false);
    await store.close();
  });

  it('replaces a digest schedule in one transaction: never none, never two, nothing kept on failure', async () => {
    const store = await open(options());
    const s = {
      id: 'd1',
      channel: 'C1',
      zone: 'Europe/Paris',
      time: '09:00',
      weekdays: [1, 2],
      createdBy: 'U1',
    };
    await store.addDigestSchedule(s);
    await store.replaceDigestSchedule({ ...s, time: '10:30', weekdays: [5] });
    expect(await store.digestSchedules('C1')).toEqual([{ ...s, time: '10:30', weekdays: [5] }]);
    // A replacement that cannot be written leaves the schedule as it was (the removal is rolled back).
    const broken = { ...s, time: null as unknown as string };
    await expect(store.replaceDigestSchedule(broken)).rejects.toThrow();
    expect(await store.digestSchedules('C1')).toEqual([{ ...s, time: '10:30', weekdays: [5] }]);
    // A schedule removed meanwhile is set up again.
    expect(await store.removeDigestSchedule('d1')).toBe(true);
    await store.replaceDigestSchedule(s);
    expect(await store.digestSchedules()).toEqual([s]);
    await store.close();
  });

  it('sets a refused item aside with its reason: listed as a dead letter, it holds its channel back no more', async () => {
    let now = new Date('2027-01-01T10:00:00Z');
    const o = options();
    let store = await open(o, () => now);
    const item = (eventId: string) => ({ ticketId: '8', eventId, channel: 'CD1', payload: {} });
    await store.advance([item('d1'), item('d2'), item('d3')]);
    const [first] = await store.claim('w', 1, 60_000);
    expect(first?.eventId).toBe('d1');
    now = new Date(now.getTime() + 5_000);
    expect(await store.settle(first as OutboxItem, { status: 'dead', reason: 'invalid_blocks' })).toBe(true);
    // The next claim goes on with the channel's next items, at once.
    const rest = await store.claim('w', 10, 60_000);
    expect(rest.map((i) => i.eventId)).toEqual(['d2', 'd3']);
    for (const i of rest) await store.settle(i, { status: 'delivered', slackTs: `1.${i.eventId}` });
    expect(await store.claim('w', 10, 60_000)).toEqual([]);
    await store.close();
    // Across a restart, the operator's list shows it with its reason and when it was set aside.
    store = await open(o, () => now);
    const dead = await store.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({
      ticketId: '8',
      eventId: 'd1',
      channel: 'CD1',
      status: 'dead',
      reason: 'invalid_blocks',
      settledAt: new Date('2027-01-01T10:00:05Z'),
    });
    expect((await store.outboxOf('8')).map((i) => i.status)).toEqual(['dead', 'delivered', 'delivered']);
    expect(await store.deadLetterCount()).toBe(1);
    // Requeued (another channel's name first: nothing), it is claimed again, once.
    expect(await store.requeueDead('CELSEWHERE')).toBe(0);
    expect(await store.requeueDead('CD1')).toBe(1);
    expect(await store.deadLetterCount()).toBe(0);
    expect((await store.claim('w', 10, 60_000)).map((i) => i.eventId)).toEqual(['d1']);
    expect(await store.requeueDead()).toBe(0);
    await store.close();
  });

  it('counts the outbox items still waiting by state, with the oldest of each (the metrics’ gauges)', async () => {
    let now = new Date('2027-01-01T10:00:00Z');
    const store = await open(options(), () => now);
    const none = { items: 0, oldestAt: undefined };
    expect(await store.outboxDepth()).toEqual({ pending: none, unknown: none, parked: none, dead: none });
    const item = (eventId: string, channel = 'CM1') => ({ ticketId: '9', eventId, channel, payload: {} });
    await store.advance([item('m1'), item('m2')]);
    now = new Date('2027-01-01T10:01:00Z');
    await store.advance([item('m3'), item('m4', 'CM2'), item('m5', 'CM3')]);
    // CM1's first item is claimed (unknown until settled), CM2's delivered (history, not depth),
    // CM3's dead; m2 and m3 still pending, the oldest written at 10:00.
    const claimed = await store.claim('w', 1, 60_000);
    expect(claimed.map((i) => i.eventId)).toEqual(['m1']);
    const others = await store.claim('w', 10, 60_000, 1);
    expect(others.map((i) => i.eventId).sort()).toEqual(['m4', 'm5']);
    for (const i of others)
      await store.settle(
        i,
        i.eventId === 'm4'
          ? { status: 'delivered', slackTs: '1.4' }
          : { status: 'dead', reason: 'msg_too_long' },
      );
    expect(await store.outboxDepth()).toEqual({
      pending: { items: 2, oldestAt: new Date('2027-01-01T10:00:00Z') },
      unknown: { items: 1, oldestAt: new Date('2027-01-01T10:00:00Z') },
      parked: none,
      dead: { items: 1, oldestAt: new Date('2027-01-01T10:01:00Z') },
    });
    await store.close();
  });

  it('remembers the last version seen of each ticket', async () => {
    const store = await open(options());
    expect(await store.lastSeen('5')).toBeUndefined();
    await store.markSeen('5', '2027-01-01T10:00:00Z', 'open');
    await store.markSeen('5', '2027-01-01T11:00:00Z', 'done');
    expect(await store.lastSeen('5')).toMatchObject({ modified: '2027-01-01T11:00:00Z', state: 'done' });
    expect(Date.parse((await store.lastSeen('5'))?.checkedAt ?? '')).not.toBeNaN();
    await store.close();
  });

  it('keeps a read backlog: the older change and the higher priority win, a read settles what came before it', async () => {
    let clock = Date.parse('2027-01-01T10:00:00Z');
    const store = await open(options(), () => new Date(clock));
    await store.wantRead({ ticketId: '1', since: '2027-01-01T09:00:05Z', priority: 1, channels: ['C1'] });
    await store.wantRead({
      ticketId: '1',
      since: '2027-01-01T09:00:09Z',
      priority: 0,
      channels: ['C1', 'C2'],
    });
    await store.wantRead({ ticketId: '2', since: '2027-01-01T09:00:01Z', priority: 1, channels: ['C3'] });
    await store.wantRead({ ticketId: '3', since: '2027-01-01T09:00:07Z', priority: 0, channels: ['C3'] });
    // Changes before checks, oldest first; ticket 1 kept its older `since` and took the higher priority.
    expect((await store.wantedReads(10)).map((w) => [w.ticketId, w.priority, w.since, w.channels])).toEqual([
      ['1', 0, '2027-01-01T09:00:05Z', ['C1', 'C2']],
      ['3', 0, '2027-01-01T09:00:07Z', ['C3']],
      ['2', 1, '2027-01-01T09:00:01Z', ['C3']],
    ]);
    expect(await store.backlogSize()).toEqual({ reads: 2, verify: 1, oldest: '2027-01-01T09:00:05Z' });
    // A read that started before ticket 3 was wanted again leaves that new want in place.
    const readFrom = new Date(clock).toISOString();
    clock += 1_000;
    await store.wantRead({ ticketId: '3', since: '2027-01-01T09:00:08Z', priority: 0, channels: ['C3'] });
    await store.advance([], { ticketId: '3', readFrom });
    await store.advance([], { ticketId: '1', readFrom });
    expect((await store.wantedReads(10)).map((w) => w.ticketId)).toEqual(['3', '2']);
    // A version and its want are written together with its items.
    await store.advance([{ ticketId: '4', eventId: 'e', channel: 'C4', payload: {} }], {
      ticketId: '4',
      modified: '2027-01-01T09:30:00Z',
      state: 'open',
      want: { since: '2027-01-01T09:30:00Z', priority: 0, channels: ['C4'] },
    });
    expect(await store.lastSeen('4')).toMatchObject({ modified: '2027-01-01T09:30:00Z', state: 'open' });
    expect((await store.wantedReads(10)).map((w) => w.ticketId)).toEqual(['3', '4', '2']);
    await store.close();
  });

  it('keeps a ticket’s record unless an older one, and how far webhooks told it', async () => {
    const store = await open(options());
    expect(await store.knownTicket('7')).toEqual({
      record: undefined,
      recordModified: undefined,
      pushedAt: undefined,
    });
    expect(await store.recordsMissing(['7', '8'])).toEqual(['7', '8']);
    expect(await store.keepRecord('7', { id: 7, state: 'open' }, '2027-01-01T10:00:00.000Z')).toBe(true);
    expect(await store.keepRecord('7', { id: 7, state: 'new' }, '2027-01-01T09:00:00.000Z')).toBe(false);
    expect(await store.keepRecord('7', { id: 7, state: 'done' }, '2027-01-01T10:00:00.000Z')).toBe(true);
    await store.advance([], { ticketId: '7', pushedAt: '2027-01-01T10:00:05.000Z' });
    await store.advance([], { ticketId: '7', pushedAt: '2027-01-01T10:00:01.000Z' });
    await store.advance([], { ticketId: '8', pushedAt: '2027-01-01T10:00:02.000Z' });
    expect(await store.knownTicket('7')).toEqual({
      record: { id: 7, state: 'done' },
      recordModified: '2027-01-01T10:00:00.000Z',
      pushedAt: '2027-01-01T10:00:05.000Z',
    });
    // Ticket 8 has a webhook's word but no record yet.
    expect(await store.recordsMissing(['7', '8'])).toEqual(['8']);
    await store.close();
  });

  it('claims a channel’s items in the platform’s order of their events, a held one not before its time', async () => {
    let clock = Date.parse('2027-01-01T10:00:00Z');
    const store = await open(options(), () => new Date(clock));
    const at = (eventId: string, eventAt: string | undefined, holdMs?: number) => ({
      ticketId: '9',
      eventId,
      channel: 'CE',
      payload: {},
      eventAt,
      holdMs,
    });
    await store.advance([at('card', '')]);
    await store.advance([at('late', '2027-01-01T09:59:58Z', 1_500)]);
    await store.advance([at('early', '2027-01-01T09:59:55Z', 1_500), at('line', undefined)]);
    // Held: what comes after them waits (nothing overtakes a held item); the card before them goes.
    const first = await store.claim('w', 10, 60_000);
    expect(first.map((i) => i.eventId)).toEqual(['card']);
    for (const i of first) await store.settle(i, { status: 'delivered', slackTs: '1.1' });
    expect((await store.claim('w', 10, 60_000)).map((i) => i.eventId)).toEqual([]);
    clock += 1_600;
    expect((await store.claim('w', 10, 60_000)).map((i) => i.eventId)).toEqual(['early', 'late', 'line']);
    await store.close();
  });

  it('serves a channel whose newest event is always held: the items before the hold go out meanwhile', async () => {
    let clock = Date.parse('2027-01-01T10:00:00Z');
    const store = await open(options(), () => new Date(clock));
    const event = (eventId: string, eventAt: string, holdMs?: number) => ({
      ticketId: '9',
      eventId,
      channel: 'CB',
      payload: {},
      eventAt,
      holdMs,
    });
    // A busy channel: each event arrives while the one before it is still held.
    await store.advance([event('e1', '2027-01-01T10:00:00Z', 1_500)]);
    clock += 1_000;
    await store.advance([event('e2', '2027-01-01T10:00:01Z', 1_500)]);
    clock += 1_000; // e1's hold is over, e2's is not
    const claimed = await store.claim('w', 10, 60_000);
    expect(claimed.map((i) => i.eventId)).toEqual(['e1']);
    // Another channel's held item holds nothing back here, and a claimed channel is not claimed twice.
    await store.advance([{ ...event('x1', '2027-01-01T10:00:02Z', 1_500), channel: 'CO' }]);
    expect(await store.claim('w2', 10, 60_000)).toEqual([]);
    await store.close();
  });

  it('tells the doctor its migrations and last webhook delivery, read from beside without changing it', async () => {
    const o = options();
    const known = Object.keys(migrations).sort();
    // Never opened: nothing applied, and looking does not create it.
    expect(await inspectStore(o)).toMatchObject({ applied: [], known, lastWebhookAt: undefined });
    expect((await inspectStore(o)).applied).toEqual([]);
    const store = await open(o);
    expect(await store.inspect()).toEqual({
      backend: store.backend,
      exists: true,
      applied: known,
      known,
      lastWebhookAt: undefined,
      ticketEvents: { reads: 0, verify: 0, oldest: undefined, ticketsListed: 0 },
    });
    await store.noteWebhookDelivery(new Date('2027-01-01T10:00:00.000Z'));
    expect(await inspectStore(o)).toMatchObject({
      exists: true,
      applied: known,
      lastWebhookAt: '2027-01-01T10:00:00.000Z',
    });
    await store.close();
  });

  // issue 22: identity links
  it('keeps a Slack person’s link to a platform account per workspace, replaces it, and removes it', async () => {
    const o = options();
    let store = await open(o);
    expect(await store.userLink('UALICE')).toBeUndefined();
    const at = new Date('2027-03-26T10:00:00.000Z');
    await store.linkUser({
      team: 'T1',
      slackUserId: 'UALICE',
      platformUserId: '12',
      linkedBy: 'UADMIN',
      linkedAt: at,
    });
    await store.linkUser({
      team: 'T1',
      slackUserId: 'UALICE',
      platformUserId: '13',
      linkedBy: 'UROOT',
      linkedAt: new Date(at.getTime() + 1_000),
    });
    await store.close();
    store = await open(o);
    expect(await store.userLink('UALICE')).toEqual({
      team: 'T1',
      slackUserId: 'UALICE',
      platformUserId: '13',
      linkedBy: 'UROOT',
      linkedAt: new Date(at.getTime() + 1_000),
    });
    expect(await store.unlinkUser('T2', 'UALICE')).toBe(false);
    expect(await store.unlinkUser('T1', 'UALICE')).toBe(true);
    expect(await store.unlinkUser('T1', 'UALICE')).toBe(false);
    expect(await store.userLink('UALICE')).toBeUndefined();
    await store.close();
  });
});
