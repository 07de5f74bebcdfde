import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import type { DigestSchedule } from '../domain/digest-schedule.js';
import { type Database, migrations } from './schema.js';
import type { TicketCardLink, TicketCardRepository } from './ticket-cards.js';

/** A channel's subscription: one ticket (`watch`), or new tickets and events matching a filter (`follow`). */
export interface Subscription {
  id: string;
  channel: string;
  kind: 'watch' | 'follow';
  ticketId: string | undefined;
  filter: Record<string, unknown>;
  createdBy: string;
  createdAt: Date;
}

/** An event waiting to be (or already) posted in a channel. */
export interface OutboxItem {
  ticketId: string;
  eventId: string;
  channel: string;
  payload: Record<string, unknown>;
  /** `parked`: kept while its channel refuses the bot; `dead`: Slack refused it for good, set aside. */
  status: 'pending' | 'delivered' | 'unknown' | 'parked' | 'dead';
  attempts: number;
  slackTs: string | undefined;
  /** Who holds it (set on claimed items): only that owner may settle it. */
  leaseOwner?: string | undefined;
}

/** An item Slack refused for good, as the operator lists it. */
export interface DeadLetter extends OutboxItem {
  /** Slack's error code. */
  reason: string | undefined;
  settledAt: Date | undefined;
}

/**
 * What must survive a restart, behind one narrow interface with two backends (embedded SQLite file,
 * PostgreSQL for several replicas) that pass the same contract tests.
 */
