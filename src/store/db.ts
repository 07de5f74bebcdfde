import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Dialect,
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  type PostgresPool,
  type SchemaMetadata,
  SqliteDialect,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import { type Database, migrations } from './schema.js';

/**
 * What every repository is built over: the one Kysely connection (or a transaction of it, which has
 * the same query API), its dialect where SQL differs, and the clock.
 */
export interface Db {
  db: Kysely<Database>;
  backend: 'sqlite' | 'postgres';
  /** PostgreSQL: the schema every query names (`withSchema`); undefined, the connection's default. */
  schema?: string | undefined;
  now: () => Date;
}

/** A `Db` opened by `openDb`: closing it gives its connection back (the shared pool stays). */
export interface OpenDb extends Db {
  close(): Promise<void>;
}

export type Row<T extends keyof Database> = Database[T];
export const iso = (d: Date) => d.toISOString();

export interface StoreOptions {
  /** `postgres://…` selects PostgreSQL; otherwise the embedded store in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); created when missing. */
  schema?: string;
  /**
   * PostgreSQL: connections of the process's one pool (DATABASE_POOL_SIZE), shared by every store
   * on the same server; the first store opened sets it.
   */
  poolSize?: number | undefined;
  /**
   * Opened by an operator's tool beside a running bot: the embedded store's leases are the bot's,
   * not a dead run's, so they are left alone.
   */
  keepLeases?: boolean;
  now?: () => Date;
}

/** Connections of the process's PostgreSQL pool when DATABASE_POOL_SIZE is unset. */
export const defaultPoolSize = 10;

const provider: MigrationProvider = { getMigrations: async () => migrations as Record<string, Migration> };

/**
 * The process's PostgreSQL pools, one per server (URL), each shared by every store on it: a
 * workspace costs no connection of its own, so the connections stay bounded whatever the number of
 * workspaces. A pool ends when the last store using it is closed.
 */
const pools = new Map<string, { pool: pg.Pool; unendable: PostgresPool; users: number }>();

function sharedPool(url: string, size: number, schema: string | undefined) {
  let shared = pools.get(url);
  if (!shared) {
    const pool = new pg.Pool({ connectionString: url, max: size });
    // A connection the server drops (a restart, a network cut) emits 'error' on its client and on the
    // pool: without a listener that event ends the process. The pool discards the client and connects
    // anew on the next query; while it cannot, queries fail and /readyz's store probe says why.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    // Kysely ends its pool on `destroy()`: a store's Kysely (or a tool's) must not end everyone's, so
    // it is given a pool that cannot be ended; the real one ends with its last user.
    const unendable: PostgresPool = { connect: () => pool.connect(), end: async () => undefined };
    shared = { pool, unendable, users: 0 };
    pools.set(url, shared);
  }
  shared.users++;
  const entry = shared;
  let released = false;
  // A Kysely of its own (over the shared pool): destroying it ends nobody else's.
  const db = new Kysely<Database>({ dialect: oneSchemaDialect(entry.unendable, schema) });
  return {
    db,
    async release() {
      if (released) return;
      released = true;
      await db.destroy();
      if (--entry.users > 0) return;
      if (pools.get(url) === entry) pools.delete(url);
      await entry.pool.end();
    },
  };
}

/**
 * PostgreSQL with Kysely's catalog reads narrowed to the store's schema. The migrator (when it runs)
 * and the doctor look for their tables with `introspection`, which reads every schema's columns: with
 * a thousand workspace schemas, ten thousand tables for each workspace, so setting up N workspaces
 * would cost N² column reads. They only ask whether a table (or the schema) is there, by name: the
 * store's own schema answers that. Without a schema (the connection's default), Kysely's own.
 */
function oneSchemaDialect(pool: PostgresPool, schema: string | undefined): Dialect {
  const base = new PostgresDialect({ pool });
  if (!schema) return base;
  return {
    createAdapter: () => base.createAdapter(),
    createDriver: () => base.createDriver(),
    createQueryCompiler: () => base.createQueryCompiler(),
    createIntrospector: (db) => new OneSchemaIntrospector(db, schema),
  };
}

