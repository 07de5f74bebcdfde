import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
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
  now: () => Date;
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
   * Opened by an operator's tool beside a running bot: the embedded store's leases are the bot's,
   * not a dead run's, so they are left alone.
   */
  keepLeases?: boolean;
  now?: () => Date;
}

const provider: MigrationProvider = { getMigrations: async () => migrations as Record<string, Migration> };

/** A Kysely connection to the configured backend (the schema is created unless `readOnly`). */
export async function connect(
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
    // A connection the server drops (a restart, a network cut) emits 'error' on its client and on the
    // pool: without a listener that event ends the process. The pool discards the client and connects
    // anew on the next query; while it cannot, queries fail and /readyz's store probe says why.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    if (options.schema && !readOnly) {
      const client = await pool.connect();
      try {
        // Two replicas creating the schema at once: one of them may get a unique violation (23505) or
        // duplicate_schema (42P06) from PostgreSQL despite "if not exists"; the schema is there either way.
        await client
          .query(`create schema if not exists "${options.schema.replace(/"/g, '')}"`)
          .catch((error: { code?: string }) => {
            if (error.code !== '23505' && error.code !== '42P06') throw error;
          });
      } finally {
        client.release();
      }
    }
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), postgres };
  }
  const path = storeFile(options);
  if (readOnly) {
    if (!existsSync(path)) return undefined;
    const file = new SQLite(path, { readonly: true, fileMustExist: true });
    return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), postgres };
  }
  // Folders 0700 (each one created, `workspaces/<team>` too), whatever the umask lets through.
  mkdirSync(options.dataDir ?? './data', { recursive: true, mode: 0o700 });
  ownerOnly(path);
  const file = new SQLite(path);
  // WAL: readers never block the writer; synchronous=FULL: a committed transaction survives a crash.
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = FULL');
  file.pragma('busy_timeout = 5000');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), postgres };
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

/** Connects and applies pending migrations; an embedded store forgets a dead run's leases. */
export async function openDb(options: StoreOptions): Promise<Db> {
  const { db, postgres } = (await connect(options)) as { db: Kysely<Database>; postgres: boolean };
  const migrator = new Migrator({
    db,
    provider,
    // Kysely looks for its bookkeeping tables by schema: name ours, or it may find another schema's.
    ...(postgres && options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  const error = await migrate(migrator, options.schema);
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
  return { db, backend: postgres ? 'postgres' : 'sqlite', now: options.now ?? (() => new Date()) };
}