export interface Store extends TicketCardRepository {
  readonly backend: 'sqlite' | 'postgres';
  addSubscription(s: Omit<Subscription, 'createdAt'>): Promise<void>;
  removeSubscription(id: string): Promise<boolean>;
  subscriptionsOf(channel: string): Promise<Subscription[]>;
  subscriptionsForTicket(ticketId: string): Promise<Subscription[]>;
  getCursor(name: string): Promise<string | undefined>;
  /**
   * Advances a cursor (and the last version seen of a ticket) and records new events in the outbox,
   * in one transaction: a crash leaves either all or none. Events already in the outbox (same ticket, event id, channel) are ignored.
   * Answers how many were new.
   */
  advance(
    cursor: { name: string; value: string } | undefined,
    items: Omit<OutboxItem, 'status' | 'attempts' | 'slackTs'>[],
    seen?: { ticketId: string; modified: string; state: string | undefined },
  ): Promise<number>;
  /**
   * Leases up to `limit` items due now (pending, or of unknown outcome) to `owner` for `leaseMs`, in
   * the order they were written. A channel belongs to one owner at a time and waits while one of its
   * items waits for a retry, so each channel's messages go out in order and at one pace, whatever the
   * number of replicas. At most `perChannel` items of one channel, so one batch spans many channels,
   * and the claimer's share of the channels with due items (they are split between the claimers seen
   * within `leaseMs`). Claimed items are `unknown` until settled, and are answered with the status
   * they had: an item whose claimer died comes back `unknown`. A lease that runs out frees the items.
   */
  claim(owner: string, limit: number, leaseMs: number, perChannel?: number): Promise<OutboxItem[]>;
  /**
   * Records the outcome of a delivery attempt (`reason`: why it is dead). With `leaseOwner` (claimed
   * items), only while that owner still holds the lease; answers whether it was recorded. A dead item
   * holds nothing back: its channel's later items are claimed as if it were delivered.
   */
  settle(
    item: Pick<OutboxItem, 'ticketId' | 'eventId' | 'channel' | 'leaseOwner'>,
    outcome: { status: OutboxItem['status']; slackTs?: string; retryAt?: Date; reason?: string },
  ): Promise<boolean>;
  /** The items Slack refused for good, the latest set aside first: what the operator looks at. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  /** Parked items of a channel go back to pending (the bot is back in it); answers how many. */
  unpark(channel: string): Promise<number>;
  /**
   * Takes or renews the named lease for `ms` when it is free, expired or already `owner`'s: one
   * replica at a time runs a singleton job. Answers whether `owner` holds it now.
   */
  acquireLease(name: string, owner: string, ms: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;
  outboxOf(ticketId: string): Promise<OutboxItem[]>;
  lastSeen(
    ticketId: string,
  ): Promise<{ modified: string; state: string | undefined; checkedAt: string } | undefined>;
  markSeen(ticketId: string, modified: string, state: string | undefined): Promise<void>;
  addDigestSchedule(s: DigestSchedule & { createdBy: string }): Promise<void>;
  removeDigestSchedule(id: string): Promise<boolean>;
  /** A channel's digest schedules; every schedule without `channel`. */
  digestSchedules(channel?: string): Promise<(DigestSchedule & { createdBy: string })[]>;
  /**
   * Takes the digest run of a schedule for a period (a local date) for `leaseMs` when nobody sent it,
   * nobody is sending it now, and its retry time (if any) has come: once across restarts and
   * replicas. Answers the attempt number, or undefined when it is not this caller's to send.
   */
  claimDigestRun(
    scheduleId: string,
    period: string,
    owner: string,
    leaseMs: number,
  ): Promise<number | undefined>;
  /** Records how a run went: `sent`, or `retry` at a later time (a metric or the platform was missing). */
  settleDigestRun(
    scheduleId: string,
    period: string,
    outcome: { status: 'sent' | 'retry'; retryAt?: Date; slackTs?: string },
  ): Promise<void>;
  digestRun(
    scheduleId: string,
    period: string,
  ): Promise<{ status: string; attempts: number; slackTs: string | undefined } | undefined>;
  getSetting(scope: string, key: string): Promise<string | undefined>;
  setSetting(scope: string, key: string, value: string): Promise<void>;
  /** Sets a setting only if it is absent; answers whether this call set it (once across replicas). */
  setSettingOnce(scope: string, key: string, value: string): Promise<boolean>;
  deleteSetting(scope: string, key: string): Promise<void>;
  linkUser(slackUserId: string, platformUserId: string, email: string | undefined): Promise<void>;
  userLink(slackUserId: string): Promise<{ platformUserId: string; email: string | undefined } | undefined>;
  saveInstallation(teamId: string, value: Record<string, unknown>): Promise<void>;
  installation(teamId: string): Promise<Record<string, unknown> | undefined>;
  deleteInstallation(teamId: string): Promise<void>;
  /** Its backend, the migrations applied, the last webhook delivery: what `npm run doctor` reports. */
  inspect(): Promise<StoreInspection>;
  close(): Promise<void>;
}

/** What the doctor reads of a store, without changing it. */
export interface StoreInspection {
  backend: 'sqlite' | 'postgres';
  /** False: the embedded file does not exist yet (`npm start` creates it). */
  exists: boolean;
  /** Migrations recorded as applied, by name. */
  applied: string[];
  /** Migrations this version of confdesk knows. */
  known: string[];
  /** ISO time of the last webhook delivery accepted (`lastWebhookSetting`), if any. */
  lastWebhookAt: string | undefined;
}

/** Where the webhook receiver records its last accepted delivery, for a separate doctor process. */
export const lastWebhookSetting = { scope: 'webhooks', key: 'last-delivery' } as const;

export interface StoreOptions {
  /** `postgres://…` selects PostgreSQL; otherwise the embedded store in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); created when missing. */
  schema?: string;
  /**
   * Opened by an operator's tool beside a running bot: the embedded store's leases are the bot's,
   * not a dead run's, so they are left alone.
   */
  keepLeases?: boolean;
  now?: () => Date;
}

const provider: MigrationProvider = { getMigrations: async () => migrations as Record<string, Migration> };
const iso = (d: Date) => d.toISOString();

/** A Kysely connection to the configured backend (the schema is created unless `readOnly`). */
async function connect(
  options: StoreOptions,
  readOnly = false,
): Promise<{ db: Kysely<Database>; postgres: boolean } | undefined> {
  const postgres = Boolean(options.databaseUrl?.startsWith('postgres'));
  if (postgres) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: readOnly ? 1 : 5,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    if (options.schema && !readOnly) {
      const client = await pool.connect();
      try {
        await client.query(`create schema if not exists "${options.schema.replace(/"/g, '')}"`);
      } finally {
        client.release();
      }
    }
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), postgres };
  }
  const dir = options.dataDir ?? './data';
  const path = join(dir, 'confdesk.sqlite');
  if (readOnly) {
    if (!existsSync(path)) return undefined;
    const file = new SQLite(path, { readonly: true, fileMustExist: true });
    return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), postgres };
  }
  mkdirSync(dir, { recursive: true });
  const file = new SQLite(path);
  // WAL: readers never block the writer; synchronous=FULL: a committed transaction survives a crash.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), postgres };
}

