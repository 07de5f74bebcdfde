import { type Migration, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect, migrate } from '../../src/store/db.js';
import { migrations } from '../../src/store/schema.js';
import { openStore, type StoreOptions } from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

/*
 * Forward-only migrations, upgraded from every earlier version with data in it (issue 23 §4): a store
 * left at each version by an older confdesk, holding a subscription, a card, ticket messages (one
 * delivered, one dead) and, from 0003, a digest schedule, opens with today's code and keeps them all.
 */

const backends = storeBackends('migration tests');

const versions = Object.keys(migrations).sort();
const at = '2027-01-01T10:00:00.000Z';

/** A store as a confdesk of `version` left it, with data in it. */
async function storeAt(options: StoreOptions, version: string): Promise<void> {
  const conn = await connect(options);
  if (!conn) throw new Error('no store');
  const { db, postgres, release } = conn;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
    ...(postgres && options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  const error = await migrate(migrator, options.schema, version);
  if (error) throw error;
  const has = (v: string) => version >= v;
  // The shared pool sets no search_path: raw statements name the store's schema themselves.
  const t = (name: string) => sql.table(options.schema && postgres ? `${options.schema}.${name}` : name);
  await sql`insert into ${t('subscriptions')} (id, channel, kind, ticket_id, filter, created_by, created_at)
            values ('sub-1', 'CUP', 'watch', '7', '{"reference":"ACME-7"}', 'UOLD', ${at})`.execute(db);
  await sql`insert into ${t('ticket_cards')} (ticket_id, channel, ts) values ('7', 'CUP', '1.7')`.execute(db);
  for (const [event, status] of [
    ['e-delivered', 'delivered'],
    ['e-dead', has('0004') ? 'dead' : 'pending'],
  ] as const)
    await sql`insert into ${t('outbox')} (ticket_id, event_id, channel, payload, status, attempts, available_at, created_at)
              values ('7', ${event}, 'CUP', '{"eventName":"x"}', ${status}, 1, ${at}, ${at})`.execute(db);
  if (has('0003'))
    await sql`insert into ${t('digest_schedules')} (id, channel, zone, time, weekdays, created_by, created_at)
              values ('dig-1', 'CUP', 'Europe/Paris', '09:00', '[1,2,3]', 'UOLD', ${at})`.execute(db);
  await release();
}

describe.each(backends)('migrations, $name', ({ name, options }) => {
  for (const version of versions.slice(0, -1))
    it(`upgrade a store left at ${version}, with data in it, to the latest, keeping the data`, async () => {
      const o = options();
      await storeAt(o, version);
      const store = await openStore(o);
      try {
        expect((await store.inspect()).applied).toEqual(versions);
        expect((await store.subscriptionsOf('CUP')).map((s) => [s.id, s.ticketId, s.filter])).toEqual([
          ['sub-1', '7', { reference: 'ACME-7' }],
        ]);
        expect(await store.find('7', 'CUP')).toMatchObject({ ts: '1.7' });
        expect((await store.outboxOf('7')).map((i) => [i.eventId, i.status]).sort()).toEqual([
          ['e-dead', version >= '0004' ? 'dead' : 'pending'],
          ['e-delivered', 'delivered'],
        ]);
        expect((await store.digestSchedules()).map((d) => d.id)).toEqual(version >= '0003' ? ['dig-1'] : []);
        // And it works as today's store: a new item is claimed after the old pending ones.
        await store.advance([{ ticketId: '7', eventId: 'e-new', channel: 'CUP', payload: {} }]);
        expect((await store.outboxOf('7')).map((i) => i.eventId)).toContain('e-new');
      } finally {
        await store.close();
      }
    });

  // One process owns an embedded store; replicas share PostgreSQL.
  it.runIf(name === 'PostgreSQL')(
    'migrates once when two replicas start together on a fresh store',
    async () => {
      const o = options();
      const [a, b] = await Promise.all([openStore(o), openStore(o)]);
      try {
        expect((await a.inspect()).applied).toEqual(versions);
        expect((await b.inspect()).applied).toEqual(versions);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    },
  );
});
