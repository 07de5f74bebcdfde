import { Kysely, type Migration, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Connection, connect, migrate, migrationsUpToDate } from '../../src/store/db.js';
import { openWorkspaceStore } from '../../src/store/lazy-store.js';
import type { Database } from '../../src/store/schema.js';
import { migrations } from '../../src/store/schema.js';
import {
  dropStore,
  openStore,
  type Store,
  type StoreOptions,
  storeOver,
  workspaceStoreOptions,
} from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

/*
 * An installation made before the process shared one PostgreSQL pool (each store had a pool of its
 * own with its schema as search_path) and before workspace stores opened on demand: its registry and
 * a workspace's store, with data in them, open under today's code with their data, and work on.
 */

const backends = storeBackends('existing installation tests');
const known = Object.keys(migrations).sort();

/**
 * A store as the previous code opened it: on PostgreSQL a pool of its own whose connections have the
 * store's schema as search_path (every statement unqualified), migrated by Kysely's migrator; the
 * embedded file as today (its layout did not change). The repositories' statements are the same.
 */
async function openAsBefore(o: StoreOptions): Promise<Store> {
  if (!o.databaseUrl) return openStore(o);
  const pool = new pg.Pool({
    connectionString: o.databaseUrl,
    max: 5,
    ...(o.schema ? { options: `-c search_path=${o.schema}` } : {}),
  });
  if (o.schema) await pool.query(`create schema if not exists "${o.schema}"`);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
    ...(o.schema ? { migrationTableSchema: o.schema } : {}),
  });
  // Through the store's own helper, as the previous code did: a catalog read tried again while another
  // test's schema vanishes under it.
  const error = await migrate(migrator, o.schema);
  if (error) throw error;
  return storeOver({ db, backend: 'postgres', now: () => new Date(), close: () => db.destroy() });
}

async function fill(store: Store, team: string): Promise<void> {
  await store.addSubscription({
    id: `00000000-0000-4000-8000-00000000000${team.length}`,
    channel: `C${team}`,
    kind: 'watch',
    ticketId: '7',
    filter: { reference: 'ACME-7' },
    createdBy: 'UOLD',
  });
  await store.save({ ticketId: '7', channel: `C${team}`, ts: '1.7' });
  await store.advance([{ ticketId: '7', eventId: 'e1', channel: `C${team}`, payload: { eventName: 'x' } }], {
    ticketId: '7',
    modified: '2027-01-01T10:00:00Z',
    want: { since: '2027-01-01T10:00:00Z', priority: 0, channels: [`C${team}`] },
  });
}

async function expectFilled(store: Store, team: string): Promise<void> {
  expect((await store.subscriptionsOf(`C${team}`)).map((s) => [s.ticketId, s.filter])).toEqual([
    ['7', { reference: 'ACME-7' }],
  ]);
  expect(await store.find('7', `C${team}`)).toMatchObject({ ts: '1.7' });
  expect((await store.outboxOf('7')).map((i) => [i.eventId, i.channel, i.status])).toEqual([
    ['e1', `C${team}`, 'pending'],
  ]);
  expect((await store.wantedReads(5)).map((w) => w.ticketId)).toEqual(['7']);
  expect((await store.inspect()).applied).toEqual(known);
}

describe.each(backends)('an installation of the previous layout, $name', ({ options }) => {
  it('opens with its registry and its workspaces’ stores and their data, and works on', async () => {
    const base = options();
    const before = await openAsBefore(base);
    await before.saveInstallation('TOLDA', 'sealed-a', new Date('2026-11-25T10:00:00Z'));
    await before.saveWorkspaceSettings('TOLDA', '{"a":1}');
    await before.close();
    for (const team of ['TOLDA', 'TOLDB']) {
      const ws = await openAsBefore(workspaceStoreOptions(base, team));
      await fill(ws, team);
      await ws.close();
    }

    const registry = await openStore(base);
    const a = await openWorkspaceStore(workspaceStoreOptions(base, 'TOLDA'));
    const b = await openWorkspaceStore(workspaceStoreOptions(base, 'TOLDB'));
    try {
      expect(await registry.installedTeams()).toEqual(['TOLDA']);
      expect(await registry.installation('TOLDA')).toBe('sealed-a');
      expect(await registry.workspaceSettings('TOLDA')).toBe('{"a":1}');
      await expectFilled(a, 'TOLDA');
      await expectFilled(b, 'TOLDB');
      // Each workspace still sees only its own: its claim takes its channel's item, not the other's.
      const claimed = await a.claim('r1', 10, 60_000);
      const [item] = claimed;
      expect(claimed.map((i) => i.channel)).toEqual(['CTOLDA']);
      if (item) expect(await a.settle(item, { status: 'delivered', slackTs: '9.9' })).toBe(true);
      expect((await b.outboxOf('7')).map((i) => i.status)).toEqual(['pending']);
    } finally {
      await Promise.all([registry.close(), a.close(), b.close()]);
      for (const team of ['TOLDA', 'TOLDB']) await dropStore(workspaceStoreOptions(base, team));
    }
  });

  it('skips the migrator once every migration is applied, and still refuses a store a newer confdesk migrated', async () => {
    const o = options();
    const fresh = (await connect(o)) as Connection;
    expect(await migrationsUpToDate(fresh.db)).toBe(false);
    await fresh.release();
    await (await openStore(o)).close();
    const c = (await connect(o)) as Connection;
    try {
      expect(await migrationsUpToDate(c.db)).toBe(true);
      const raw = c.db as unknown as Kysely<{ kysely_migration: { name: string; timestamp: string } }>;
      await raw
        .insertInto('kysely_migration')
        .values({ name: '9999_future', timestamp: '2030-01-01T00:00:00.000Z' })
        .execute();
      expect(await migrationsUpToDate(c.db)).toBe(false);
    } finally {
      await c.release();
    }
    // A migration this version does not know: the migrator runs, and refuses the store as it always did.
    await expect(openStore(o)).rejects.toThrow(/9999_future/);
  });
});