/** Opens the store and applies pending migrations. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const { db, postgres } = (await connect(options)) as { db: Kysely<Database>; postgres: boolean };
  const { error } = await new Migrator({
    db,
    provider,
    // Kysely looks for its bookkeeping tables by schema: name ours, or it may find another schema's.
    ...(postgres && options.schema ? { migrationTableSchema: options.schema } : {}),
  }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  if (!postgres && !options.keepLeases) {
    // One process owns an embedded store: leases found at start were a previous run's, which died.
    await db
      .updateTable('outbox')
      .set({ lease_owner: null, lease_until: null })
      .where('lease_owner', 'is not', null)
      .execute();
    await db.deleteFrom('leases').execute();
  }
  return new KyselyStore(
    db,
    postgres ? 'postgres' : 'sqlite',
    options.now ?? (() => new Date()),
    postgres ? options.schema : undefined,
  );
}

/**
 * Reads what the doctor reports of a store WITHOUT opening it as the bot does: no migration, no
 * schema created, the embedded file opened read-only (beside a running bot, or before the first start).
 */
export async function inspectStore(options: StoreOptions): Promise<StoreInspection> {
  const connection = await connect(options, true);
  if (!connection)
    return {
      backend: 'sqlite',
      exists: false,
      applied: [],
      known: Object.keys(migrations).sort(),
      lastWebhookAt: undefined,
    };
  try {
    return await inspectDb(connection.db, connection.postgres ? 'postgres' : 'sqlite', options.schema);
  } finally {
    await connection.db.destroy();
  }
}

/** The migrations Kysely recorded (none when its table is missing) and the last webhook delivery. */
async function inspectDb(
  db: Kysely<Database>,
  backend: 'sqlite' | 'postgres',
  schema: string | undefined,
): Promise<StoreInspection> {
  const known = Object.keys(migrations).sort();
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const inSchema = (name: string) =>
    tables.some((t) => t.name === name && (backend === 'sqlite' || !schema || t.schema === schema));
  const raw = db as unknown as Kysely<Record<string, Record<string, string>>>;
  const applied = inSchema('kysely_migration')
    ? (await raw.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) =>
        String(r.name),
      )
    : [];
  const last = inSchema('settings')
    ? await db
        .selectFrom('settings')
        .select('value')
        .where('scope', '=', lastWebhookSetting.scope)
        .where('key', '=', lastWebhookSetting.key)
        .executeTakeFirst()
    : undefined;
  return { backend, exists: true, applied, known, lastWebhookAt: last?.value };
}

type Row<T extends keyof Database> = Database[T];

