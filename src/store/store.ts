import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { type ChannelRepository, channelRepository } from './channels.js';
import { connect, type OpenDb, openDb, type StoreOptions } from './db.js';
import { type DigestRepository, digestRepository } from './digests.js';
import { inspectDb, type StoreInspection } from './inspect.js';
import { type LeaseRepository, leaseRepository } from './leases.js';
import { type OutboxRepository, outboxRepository } from './outbox.js';
import { type ReminderRepository, reminderRepository } from './reminders.js';
import { type SettingsRepository, settingsRepository } from './settings.js';
import { type StatisticsRepository, statisticsRepository } from './statistics.js';
import { type SubscriptionRepository, subscriptionRepository } from './subscriptions.js';
import { type TicketCardRepository, ticketCardRepository } from './ticket-cards.js';
import { type TicketRecordRepository, ticketRecordRepository } from './ticket-records.js';
import { type UserLinkRepository, userLinkRepository } from './user-links.js';
import { type WorkspaceRepository, workspaceRepository } from './workspaces.js';

export { defaultPoolSize, type StoreOptions, storeFile } from './db.js';
export type { StoredDigestSchedule } from './digests.js';
export { inspectStore, installedTeamsOf, type StoreInspection, storeMissing } from './inspect.js';
export {
  claimerPrefix,
  type DeadLetter,
  type NewOutboxItem,
  type OutboxItem,
  type ReadWant,
  type SeenVersion,
} from './outbox.js';
export type { Subscription } from './subscriptions.js';
export type { KnownTicket } from './ticket-records.js';
export type { UserLink } from './user-links.js';
export type {
  ChannelRepository,
  DigestRepository,
  LeaseRepository,
  OutboxRepository,
  ReminderRepository,
  SettingsRepository,
  StatisticsRepository,
  SubscriptionRepository,
  TicketCardRepository,
  TicketRecordRepository,
  UserLinkRepository,
  WorkspaceRepository,
};

/**
 * What must survive a restart, with two backends (embedded SQLite file, PostgreSQL for several
 * replicas) behind one Kysely implementation that passes the same contract tests. Typed by concern:
 * a job or service asks for the two or three repositories it uses (`Pick`ing or intersecting them).
 */
export type Store = TicketCardRepository &
  TicketRecordRepository &
  SubscriptionRepository &
  OutboxRepository &
  LeaseRepository &
  DigestRepository &
  ChannelRepository &
  StatisticsRepository &
  SettingsRepository &
  UserLinkRepository &
  ReminderRepository &
  WorkspaceRepository & {
    readonly backend: 'sqlite' | 'postgres';
    /** Its backend, the migrations applied, the last webhook delivery: what `npm run doctor` reports. */
    inspect(): Promise<StoreInspection>;
    /** One round trip to the database (`select 1`): throws while it cannot be reached. */
    ping(): Promise<void>;
    close(): Promise<void>;
  };

/**
 * Opens the store and applies pending migrations. Each repository is a plain object of functions
 * over the one connection (`db.ts`), so the store is their union: no class, no `this`.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  return storeOver(await openDb(options));
}

/** The store's repositories over an opened connection; closing the store closes it. */
export function storeOver(c: OpenDb): Store {
  return {
    backend: c.backend,
    ...ticketCardRepository(c),
    ...ticketRecordRepository(c),
    ...subscriptionRepository(c),
    ...outboxRepository(c),
    ...leaseRepository(c),
    ...digestRepository(c),
    ...channelRepository(c),
    ...statisticsRepository(c),
    ...settingsRepository(c),
    ...userLinkRepository(c),
    ...reminderRepository(c),
    ...workspaceRepository(c),
    inspect: () => inspectDb(c.db, c.backend, c.schema),
    ping: async () => void (await sql`select 1`.execute(c.db)),
    close: () => c.close(),
  };
}

/**
 * Distribution mode: where one workspace's own store lives, beside the process's store: a folder of
 * `dataDir` (`workspaces/<team>`) for the embedded store, a schema of its own on PostgreSQL.
 */
export function workspaceStoreOptions(base: StoreOptions, team: string): StoreOptions {
  if (!/^[A-Z0-9]{2,32}$/.test(team)) throw new Error(`not a Slack team id: ${team}`);
  if (base.databaseUrl?.startsWith('postgres')) {
    const schema = `${base.schema ?? 'confdesk'}_ws_${team.toLowerCase()}`;
    // PostgreSQL cuts longer names to 63 bytes, silently: two teams could then share one schema.
    if (schema.length > 63)
      throw new Error(`DATABASE_SCHEMA: too long for workspace schemas (${schema} is over 63 characters)`);
    return { ...base, schema };
  }
  return { ...base, dataDir: join(base.dataDir ?? './data', 'workspaces', team) };
}

/** Deletes a store for good (a workspace's, when it uninstalls): its schema, or its folder. */
export async function dropStore(options: StoreOptions): Promise<void> {
  if (!options.databaseUrl?.startsWith('postgres')) {
    rmSync(options.dataDir ?? './data', { recursive: true, force: true });
    return;
  }
  const { schema, ...server } = options;
  if (!schema) throw new Error('dropStore: a PostgreSQL store is dropped by its schema only');
  const c = await connect(server, true);
  if (!c) return;
  try {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(c.db);
  } finally {
    await c.release();
  }
}