/** Kysely's introspector for one schema: its tables by name (the columns are not read). */
class OneSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schema: string;
  constructor(db: Kysely<unknown>, schema: string) {
    this.#db = db;
    this.#schema = schema;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await sql<{
      name: string;
    }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.#schema}`.execute(this.#db);
    return rows.rows.map((r) => ({ name: r.name }));
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const rows = await sql<{ name: string; view: boolean }>`select c.relname as name, c.relkind = 'v' as view
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${this.#schema} and c.relkind in ('r', 'v', 'p') order by c.relname`.execute(
      this.#db,
    );
    return rows.rows
      .filter((r) => options.withInternalKyselyTables || !r.name.startsWith('kysely_migration'))
      .map((r) => ({ name: r.name, schema: this.#schema, isView: r.view, columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** The PostgreSQL pools open in this process (or the one of `url`) and their connections (tests, the bench). */
export const openPools = (url?: string) =>
  [...pools.entries()]
    .filter(([u]) => url === undefined || u === url)
    .map(([, p]) => ({
      users: p.users,
      connections: p.pool.totalCount,
      max: p.pool.options.max,
    }));

/** A connection to a store: its Kysely (naming the store's schema in every query) and how to let it go. */
export interface Connection {
  db: Kysely<Database>;
  postgres: boolean;
  /** Gives it back: the embedded file is closed; a PostgreSQL store leaves the shared pool. */
  release(): Promise<void>;
}

/** A Kysely connection to the configured backend (the schema is created unless `readOnly`). */
export async function connect(options: StoreOptions, readOnly = false): Promise<Connection | undefined> {
  const postgres = Boolean(options.databaseUrl?.startsWith('postgres'));
  if (postgres) {
    const shared = sharedPool(
      options.databaseUrl as string,
      options.poolSize ?? defaultPoolSize,
      options.schema,
    );
    try {
      if (options.schema && !readOnly)
        // Two replicas creating the schema at once: one of them may get a unique violation (23505) or
        // duplicate_schema (42P06) from PostgreSQL despite "if not exists"; the schema is there either way.
        await sql`create schema if not exists ${sql.id(options.schema)}`
          .execute(shared.db)
          .catch((error: { code?: string }) => {
            if (error.code !== '23505' && error.code !== '42P06') throw error;
          });
    } catch (error) {
      await shared.release();
      throw error;
    }
    // One pool for every schema: each query names its schema (no search_path on the connections, which
    // every store shares), so a statement Kysely builds can only reach its own store's tables.
    const db = options.schema ? shared.db.withSchema(options.schema) : shared.db;
    return { db, postgres, release: shared.release };
  }
  const path = storeFile(options);
  if (readOnly) {
    if (!existsSync(path)) return undefined;
    const file = new SQLite(path, { readonly: true, fileMustExist: true });
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
    return { db, postgres, release: () => db.destroy() };
  }
  // Folders 0700 (each one created, `workspaces/<team>` too), whatever the umask lets through.
  mkdirSync(options.dataDir ?? './data', { recursive: true, mode: 0o700 });
  ownerOnly(path);
  const file = new SQLite(path);
  // WAL: readers never block the writer; synchronous=FULL: a committed transaction survives a crash.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { db, postgres, release: () => db.destroy() };
}

/** The embedded store's file: `confdesk.sqlite` in DATA_DIR (or a workspace's folder). */
export const storeFile = (options: Pick<StoreOptions, 'dataDir'>) =>
  join(options.dataDir ?? './data', 'confdesk.sqlite');

/**
 * The store holds cards, people's links and (distribution mode) sealed secrets: readable by the
 * bot's user only. The file is created here 0600 before SQLite opens it (SQLite would ask for 0644
 * less the umask), and SQLite gives its -wal and -shm files the database file's mode. A file an
 * older version left open to others is closed to them now (where this user may change it).
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      const { mode } = statSync(f);
      if (mode & 0o077) chmodSync(f, mode & 0o700);
    } catch {
      // Not there (no WAL yet), or another user's file: SQLite says what it cannot open.
    }
  }
}

/**
 * Whether an error is PostgreSQL's "schema … does not exist" (3F000) about a schema other than ours,
 * or a table or column that vanished under a catalog read (42P01, 42703): Kysely's catalog reads (the
 * migrator's, the doctor's) read every schema's tables and columns, so what someone else drops or
 * migrates at that very moment (another deployment on the server, a test run beside this one) fails
 * them. Not ours to fix: read again (an error of our own comes back each time, and is thrown then).
 */
export const droppedElsewhere = (error: unknown, schema: string | undefined) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === '42P01' || code === '42703') return true;
  return code === '3F000' && !(schema && String((error as Error).message).includes(`"${schema}"`));
};

/** Tries of a catalog read that fails on a schema dropped elsewhere, a short random pause between. */
const catalogTries = 10;
const catalogPause = () => new Promise((r) => setTimeout(r, 20 + Math.random() * 80));

/** A catalog read, read again (up to 10 times) while it fails on a schema dropped elsewhere. */
export async function readCatalog<T>(read: () => Promise<T>, schema: string | undefined): Promise<T> {
  for (let tries = 1; ; tries++)
    try {
      return await read();
    } catch (error) {
      if (tries >= catalogTries || !droppedElsewhere(error, schema)) throw error;
      await catalogPause();
    }
}

/**
 * Migrates to `version` (default: the latest), looking again while Kysely's look for its tables
 * (which reads the whole catalog) fails on a schema dropped elsewhere; answers Kysely's error, if any.
 */
export async function migrate(migrator: Migrator, schema: string | undefined, version?: string) {
  let result = version ? await migrator.migrateTo(version) : await migrator.migrateToLatest();
  for (let tries = 1; tries < catalogTries && droppedElsewhere(result.error, schema); tries++) {
    await catalogPause();
    result = version ? await migrator.migrateTo(version) : await migrator.migrateToLatest();
  }
  return result.error;
}

/**
 * Whether the store's migrations are all applied, asked in one query of Kysely's own table (none yet:
 * not up to date). The migrator, before it does anything, looks for its tables in the whole catalog
 * (every schema's columns on PostgreSQL): with hundreds of workspace schemas that look alone took a
 * second per store, so it runs only when something is to be done (or to be said: a store a newer
 * confdesk migrated further is left to the migrator, which refuses it as before).
 */
export async function migrationsUpToDate(db: Kysely<Database>): Promise<boolean> {
  const known = Object.keys(migrations).sort();
  const raw = db as unknown as Kysely<{ kysely_migration: { name: string } }>;
  try {
    const r = await raw
      .selectFrom('kysely_migration')
      .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.max('name').as('latest')])
      .executeTakeFirst();
    return Number(r?.n) === known.length && r?.latest === known.at(-1);
  } catch (error) {
    // No table yet (a new store): the migrator creates it. Anything else (the server away) is thrown.
    if (missingTable(error)) return false;
    throw error;
  }
}

/** PostgreSQL's undefined table or schema (42P01, 3F000), SQLite's "no such table". */
const missingTable = (error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === '42P01' || code === '3F000' || /no such table/.test(String((error as Error)?.message));
};

/** Connects and applies pending migrations; an embedded store forgets a dead run's leases. */
export async function openDb(options: StoreOptions): Promise<OpenDb> {
  const { db, postgres, release } = (await connect(options)) as Connection;
  try {
    if (!(await migrationsUpToDate(db))) {
      const migrator = new Migrator({
        db,
        provider,
        // Kysely looks for its bookkeeping tables by schema: name ours, or it may find another schema's.
        ...(postgres && options.schema ? { migrationTableSchema: options.schema } : {}),
      });
      const error = await migrate(migrator, options.schema);
      if (error) throw error;
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
  } catch (error) {
    await release();
    throw error;
  }
  return {
    db,
    backend: postgres ? 'postgres' : 'sqlite',
    schema: postgres ? options.schema : undefined,
    now: options.now ?? (() => new Date()),
    close: release,
  };
}