const toSubscription = (r: Row<'subscriptions'>): Subscription => ({
  id: r.id,
  channel: r.channel,
  kind: r.kind as Subscription['kind'],
  ticketId: r.ticket_id ?? undefined,
  filter: JSON.parse(r.filter) as Record<string, unknown>,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at),
});
const toOutbox = (r: Row<'outbox'>): OutboxItem => ({
  ticketId: r.ticket_id,
  eventId: r.event_id,
  channel: r.channel,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  status: r.status as OutboxItem['status'],
  attempts: Number(r.attempts),
  slackTs: r.slack_ts ?? undefined,
  leaseOwner: r.lease_owner ?? undefined,
});
/** Any constant: the PostgreSQL advisory lock that serialises claims across replicas. */
const claimLock = 5_270_001;
const open = ['pending', 'unknown'] as const;
/** Each claimer's row in `leases` (renewed by every claim): how many share the outbox. */
export const claimerPrefix = 'claimer:';

class KyselyStore implements Store {
  constructor(
    private readonly db: Kysely<Database>,
    readonly backend: 'sqlite' | 'postgres',
    private readonly now: () => Date,
    private readonly schema: string | undefined = undefined,
  ) {}

  inspect(): Promise<StoreInspection> {
    return inspectDb(this.db, this.backend, this.schema);
  }

  async save(link: TicketCardLink): Promise<void> {
    await this.db
      .insertInto('ticket_cards')
      .values({ ticket_id: link.ticketId, channel: link.channel, ts: link.ts })
      .onConflict((oc) => oc.columns(['ticket_id', 'channel']).doUpdateSet({ ts: link.ts }))
      .execute();
  }

  async find(ticketId: string, channel: string): Promise<TicketCardLink | undefined> {
    const r = await this.db
      .selectFrom('ticket_cards')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .where('channel', '=', channel)
      .executeTakeFirst();
    return r && { ticketId: r.ticket_id, channel: r.channel, ts: r.ts };
  }

  async forTicket(ticketId: string): Promise<TicketCardLink[]> {
    const rows = await this.db
      .selectFrom('ticket_cards')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .execute();
    return rows.map((r) => ({ ticketId: r.ticket_id, channel: r.channel, ts: r.ts }));
  }

  async at(channel: string, ts: string): Promise<TicketCardLink | undefined> {
    const r = await this.db
      .selectFrom('ticket_cards')
      .selectAll()
      .where('channel', '=', channel)
      .where('ts', '=', ts)
      .executeTakeFirst();
    return r && { ticketId: r.ticket_id, channel: r.channel, ts: r.ts };
  }

  async addSubscription(s: Omit<Subscription, 'createdAt'>): Promise<void> {
    await this.db
      .insertInto('subscriptions')
      .values({
        id: s.id,
        channel: s.channel,
        kind: s.kind,
        ticket_id: s.ticketId ?? null,
        filter: JSON.stringify(s.filter),
        created_by: s.createdBy,
        created_at: iso(this.now()),
      })
      .execute();
  }

