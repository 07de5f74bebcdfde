import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { connect, readCatalog, type StoreOptions, storeFile } from './db.js';
import { backlogOf } from './outbox.js';
import { type Database, migrations } from './schema.js';
import { lastWebhookSetting, slackRefusalSetting } from './settings.js';

/** What the doctor reads of a store, without changing it. */
export interface StoreInspection {
  backend: 'sqlite' | 'postgres';
  /** False: the embedded file does not exist yet (`npm start` creates it). */
  exists: boolean;
  /** Migrations recorded as applied, by name. */
  applied: string[];
  /** Migrations this version of confdesk knows. */
  known: string[];
  /** ISO time of the last webhook delivery accepted (`noteWebhookDelivery`), if any. */
  lastWebhookAt: string | undefined;
  /** Slack refuses the bot's token and the jobs are paused (`noteSlackRefusal`): its code and since when. */
  slackRefusal: { code: string; since: string } | undefined;
  /** The ticket events' read backlog (`read_wants`), and how many tickets the scans list (`ticket_records`). */
  ticketEvents:
    | { reads: number; verify: number; oldest: string | undefined; ticketsListed: number }
    | undefined;
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
      slackRefusal: undefined,
      ticketEvents: undefined,
    };
  try {
    return await inspectDb(connection.db, connection.postgres ? 'postgres' : 'sqlite', options.schema);
  } finally {
    await connection.release();
  }
}

/** The migrations Kysely recorded (none when its table is missing), the last webhook delivery, Slack's refusal. */
export async function inspectDb(
  db: Kysely<Database>,
  backend: 'sqlite' | 'postgres',
  schema: string | undefined,
): Promise<StoreInspection> {
  const known = Object.keys(migrations).sort();
  const tables = await readCatalog(
    () => db.introspection.getTables({ withInternalKyselyTables: true }),
    schema,
  );
  const inSchema = (name: string) =>
    tables.some((t) => t.name === name && (backend === 'sqlite' || !schema || t.schema === schema));
  const raw = db as unknown as Kysely<Record<string, Record<string, string>>>;
  const applied = inSchema('kysely_migration')
    ? (await raw.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) =>
        String(r.name),
      )
    : [];
  const setting = async (s: { scope: string; key: string }) =>
    inSchema('settings')
      ? (
          await db
            .selectFrom('settings')
            .select('value')
            .where('scope', '=', s.scope)
            .where('key', '=', s.key)
            .executeTakeFirst()
        )?.value
      : undefined;
  const refusal = await setting(slackRefusalSetting);
  let ticketEvents: StoreInspection['ticketEvents'];
  if (inSchema('read_wants') && inSchema('ticket_records')) {
    const listed = await db
      .selectFrom('ticket_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    ticketEvents = { ...(await backlogOf(db)), ticketsListed: Number(listed.n) };
  }
  return {
    backend,
    exists: true,
    applied,
    known,
    lastWebhookAt: await setting(lastWebhookSetting),
    slackRefusal: refusal ? (JSON.parse(refusal) as { code: string; since: string }) : undefined,
    ticketEvents,
  };
}

/**
 * Why the store an operator's tool looks for is not there (the sentence naming what to check), or
 * undefined when it is. The tools (`npm run outbox`, the doctor) never create one: a wrong DATA_DIR
 * would otherwise show a new, empty store as "nothing to report".
 */
export async function storeMissing(options: StoreOptions): Promise<string | undefined> {
  if (!options.databaseUrl?.startsWith('postgres')) {
    const path = resolve(storeFile(options));
    return existsSync(path)
      ? undefined
      : `DATA_DIR: no store at ${path}: set DATA_DIR to the bot's (as npm start reads it from .env and the environment); npm start creates the store on its first run`;
  }
  const found = await inspectStore(options);
  return found.applied.length
    ? undefined
    : `DATABASE_URL: no confdesk store in this database${options.schema ? ` (schema ${options.schema})` : ''}: check DATABASE_URL and DATABASE_SCHEMA (npm start creates the tables on its first run)`;
}

/** Distribution mode: the teams installed, read without changing the store; undefined without one. */
export async function installedTeamsOf(options: StoreOptions): Promise<string[] | undefined> {
  if (await storeMissing(options)) return undefined;
  const connection = await connect(options, true);
  if (!connection) return undefined;
  try {
    const tables = await readCatalog(() => connection.db.introspection.getTables(), options.schema);
    if (!tables.some((t) => t.name === 'installations' && (!options.schema || t.schema === options.schema)))
      return [];
    const rows = await connection.db
      .selectFrom('installations')
      .select('team_id')
      .orderBy('team_id')
      .execute();
    return rows.map((r) => r.team_id);
  } finally {
    await connection.release();
  }
}
