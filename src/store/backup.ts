import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { storeFile } from './db.js';
import { migrations } from './schema.js';
import { workspaceStoreOptions } from './store.js';

/*
 * Backups of the embedded store, as folders laid out as DATA_DIR is: `confdesk.sqlite`, and in
 * distribution mode `workspaces/<team>/confdesk.sqlite` for each installed workspace, with a
 * manifest (`confdesk-backup.json`, written last: a folder without one is not a finished backup).
 * A backup is taken online, beside the running bot, through SQLite's backup API; a restore needs the
 * bot stopped, and refuses while a process has the store open. PostgreSQL has its own tools
 * (`postgresGuidance`).
 */

export const manifestName = 'confdesk-backup.json';
const format = 'confdesk-backup/1';

/** One store in a backup: its file (relative to the backup's folder), its workspace, what it held. */
export interface BackupEntry {
  file: string;
  /** Distribution mode: the workspace whose store it is; absent for the process's own store. */
  team?: string;
  /** The migrations applied to it, by name (a restore checks this confdesk knows them all). */
  migrations: string[];
  bytes: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof format;
  takenAt: string;
  stores: BackupEntry[];
}

/** A path the operator typed: under `npm run`, the working directory is the package's, not theirs. */
export const operatorPath = (path: string) =>
  resolve(process.env.npm_lifecycle_event && process.env.INIT_CWD ? process.env.INIT_CWD : '.', path);

/** What an operator must read: the store is not backed up or restored, and why (exit 1). */
export class BackupRefused extends Error {}

/**
 * A folder or file this user may not create or write (EACCES, EPERM, a read-only file system, a
 * path through a file, a full disk): one sentence naming the path and what to do, instead of the
 * raw error's stack. Undefined for any other error.
 */
export function fileSystemRefusal(error: unknown): BackupRefused | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  if (!e?.code || !e.path) return undefined;
  const path = e.path;
  const verb = e.syscall === 'mkdir' ? 'create the folder' : e.syscall === 'rename' ? 'move' : 'write';
  let user = `uid ${process.getuid?.() ?? '?'}`;
  try {
    user = `${userInfo().username} (${user})`;
  } catch {
    // No name for this uid (a container's numeric user): the uid says it.
  }
  const parent = dirname(path);
  switch (e.code) {
    case 'EACCES':
    case 'EPERM':
      return new BackupRefused(
        `cannot ${verb} ${path}: the user running this, ${user}, may not write in ${parent} (${e.code}). Run it as the bot's user (the owner of DATA_DIR), or create the folder for that user first: sudo install -d -o <the bot's user> -m 700 ${path}`,
      );
    case 'EROFS':
      return new BackupRefused(`cannot ${verb} ${path}: ${parent} is on a read-only file system (EROFS)`);
    case 'ENOTDIR':
      return new BackupRefused(
        `cannot ${verb} ${path}: a part of that path is a file, not a folder (ENOTDIR)`,
      );
    case 'ENOSPC':
      return new BackupRefused(`cannot ${verb} ${path}: the disk is full (ENOSPC)`);
    default:
      return undefined;
  }
}

const mainFile = 'confdesk.sqlite';
const workspaceFile = (team: string) => `workspaces/${team}/${mainFile}`;
const entryPattern = /^(confdesk\.sqlite|workspaces\/([A-Z0-9]{2,32})\/confdesk\.sqlite)$/;

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Copies a store while the bot writes to it. Every page is copied in one step, that is in one read
 * transaction: the copy is the store as it was at one moment (WAL: the bot's writes go on meanwhile,
 * and a transaction still open then is not in it). In smaller steps, each write of the bot between
 * two steps would start the copy over, and under a steady stream of writes it might never end.
 */