  async removeSubscription(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async subscriptionsOf(channel: string): Promise<Subscription[]> {
    const rows = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('channel', '=', channel)
      .orderBy('created_at')
      .execute();
    return rows.map(toSubscription);
  }

  async subscriptionsForTicket(ticketId: string): Promise<Subscription[]> {
    const rows = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where((eb) => eb.or([eb('ticket_id', '=', ticketId), eb('kind', '=', 'follow')]))
      .orderBy('created_at')
      .execute();
    return rows.map(toSubscription);
  }

  async getCursor(name: string): Promise<string | undefined> {
    const r = await this.db.selectFrom('cursors').select('value').where('name', '=', name).executeTakeFirst();
    return r?.value;
  }

  async advance(
    cursor: { name: string; value: string } | undefined,
    items: Omit<OutboxItem, 'status' | 'attempts' | 'slackTs'>[],
    seen?: { ticketId: string; modified: string; state: string | undefined },
  ): Promise<number> {
    const at = iso(this.now());
    return this.db.transaction().execute(async (tx) => {
      let fresh = 0;
      for (const [position, i] of items.entries()) {
        const r = await tx
          .insertInto('outbox')
          .values({
            ticket_id: i.ticketId,
            event_id: i.eventId,
            channel: i.channel,
            payload: JSON.stringify(i.payload),
            status: 'pending',
            attempts: 0,
            available_at: at,
            lease_owner: null,
            lease_until: null,
            slack_ts: null,
            created_at: at,
            position,
          })
          .onConflict((oc) => oc.columns(['ticket_id', 'event_id', 'channel']).doNothing())
          .executeTakeFirst();
        fresh += Number(r.numInsertedOrUpdatedRows ?? 0);
      }
      if (cursor)
        await tx
          .insertInto('cursors')
          .values({ name: cursor.name, value: cursor.value, updated_at: at })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: cursor.value, updated_at: at }))
          .execute();
      if (seen) {
        const version = { modified: seen.modified, state: seen.state ?? null, checked_at: at };
        await tx
          .insertInto('ticket_versions')
          .values({ ticket_id: seen.ticketId, ...version })
          .onConflict((oc) => oc.column('ticket_id').doUpdateSet(version))
          .execute();
      }
      return fresh;
    });
  }

  async claim(owner: string, limit: number, leaseMs: number, perChannel = limit): Promise<OutboxItem[]> {
    const now = iso(this.now());
    const until = iso(new Date(this.now().getTime() + leaseMs));
    return this.db.transaction().execute(async (tx) => {
      // One claim at a time (SQLite has a single writer anyway), so no two replicas take one channel.
      if (this.backend === 'postgres') await sql`select pg_advisory_xact_lock(${claimLock})`.execute(tx);
      const me = `${claimerPrefix}${owner}`;
      const busy = tx
        .selectFrom('outbox')
        .select('channel')
        .where('status', 'in', open)
        .where((eb) => eb.or([eb('available_at', '>', now), eb('lease_until', '>=', now)]));
      const due = tx
        .selectFrom('outbox')
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by channel order by created_at, position)`.as('rank'),
        )
        .where('status', 'in', open)
        .where('available_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .where('channel', 'not in', busy);
      const rows = await tx
        .selectFrom(due.as('due'))
        .selectAll()
        .where('rank', '<=', perChannel)
        .orderBy('created_at')
        .orderBy('position')
        .limit(limit)
        .execute();
      // Every claimer counts, busy or idle; its row is rewritten only once half its time has passed,
      // so an idle claim costs no disk write most of the time.
      const renewBy = iso(new Date(this.now().getTime() + leaseMs / 2));
      const seen = await tx.selectFrom('leases').select('until').where('name', '=', me).executeTakeFirst();
      if (!seen || seen.until < renewBy)
        await tx
          .insertInto('leases')
          .values({ name: me, owner, until })
          .onConflict((oc) => oc.column('name').doUpdateSet({ until }))
          .execute();
      if (!rows.length) return [];
      const claimers = await tx
        .selectFrom('leases')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', 'like', `${claimerPrefix}%`)
        .where('until', '>=', now)
        .executeTakeFirstOrThrow();
      // This claimer's share of the channels, in the order their items were written.
      const channels = [...new Set(rows.map((r) => r.channel))];
      const mine = new Set(channels.slice(0, Math.ceil(channels.length / Math.max(1, Number(claimers.n)))));
      const taken = rows.filter((r) => mine.has(r.channel));
      for (const r of taken)
        await tx
          .updateTable('outbox')
          // In flight: until settled, whether it reached Slack is unknown (the claimer may die).
          .set({
            status: 'unknown',
            lease_owner: owner,
            lease_until: until,
            attempts: Number(r.attempts) + 1,
          })
          .where('ticket_id', '=', r.ticket_id)
          .where('event_id', '=', r.event_id)
          .where('channel', '=', r.channel)
          .execute();
      return taken.map((r) => ({ ...toOutbox(r), attempts: Number(r.attempts) + 1, leaseOwner: owner }));
    });
  }

  async settle(
    item: Pick<OutboxItem, 'ticketId' | 'eventId' | 'channel' | 'leaseOwner'>,
    outcome: { status: OutboxItem['status']; slackTs?: string; retryAt?: Date; reason?: string },
  ): Promise<boolean> {
    let q = this.db
      .updateTable('outbox')
      .set({
        status: outcome.status,
        slack_ts: outcome.slackTs ?? null,
        reason: outcome.reason ?? null,
        settled_at: iso(this.now()),
        lease_owner: null,
        lease_until: null,
        ...(outcome.retryAt ? { available_at: iso(outcome.retryAt) } : {}),
      })
      .where('ticket_id', '=', item.ticketId)
      .where('event_id', '=', item.eventId)
      .where('channel', '=', item.channel);
    if (item.leaseOwner) q = q.where('lease_owner', '=', item.leaseOwner);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async deadLetters(limit = 100): Promise<DeadLetter[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .selectAll()
      .where('status', '=', 'dead')
      .orderBy('settled_at', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('position', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      ...toOutbox(r),
      reason: r.reason ?? undefined,
      settledAt: r.settled_at ? new Date(r.settled_at) : undefined,
    }));
  }

  async unpark(channel: string): Promise<number> {
    const r = await this.db
      .updateTable('outbox')
      .set({ status: 'pending', available_at: iso(this.now()) })
      .where('channel', '=', channel)
      .where('status', '=', 'parked')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    const now = iso(this.now());
    const until = iso(new Date(this.now().getTime() + ms));
    const r = await this.db
      .insertInto('leases')
      .values({ name, owner, until })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ owner, until })
          .where((eb) => eb.or([eb('leases.owner', '=', owner), eb('leases.until', '<', now)])),
      )
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
  }

  async outboxOf(ticketId: string): Promise<OutboxItem[]> {
    const rows = await this.db
      .selectFrom('outbox')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .orderBy('created_at')
      .orderBy('position')
      .execute();
    return rows.map(toOutbox);
  }

  async lastSeen(ticketId: string) {
    const r = await this.db
      .selectFrom('ticket_versions')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .executeTakeFirst();
    return r && { modified: r.modified, state: r.state ?? undefined, checkedAt: r.checked_at };
  }

  async markSeen(ticketId: string, modified: string, state: string | undefined): Promise<void> {
    const at = iso(this.now());
    await this.db
      .insertInto('ticket_versions')
      .values({ ticket_id: ticketId, modified, state: state ?? null, checked_at: at })
      .onConflict((oc) =>
        oc.column('ticket_id').doUpdateSet({ modified, state: state ?? null, checked_at: at }),
      )
      .execute();
  }

  async getSetting(scope: string, key: string): Promise<string | undefined> {
    const r = await this.db
      .selectFrom('settings')
      .select('value')
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    return r?.value;
  }

  async setSetting(scope: string, key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ scope, key, value })
      .onConflict((oc) => oc.columns(['scope', 'key']).doUpdateSet({ value }))
      .execute();
  }

  async addDigestSchedule(s: DigestSchedule & { createdBy: string }): Promise<void> {
    await this.db
      .insertInto('digest_schedules')
      .values({
        id: s.id,
        channel: s.channel,
        zone: s.zone,
        time: s.time,
        weekdays: JSON.stringify(s.weekdays),
        created_by: s.createdBy,
        created_at: iso(this.now()),
      })
      .execute();
  }

  async removeDigestSchedule(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('digest_schedules').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async digestSchedules(channel?: string) {
    let q = this.db.selectFrom('digest_schedules').selectAll().orderBy('created_at').orderBy('id');
    if (channel) q = q.where('channel', '=', channel);
    return (await q.execute()).map((r) => ({
      id: r.id,
      channel: r.channel,
      zone: r.zone,
      time: r.time,
      weekdays: JSON.parse(r.weekdays) as number[],
      createdBy: r.created_by,
    }));
  }

  async claimDigestRun(scheduleId: string, period: string, owner: string, leaseMs: number) {
    const now = iso(this.now());
    const lease = { lease_owner: owner, lease_until: iso(new Date(this.now().getTime() + leaseMs)) };
    return this.db.transaction().execute(async (tx) => {
      const fresh = await tx
        .insertInto('digest_runs')
        .values({
          schedule_id: scheduleId,
          period,
          status: 'running',
          attempts: 1,
          retry_at: null,
          slack_ts: null,
          updated_at: now,
          ...lease,
        })
        .onConflict((oc) => oc.columns(['schedule_id', 'period']).doNothing())
        .executeTakeFirst();
      if (Number(fresh.numInsertedOrUpdatedRows ?? 0) > 0) return 1;
      // Someone's row: take it over only when it waits for a retry that is due, or its sender died.
      const taken = await tx
        .updateTable('digest_runs')
        .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), updated_at: now, ...lease }))
        .where('schedule_id', '=', scheduleId)
        .where('period', '=', period)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'retry'), eb('retry_at', '<=', now)]),
            eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
          ]),
        )
        .returning('attempts')
        .executeTakeFirst();
      return taken ? Number(taken.attempts) : undefined;
    });
  }

  async settleDigestRun(
    scheduleId: string,
    period: string,
    outcome: { status: 'sent' | 'retry'; retryAt?: Date; slackTs?: string },
  ): Promise<void> {
    await this.db
      .updateTable('digest_runs')
      .set({
        status: outcome.status,
        retry_at: outcome.retryAt ? iso(outcome.retryAt) : null,
        slack_ts: outcome.slackTs ?? null,
        lease_owner: null,
        lease_until: null,
        updated_at: iso(this.now()),
      })
      .where('schedule_id', '=', scheduleId)
      .where('period', '=', period)
      .execute();
  }

  async digestRun(scheduleId: string, period: string) {
    const r = await this.db
      .selectFrom('digest_runs')
      .selectAll()
      .where('schedule_id', '=', scheduleId)
      .where('period', '=', period)
      .executeTakeFirst();
    return r && { status: r.status, attempts: Number(r.attempts), slackTs: r.slack_ts ?? undefined };
  }

  async setSettingOnce(scope: string, key: string, value: string): Promise<boolean> {
    const r = await this.db
      .insertInto('settings')
      .values({ scope, key, value })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async deleteSetting(scope: string, key: string): Promise<void> {
    await this.db.deleteFrom('settings').where('scope', '=', scope).where('key', '=', key).execute();
  }

  async linkUser(slackUserId: string, platformUserId: string, email: string | undefined): Promise<void> {
    const at = iso(this.now());
    await this.db
      .insertInto('user_links')
      .values({
        slack_user_id: slackUserId,
        platform_user_id: platformUserId,
        email: email ?? null,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .column('slack_user_id')
          .doUpdateSet({ platform_user_id: platformUserId, email: email ?? null, updated_at: at }),
      )
      .execute();
  }

  async userLink(slackUserId: string) {
    const r = await this.db
      .selectFrom('user_links')
      .selectAll()
      .where('slack_user_id', '=', slackUserId)
      .executeTakeFirst();
    return r && { platformUserId: r.platform_user_id, email: r.email ?? undefined };
  }

  async saveInstallation(teamId: string, value: Record<string, unknown>): Promise<void> {
    const at = iso(this.now());
    const json = JSON.stringify(value);
    await this.db
      .insertInto('installations')
      .values({ team_id: teamId, value: json, updated_at: at })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ value: json, updated_at: at }))
      .execute();
  }

  async installation(teamId: string) {
    const r = await this.db
      .selectFrom('installations')
      .select('value')
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    return r ? (JSON.parse(r.value) as Record<string, unknown>) : undefined;
  }

  async deleteInstallation(teamId: string): Promise<void> {
    await this.db.deleteFrom('installations').where('team_id', '=', teamId).execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
