import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPools } from '../../src/store/db.js';
import { claimLock } from '../../src/store/outbox-claims.js';
import { dropStore, openStore, type Store, workspaceStoreOptions } from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

/*
 * PostgreSQL: every store of the process (the registry's, each workspace's in its own schema) shares
 * one pool, so the connections stay within DATABASE_POOL_SIZE whatever the number of workspaces; each
 * store's statements name its schema, and its claims lock its schema only.
 */

const pgBackend = storeBackends('shared pool tests').find((b) => b.name === 'PostgreSQL');

describe.runIf(pgBackend)('one PostgreSQL pool for the process', () => {
  const options = () => (pgBackend as NonNullable<typeof pgBackend>).options();

  it('serves many workspaces’ stores within the pool’s connections, each in its own schema', async () => {
    // A server address of this test's own (the same server, named for it): the unit tier runs its
    // files in shared processes, and another file's stores on the usual address share that pool.
    const o = options();
    const own = new URL(String(o.databaseUrl));
    own.searchParams.set('application_name', 'confdesk-shared-pool-test');
    const url = own.toString();
    const base = { ...o, databaseUrl: url, poolSize: 3 };
    const registry = await openStore(base);
    const teams = Array.from({ length: 25 }, (_, i) => `TPOOL${i}`);
    const stores: Store[] = [];
    for (const team of teams) stores.push(await openStore(workspaceStoreOptions(base, team)));
    try {
      expect(openPools(url)).toEqual([expect.objectContaining({ users: 26, max: 3 })]);
      // Every store at work at once: upserts with raw fragments (the read backlog's `since`), a lease's
      // conflict rule naming its table, transactions (advance, claim).
      await Promise.all(
        stores.map(async (s, i) => {
          const channel = `C${teams[i]}`;
          await s.advance([{ ticketId: '1', eventId: 'e1', channel, payload: { i } }], {
            ticketId: '1',
            modified: '2027-01-01T10:00:00Z',
            want: { since: '2027-01-01T10:00:05Z', priority: 1, channels: [channel] },
          });
          await s.wantRead({
            ticketId: '1',
            since: '2027-01-01T10:00:01Z',
            priority: 0,
            channels: [channel],
          });
          await s.wantRead({
            ticketId: '1',
            since: '2027-01-01T10:00:09Z',
            priority: 1,
            channels: [channel],
          });
          expect(await s.acquireLease('poller', `r${i}`, 60_000)).toBe(true);
          expect(await s.acquireLease('poller', 'someone-else', 60_000)).toBe(false);
          const claimed = await s.claim(`r${i}`, 10, 60_000);
          expect(claimed.map((c) => c.channel)).toEqual([channel]);
        }),
      );
      expect(openPools(url)[0]?.connections).toBeLessThanOrEqual(3);
      for (const [i, s] of stores.entries()) {
        // Its own item only, and the backlog kept the older change and the higher priority.
        expect((await s.outboxOf('1')).map((o) => [o.channel, o.payload])).toEqual([[`C${teams[i]}`, { i }]]);
        expect(await s.wantedReads(5)).toEqual([
          expect.objectContaining({ ticketId: '1', since: '2027-01-01T10:00:01Z', priority: 0 }),
        ]);
      }
      expect(await registry.outboxOf('1')).toEqual([]);
    } finally {
      await Promise.all([registry, ...stores].map((s) => s.close()));
      for (const team of teams) await dropStore(workspaceStoreOptions(base, team));
    }
    // The last store closed ends the pool: nothing holds the process open.
    expect(openPools(url)).toEqual([]);
  });

  it('a claim waits for its own workspace’s claims only', async () => {
    const base = options();
    const a = await openStore(workspaceStoreOptions(base, 'TLOCKA'));
    const b = await openStore(workspaceStoreOptions(base, 'TLOCKB'));
    const holder = new pg.Client({ connectionString: base.databaseUrl });
    await holder.connect();
    try {
      for (const s of [a, b]) await s.advance([{ ticketId: '1', eventId: 'e1', channel: 'C1', payload: {} }]);
      // Another replica in the middle of a claim of workspace A.
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [
        claimLock,
        workspaceStoreOptions(base, 'TLOCKA').schema,
      ]);
      let aDone = false;
      const aClaim = a.claim('r1', 10, 60_000).then((items) => {
        aDone = true;
        return items;
      });
      expect((await b.claim('r1', 10, 60_000)).map((i) => i.eventId)).toEqual(['e1']);
      await new Promise((r) => setTimeout(r, 300));
      expect(aDone).toBe(false);
      await holder.query('commit');
      expect((await aClaim).map((i) => i.eventId)).toEqual(['e1']);
    } finally {
      await holder.end();
      await Promise.all([a.close(), b.close()]);
      for (const team of ['TLOCKA', 'TLOCKB']) await dropStore(workspaceStoreOptions(base, team));
    }
  });
});