async function copyOnline(source: string, destination: string): Promise<void> {
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  // The copy holds what the store holds (sealed secrets, people's links): the owner's only.
  closeSync(openSync(destination, 'wx', 0o600));
  const db = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    await db.backup(destination, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  // One self-contained file (no -wal or -shm beside it); the bot puts a restored store back in WAL.
  const copy = new SQLite(destination, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Checks a store file (SQLite's quick_check) and answers the migrations applied to it. */
function checkedMigrations(path: string): string[] {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok')
      throw new BackupRefused(`${path} is damaged (SQLite's quick_check: ${String(check)})`);
    const has = (table: string) =>
      db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table) !== undefined;
    if (!has('kysely_migration')) return [];
    return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}

/** The workspaces a store's registry lists (read from the copy, so that it matches it). */
function installedIn(path: string): string[] {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const has = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'installations'")
      .get();
    if (!has) return [];
    return (db.prepare('select team_id from installations order by team_id').all() as { team_id: string }[])
      .map((r) => r.team_id)
      .filter((team) => /^[A-Z0-9]{2,32}$/.test(team));
  } finally {
    db.close();
  }
}

export interface BackupReport {
  folder: string;
  manifest: BackupManifest;
  /** What the operator should know: workspaces without a store yet, folders left out. */
  notes: string[];
}

/**
 * Backs up the embedded store in `dataDir` (the caller checked there is one) into `target`, a new
 * folder or an empty one. The process's store is copied first; the workspaces are those its copy
 * lists, each copied after it (a workspace's own data may be a little newer than the registry's).
 */
export async function backupEmbedded(
  dataDir: string,
  target: string,
  now = new Date(),
): Promise<BackupReport> {
  const folder = resolve(target);
  const existed = existsSync(folder);
  if (existed && (!statSync(folder).isDirectory() || readdirSync(folder).length > 0))
    throw new BackupRefused(
      `${folder} already exists and is not an empty folder: a backup never writes over anything; name a new folder`,
    );
  const data = resolve(dataDir);
  const notes: string[] = [];
  const stores: BackupEntry[] = [];
  const copy = async (source: string, file: string, team?: string) => {
    const destination = join(folder, file);
    await copyOnline(source, destination);
    stores.push({
      file,
      ...(team ? { team } : {}),
      migrations: checkedMigrations(destination),
      bytes: statSync(destination).size,
      sha256: sha256(destination),
    });
  };
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    await copy(storeFile({ dataDir: data }), mainFile);
    const teams = installedIn(join(folder, mainFile));
    for (const team of teams) {
      const source = storeFile(workspaceStoreOptions({ dataDir: data }, team));
      if (existsSync(source)) await copy(source, workspaceFile(team), team);
      else
        notes.push(
          `${team}: installed, no store of its own yet (the bot makes it when it starts the workspace)`,
        );
    }
    const others = existsSync(join(data, 'workspaces'))
      ? readdirSync(join(data, 'workspaces')).filter(
          (team) => !teams.includes(team) && existsSync(join(data, 'workspaces', team, mainFile)),
        )
      : [];
    if (others.length)
      notes.push(
        `left out, not installed in the copied registry (an install under way, or an uninstall's leftovers): ${others.join(', ')}`,
      );
    const manifest: BackupManifest = { format, takenAt: now.toISOString(), stores };
    writeFileSync(join(folder, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return { folder, manifest, notes };
  } catch (error) {
    // A half-made backup must not pass for one: what this run wrote goes.
    if (existed)
      for (const f of readdirSync(folder)) rmSync(join(folder, f), { recursive: true, force: true });
    else rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** Reads a backup's manifest and checks every store in it (present, unchanged, sound). */
export function readBackup(backup: string): BackupManifest {
  const folder = resolve(backup);
  const path = join(folder, manifestName);
  if (!existsSync(path))
    throw new BackupRefused(
      `${folder} is not a confdesk backup: it has no ${manifestName} (made last by npm run backup: without it, the backup did not finish)`,
    );
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupRefused(`${path} cannot be read: ${(error as Error).message}`);
  }
  if (manifest.format !== format || !Array.isArray(manifest.stores))
    throw new BackupRefused(`${path}: not a backup this confdesk knows (format ${String(manifest.format)})`);
  const files = manifest.stores.map((s) => s.file);
  if (!files.includes(mainFile) || new Set(files).size !== files.length)
    throw new BackupRefused(`${path}: the list of stores is not a confdesk backup's`);
  for (const entry of manifest.stores) {
    const m = entryPattern.exec(entry.file);
    // A name from the file decides where a restore writes: only the layout a backup makes.
    if (!m || m[2] !== entry.team) throw new BackupRefused(`${path}: unexpected store ${entry.file}`);
    const file = join(folder, entry.file);
    if (!existsSync(file)) throw new BackupRefused(`${file} is missing: the backup is incomplete`);
    if (sha256(file) !== entry.sha256)
      throw new BackupRefused(
        `${file} changed since the backup was taken (its SHA-256 differs): not restored`,
      );
    checkedMigrations(file);
  }
  return manifest;
}

/**
 * Whether a process has this store open. SQLite leaves WAL mode (which the bot keeps its store in)
 * only when no other connection is open: it answers SQLITE_BUSY while the bot runs, even idle. When
 * nobody has it open, the store is left in rollback mode, one self-contained file: only a store about
 * to be moved aside is asked.
 */
function heldOpen(path: string): boolean {
  const db = new SQLite(path, { fileMustExist: true, timeout: 1_000 });
  try {
    return db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete';
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}

export interface RestoreReport {
  manifest: BackupManifest;
  dataDir: string;
  /** Where the store it replaced was put (inside DATA_DIR), if there was one. */
  replaced: string | undefined;
  /** Migrations this confdesk applies at its next start. */
  pending: string[];
}

/**
 * Puts a backup back into `dataDir`, the bot stopped. The store found there (with its workspaces'
 * stores) is moved aside into `dataDir/replaced-<time>/`, not deleted. Files get DATA_DIR's owner
 * when run as root (a restore under sudo leaves the store the bot's user can open).
 */
export function restoreEmbedded(backup: string, dataDir: string, now = new Date()): RestoreReport {
  const folder = resolve(backup);
  const data = resolve(dataDir);
  if (data === folder || data.startsWith(`${folder}/`) || folder.startsWith(`${data}/workspaces/`))
    throw new BackupRefused(
      `DATA_DIR (${data}) and the backup (${folder}) overlap: copy the backup elsewhere first`,
    );
  const manifest = readBackup(folder);
  const known = Object.keys(migrations);
  const applied = new Set(manifest.stores.flatMap((s) => s.migrations));
  const unknown = [...applied].filter((name) => !known.includes(name)).sort();
  if (unknown.length)
    throw new BackupRefused(
      `the backup was made by a newer confdesk (migrations ${unknown.join(', ')}), which this one does not know and would refuse at start: restore it with that version or a newer one`,
    );
  const main = join(data, mainFile);
  const present = [
    ...(existsSync(main) ? [main] : []),
    ...(existsSync(join(data, 'workspaces'))
      ? readdirSync(join(data, 'workspaces'))
          .map((team) => join(data, 'workspaces', team, mainFile))
          .filter((f) => existsSync(f))
      : []),
  ];
  for (const file of present)
    if (heldOpen(file))
      throw new BackupRefused(
        `a running confdesk has ${file} open: stop the bot first (systemctl stop confdesk, docker stop …), then restore`,
      );

  const owner = ownerFor(data);
  const made: string[] = [];
  const makeDir = (dir: string) => {
    for (let d = dir, missing: string[] = []; ; d = dirname(d)) {
      if (existsSync(d)) {
        for (const m of missing.reverse()) {
          mkdirSync(m, { mode: 0o700 });
          made.push(m);
        }
        return;
      }
      missing.push(d);
    }
  };
  makeDir(data);
  let replaced: string | undefined;
  const leftovers = [
    mainFile,
    `${mainFile}-wal`,
    `${mainFile}-shm`,
    `${mainFile}-journal`,
    'workspaces',
  ].filter((f) => existsSync(join(data, f)));
  if (leftovers.length) {
    replaced = join(data, `replaced-${now.toISOString().replace(/[:.]/g, '-')}`);
    mkdirSync(replaced, { mode: 0o700 });
    made.push(replaced);
    for (const f of leftovers) renameSync(join(data, f), join(replaced, f));
  }
  // The workspaces first, the process's store last: a bot started too early finds no store, not half of one.
  const order = [...manifest.stores].sort(
    (a, b) => Number(a.file === mainFile) - Number(b.file === mainFile),
  );
  for (const entry of order) {
    const destination = join(data, entry.file);
    makeDir(dirname(destination));
    const partial = `${destination}.restoring`;
    copyFileSync(join(folder, entry.file), partial);
    chmodSync(partial, 0o600);
    if (owner) chownSync(partial, owner.uid, owner.gid);
    renameSync(partial, destination);
  }
  if (owner) for (const dir of made) chownSync(dir, owner.uid, owner.gid);
  const pending = known.filter((name) => manifest.stores.some((s) => !s.migrations.includes(name))).sort();
  return { manifest, dataDir: data, replaced, pending };
}

/** Run as root: DATA_DIR's owner (or its parent's, for a new one) when that is another user. */
function ownerFor(data: string): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let dir = data;
  while (!existsSync(dir)) dir = dirname(dir);
  const { uid, gid } = statSync(dir);
  return uid === 0 ? undefined : { uid, gid };
}

/**
 * PostgreSQL's backups are PostgreSQL's own (pg_dump, pg_restore): what to run, with the schemas
 * confdesk uses. The lines starting with `  pg_` are commands as they are to be run.
 */
export function postgresGuidance(
  kind: 'backup' | 'restore',
  store: { schema: string | undefined; distribution: boolean },
): string {
  const base = store.schema ?? 'public';
  const workspaces = `${store.schema ?? 'confdesk'}_ws_*`;
  const schemas = [`--schema='${base}'`, ...(store.distribution ? [`--schema='${workspaces}'`] : [])];
  const where = [
    `  ${base}: confdesk's tables (${store.schema ? 'DATABASE_SCHEMA' : "DATABASE_SCHEMA is unset: the connection's default schema, public unless the user has one of its own name"})`,
    ...(store.distribution
      ? [`  ${workspaces}: one schema per installed workspace (distribution mode)`]
      : []),
  ];
  if (kind === 'backup')
    return [
      'The store is on PostgreSQL (DATABASE_URL): nothing was copied. Back it up with pg_dump (replicas may keep running):',
      `  pg_dump --format=custom --file=confdesk.dump ${schemas.join(' ')} "$DATABASE_URL"`,
      'Its schemas:',
      ...where,
      'DATABASE_URL as the bot has it (export it, or put it in its place). Use a pg_dump of the server’s version or newer.',
      ...(store.distribution
        ? [
            'The workspaces’ secrets in it are sealed with CONFDESK_ENCRYPTION_KEY, which it does not hold: keep the key.',
          ]
        : []),
    ].join('\n');
  return [
    'The store is on PostgreSQL (DATABASE_URL): nothing was restored. Stop every replica, then restore the dump with pg_restore:',
    '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" confdesk.dump',
    'It drops and makes again what the dump holds:',
    ...where,
    ...(store.distribution
      ? [
          'A workspace installed after the dump keeps its schema, which the restored registry does not list: drop it (drop schema … cascade).',
        ]
      : []),
    'Then start the replicas: each start applies the migrations the dump is missing.',
  ].join('\n');
}
