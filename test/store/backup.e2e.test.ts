import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { type Migration, Migrator } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type BackupManifest, manifestName } from '../../src/store/backup.js';
import { connect, migrate } from '../../src/store/db.js';
import { migrations } from '../../src/store/schema.js';
import { dropStore, openStore, type StoreOptions, workspaceStoreOptions } from '../../src/store/store.js';
import { eventually } from '../helpers/bot.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';

/*
 * `npm run backup` and `npm run restore` as an operator runs them (child processes, no .env): a
 * backup taken while the bot runs and another process keeps writing, restored into a fresh DATA_DIR
 * where the bot starts on it; a restore refused while the bot holds the store; distribution mode's
 * workspace stores (one of them from an older version, migrated at its first open); the tools never
 * create a store; on PostgreSQL, the pg_dump and pg_restore lines they print, run as printed.
 */

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const known = Object.keys(migrations).sort();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-backup-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
afterAll(killAll);

const distribution = {
  SLACK_SIGNING_SECRET: 's',
  SLACK_CLIENT_ID: '1.2',
  SLACK_CLIENT_SECRET: 'c',
  SLACK_STATE_SECRET: 'st',
  CONFDESK_ENCRYPTION_KEY: 'a'.repeat(64),
  PUBLIC_URL: 'https://confdesk.example',
};

/** A tool as `npm run <tool>` runs it, in `dir` (no .env there), with exactly this environment. */
const tool = (script: string, env: Record<string, string>, ...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, script), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
const backup = (env: Record<string, string>, ...args: string[]) =>
  tool('src/store/backup-cli.ts', env, ...args);
const restore = (env: Record<string, string>, ...args: string[]) =>
  tool('src/store/restore-cli.ts', env, ...args);

/** The writer of test/helpers/store-writer.ts on one store file, and how many transactions it committed. */
function startWriter(file: string): {
  child: ChildProcess;
  committed: () => number;
  stop: () => Promise<number>;
} {
  const child = spawn(
    join(root, 'node_modules/.bin/tsx'),
    [join(root, 'test/helpers/store-writer.ts'), file],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let committed = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    const all = [...String(chunk).matchAll(/committed (\d+)/g)];
    const last = all.at(-1)?.[1];
    if (last) committed = Number(last);
  });
  const exited = new Promise((r) => child.on('exit', r));
  return {
    child,
    committed: () => committed,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return committed;
    },
  };
}

/** The writer's transactions a store holds: n for each, and those with one of their two rows only. */
function writerRows(file: string): { n: number[]; halves: string[] } {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const keys = (
      db.prepare("select key from settings where scope = 'backup-test'").all() as { key: string }[]
    ).map((r) => r.key);
    const n = [...new Set(keys.map((k) => Number.parseInt(k, 10)))].sort((a, b) => a - b);
    const halves = n.filter((i) => !keys.includes(`${i}-a`) || !keys.includes(`${i}-b`)).map(String);
    return { n, halves };
  } finally {
    db.close();
  }
}

const subscription = (id: string) => ({
  id,
  channel: 'CBACKUP',
  kind: 'watch' as const,
  ticketId: '7',
  filter: { reference: 'ACME-7' },
  createdBy: 'UADMIN',
});

async function subscriptionsIn(options: StoreOptions): Promise<string[]> {
  const store = await openStore(options);
  try {
    return (await store.subscriptionsOf('CBACKUP')).map((s) => s.id);
  } finally {
    await store.close();
  }
}

/** The migrations recorded in an embedded store file. */
function appliedIn(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}

describe('one workspace: a backup while the bot runs and writes go on, restored', () => {
  it('copies the store as it was at one moment, refuses to restore under the running bot, restores into a fresh DATA_DIR the bot starts on', {
    timeout: 90_000,
  }, async () => {
    const live = join(dir, 'live');
    const seeded = await openStore({ dataDir: live });
    await seeded.addSubscription(subscription('sub-before'));
    await seeded.close();

    const slack = await new SlackDouble().start();
    const botEnv = (dataDir: string) => ({
      SLACK_BOT_TOKEN: 'xoxb-backup-test',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: '0',
      DATA_DIR: dataDir,
    });
    const ready = async (bot: ReturnType<typeof spawnBot>) => {
      const port = await bot.port;
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 15_000);
    };
    try {
      const bot = spawnBot(botEnv(live));
      await ready(bot);
      const writer = startWriter(join(live, 'confdesk.sqlite'));
      await eventually(() => writer.committed() >= 20, 15_000);
      const before = writer.committed();
      const taken = await backup({ DATA_DIR: live }, join(dir, 'backup'));
      const after = writer.committed();
      expect(taken, taken.stderr).toMatchObject({ code: 0 });
      expect(taken.stdout).toContain(`Backed up ${live} into ${join(dir, 'backup')}`);
      // The writer went on while the copy was taken, and after.
      await eventually(() => writer.committed() > after + 5, 5_000);
      const written = await writer.stop();

      const manifest = JSON.parse(readFileSync(join(dir, 'backup', manifestName), 'utf8')) as BackupManifest;
      expect(manifest.stores.map((s) => s.file)).toEqual(['confdesk.sqlite']);
      expect(manifest.stores[0]?.migrations).toEqual(known);
      expect(statSync(join(dir, 'backup', 'confdesk.sqlite')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'backup')).mode & 0o777).toBe(0o700);
      // One self-contained file: nothing of it lives in a -wal beside it.
      expect(readdirSync(join(dir, 'backup')).sort()).toEqual([manifestName, 'confdesk.sqlite']);
      const copied = writerRows(join(dir, 'backup', 'confdesk.sqlite'));
      expect(copied.halves).toEqual([]);
      const k = copied.n.length;
      expect(copied.n).toEqual(Array.from({ length: k }, (_, i) => i + 1));
      expect(k).toBeGreaterThanOrEqual(before);
      expect(k).toBeLessThan(written);

      // Under the running bot: refused, nothing touched.
      const refused = await restore({ DATA_DIR: live }, join(dir, 'backup'));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `a running confdesk has ${join(live, 'confdesk.sqlite')} open: stop the bot first`,
      );
      expect(readdirSync(live).filter((f) => f.startsWith('replaced-'))).toEqual([]);
      expect(writerRows(join(live, 'confdesk.sqlite')).n.length).toBe(written);

      // Into a fresh DATA_DIR: the data is there, and the bot starts on it.
      const fresh = join(dir, 'fresh');
      const restored = await restore({ DATA_DIR: fresh }, join(dir, 'backup'));
      expect(restored, restored.stderr).toMatchObject({ code: 0 });
      expect(restored.stdout).toContain(`into ${fresh}: 1 store(s)`);
      expect(writerRows(join(fresh, 'confdesk.sqlite')).n.length).toBe(k);
      expect(statSync(join(fresh, 'confdesk.sqlite')).mode & 0o777).toBe(0o600);
      const second = spawnBot(botEnv(fresh));
      await ready(second);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(await subscriptionsIn({ dataDir: fresh })).toEqual(['sub-before']);

      // The bot stopped: the restore goes through, the store it replaced kept aside.
      bot.child.kill('SIGTERM');
      expect(await bot.exited).toBe(0);
      const back = await restore({ DATA_DIR: live }, join(dir, 'backup'));
      expect(back, back.stderr).toMatchObject({ code: 0 });
      const aside = readdirSync(live).filter((f) => f.startsWith('replaced-'));
      expect(aside).toHaveLength(1);
      expect(back.stdout).toContain(`The store it replaced is in ${join(live, aside[0] as string)}`);
      expect(writerRows(join(live, aside[0] as string, 'confdesk.sqlite')).n.length).toBe(written);
      expect(writerRows(join(live, 'confdesk.sqlite')).n.length).toBe(k);
    } finally {
      await slack.stop();
    }
  });
});

/** A workspace store as an older confdesk left it: migrated up to `version` only. */
async function olderStore(options: StoreOptions, version: string): Promise<void> {
  const c = await connect(options);
  if (!c) throw new Error('no store');
  try {
    const migrator = new Migrator({
      db: c.db,
      provider: { getMigrations: async () => migrations as Record<string, Migration> },
    });
    const error = await migrate(migrator, undefined, version);
    if (error) throw error;
    await c.db
      .insertInto('subscriptions')
      .values({
        id: 'sub-old',
        channel: 'CBACKUP',
        kind: 'watch',
        ticket_id: '7',
        filter: '{}',
        created_by: 'UOLD',
        created_at: new Date().toISOString(),
      })
      .execute();
  } finally {
    await c.release();
  }
}

describe('distribution mode: every installed workspace’s store is in the backup', () => {
  it('two workspaces (one from an older version), writes going on in one; restored, each opens and migrates', {
    timeout: 60_000,
  }, async () => {
    const live = join(dir, 'live');
    const registry = await openStore({ dataDir: live });
    for (const team of ['TALPHA', 'TBRAVO', 'TCHARLIE'])
      await registry.saveInstallation(team, `sealed-${team}`, new Date());
    await registry.close();
    const alpha = await openStore(workspaceStoreOptions({ dataDir: live }, 'TALPHA'));
    await alpha.addSubscription(subscription('sub-alpha'));
    await alpha.close();
    await olderStore(workspaceStoreOptions({ dataDir: live }, 'TBRAVO'), '0004_dead_letters');
    // TCHARLIE has no store yet; TORPHAN has one and is not installed.
    await (await openStore(workspaceStoreOptions({ dataDir: live }, 'TORPHAN'))).close();

    const writer = startWriter(join(live, 'workspaces', 'TALPHA', 'confdesk.sqlite'));
    await eventually(() => writer.committed() >= 10, 15_000);
    const taken = await backup({ ...distribution, DATA_DIR: live }, join(dir, 'backup'));
    const written = await writer.stop();
    expect(taken, taken.stderr).toMatchObject({ code: 0 });
    expect(taken.stdout).toContain(
      `${join(dir, 'backup', 'workspaces', 'TALPHA', 'confdesk.sqlite')} (workspace TALPHA)`,
    );
    expect(taken.stdout).toContain('(workspace TBRAVO)');
    expect(taken.stdout).toContain('TCHARLIE: installed, no store of its own yet');
    expect(taken.stdout).toContain('left out, not installed in the copied registry');
    expect(taken.stdout).toContain('TORPHAN');
    expect(taken.stdout).toContain('sealed with CONFDESK_ENCRYPTION_KEY, which it does not hold');

    const manifest = JSON.parse(readFileSync(join(dir, 'backup', manifestName), 'utf8')) as BackupManifest;
    expect(manifest.stores.map((s) => [s.file, s.team, s.migrations.length])).toEqual([
      ['confdesk.sqlite', undefined, known.length],
      ['workspaces/TALPHA/confdesk.sqlite', 'TALPHA', known.length],
      ['workspaces/TBRAVO/confdesk.sqlite', 'TBRAVO', 4],
    ]);
    const copied = writerRows(join(dir, 'backup', 'workspaces', 'TALPHA', 'confdesk.sqlite'));
    expect(copied.halves).toEqual([]);
    expect(copied.n.length).toBeGreaterThanOrEqual(10);
    expect(copied.n.length).toBeLessThan(written);

    const fresh = join(dir, 'fresh');
    const restored = await restore({ ...distribution, DATA_DIR: fresh }, join(dir, 'backup'));
    expect(restored, restored.stderr).toMatchObject({ code: 0 });
    expect(restored.stdout).toContain('3 store(s), workspaces TALPHA, TBRAVO');
    expect(restored.stdout).toContain(
      `it applies the migrations the backup is missing (${known.slice(4).join(', ')})`,
    );
    expect(readdirSync(join(fresh, 'workspaces')).sort()).toEqual(['TALPHA', 'TBRAVO']);

    const reopened = await openStore({ dataDir: fresh });
    expect(await reopened.installedTeams()).toEqual(['TALPHA', 'TBRAVO', 'TCHARLIE']);
    expect(await reopened.installation('TBRAVO')).toBe('sealed-TBRAVO');
    await reopened.close();
    expect(await subscriptionsIn(workspaceStoreOptions({ dataDir: fresh }, 'TALPHA'))).toEqual(['sub-alpha']);
    expect(writerRows(join(fresh, 'workspaces', 'TALPHA', 'confdesk.sqlite')).n.length).toBe(copied.n.length);
    // The older one is migrated when it is opened, its data kept.
    const bravo = join(fresh, 'workspaces', 'TBRAVO', 'confdesk.sqlite');
    expect(appliedIn(bravo)).toHaveLength(4);
    expect(await subscriptionsIn(workspaceStoreOptions({ dataDir: fresh }, 'TBRAVO'))).toEqual(['sub-old']);
    expect(appliedIn(bravo)).toEqual(known);
  });
});

describe('the tools never create a store, never write over anything, restore only a whole backup', () => {
  it('a DATA_DIR with no store: exit 1 naming the path; neither the target nor DATA_DIR is created', async () => {
    const wrong = join(dir, 'not-the-bots');
    const r = await backup({ DATA_DIR: wrong }, join(dir, 'backup'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Nothing to back up: DATA_DIR: no store at ${join(wrong, 'confdesk.sqlite')}`);
    expect(existsSync(wrong)).toBe(false);
    expect(existsSync(join(dir, 'backup'))).toBe(false);
  });

  it('a target that is not empty: refused, left as it was', async () => {
    await (await openStore({ dataDir: join(dir, 'data') })).close();
    mkdirSync(join(dir, 'backup'));
    appendFileSync(join(dir, 'backup', 'older'), 'x');
    const r = await backup({ DATA_DIR: join(dir, 'data') }, join(dir, 'backup'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('already exists and is not an empty folder');
    expect(readdirSync(join(dir, 'backup'))).toEqual(['older']);
  });

  it('a relative target under npm run is where npm was run, not the package', async () => {
    await (await openStore({ dataDir: join(dir, 'data') })).close();
    mkdirSync(join(dir, 'elsewhere'));
    const r = await backup(
      { DATA_DIR: join(dir, 'data'), npm_lifecycle_event: 'backup', INIT_CWD: join(dir, 'elsewhere') },
      'nightly',
    );
    expect(r, r.stderr).toMatchObject({ code: 0 });
    expect(existsSync(join(dir, 'elsewhere', 'nightly', manifestName))).toBe(true);
  });

  it('a changed file, or a folder without its manifest: refused, DATA_DIR untouched', async () => {
    const data = join(dir, 'data');
    const s = await openStore({ dataDir: data });
    await s.addSubscription(subscription('sub-kept'));
    await s.close();
    expect((await backup({ DATA_DIR: data }, join(dir, 'backup'))).code).toBe(0);
    appendFileSync(join(dir, 'backup', 'confdesk.sqlite'), 'x');
    const changed = await restore({ DATA_DIR: data }, join(dir, 'backup'));
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('changed since the backup was taken');
    rmSync(join(dir, 'backup', manifestName));
    const unfinished = await restore({ DATA_DIR: data }, join(dir, 'backup'));
    expect(unfinished.code).toBe(1);
    expect(unfinished.stderr).toContain(`is not a confdesk backup: it has no ${manifestName}`);
    expect(readdirSync(data).filter((f) => f.startsWith('replaced-'))).toEqual([]);
    expect(await subscriptionsIn({ dataDir: data })).toEqual(['sub-kept']);
  });

  it('a DATA_DIR the user may not create: one sentence naming the folder and what to do, no stack', async (ctx) => {
    const data = join(dir, 'data');
    await (await openStore({ dataDir: data })).close();
    expect((await backup({ DATA_DIR: data }, join(dir, 'backup'))).code).toBe(0);
    // A path through a file: ENOTDIR, for any user.
    appendFileSync(join(dir, 'a-file'), 'x');
    const through = await restore({ DATA_DIR: join(dir, 'a-file', 'data') }, join(dir, 'backup'));
    expect(through.code).toBe(1);
    expect(through.stderr.trim()).toBe(
      `Not restored: cannot create the folder ${join(dir, 'a-file', 'data')}: a part of that path is a file, not a folder (ENOTDIR)`,
    );

    // EACCES, as it really happens: run as nobody, into a folder root owns (root may write anywhere).
    if (process.getuid?.() !== 0) {
      console.warn('restore as another user: SKIPPED (not root: cannot run the restore as nobody)');
      ctx.skip();
    }
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'backup'), 0o755);
    for (const f of readdirSync(join(dir, 'backup'))) chmodSync(join(dir, 'backup', f), 0o644);
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o755 });
    const target = join(locked, 'data');
    const asNobody = await run(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        join(root, 'node_modules/.bin/tsx'),
        join(root, 'src/store/restore-cli.ts'),
        join(dir, 'backup'),
      ],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', DATA_DIR: target } },
    ).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    console.log(`restore as nobody into ${target}: ${asNobody.stderr.trim()}`);
    expect(asNobody.code).toBe(1);
    expect(asNobody.stderr.trim().split('\n')).toEqual([
      `Not restored: cannot create the folder ${target}: the user running this, nobody (uid 65534), may not write in ${locked} (EACCES). Run it as the bot's user (the owner of DATA_DIR), or create the folder for that user first: sudo install -d -o <the bot's user> -m 700 ${target}`,
    ]);
    expect(existsSync(target)).toBe(false);
  });

  it('usage: one folder, or exit 2', async () => {
    expect((await backup({})).code).toBe(2);
    expect((await restore({}, 'a', 'b')).code).toBe(2);
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
const pgTools = await run('pg_dump', ['--version']).then(
  () => true,
  () => false,
);
if (!databaseUrl) console.warn('backup: TEST_DATABASE_URL is not set: the PostgreSQL case is not run.');
else if (!pgTools)
  console.warn(
    'backup: pg_dump is not installed (apt-get install postgresql-client): the PostgreSQL case is not run.',
  );
describe.runIf(databaseUrl && pgTools)(
  'PostgreSQL: the pg_dump and pg_restore the tools print work as printed',
  () => {
    it('distribution mode, two workspaces: dumped, dropped, restored, the data back', {
      timeout: 60_000,
    }, async () => {
      const schema = `confdesk_bk_${process.pid}`;
      const base: StoreOptions = { databaseUrl: databaseUrl as string, schema };
      const env = { ...distribution, DATABASE_URL: databaseUrl as string, DATABASE_SCHEMA: schema };
      const stores = [base, workspaceStoreOptions(base, 'TALPHA'), workspaceStoreOptions(base, 'TBRAVO')];
      try {
        const registry = await openStore(base);
        await registry.saveInstallation('TALPHA', 'sealed-TALPHA', new Date());
        await registry.saveInstallation('TBRAVO', 'sealed-TBRAVO', new Date());
        await registry.close();
        for (const [i, options] of stores.slice(1).entries()) {
          const s = await openStore(options);
          await s.addSubscription(subscription(`sub-${i}`));
          await s.close();
        }
        const said = await backup(env, join(dir, 'unused'));
        expect(said.code).toBe(1);
        expect(said.stderr).toContain('nothing was copied');
        expect(said.stderr).toContain(`${schema}_ws_*: one schema per installed workspace`);
        expect(existsSync(join(dir, 'unused'))).toBe(false);
        const dump = /^ {2}(pg_dump .+)$/m.exec(said.stderr)?.[1];
        expect(dump).toBeDefined();
        const sh = (line: string) =>
          run('sh', ['-c', line], {
            cwd: dir,
            env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl as string },
          });
        await sh(dump as string);
        expect(existsSync(join(dir, 'confdesk.dump'))).toBe(true);

        for (const options of stores) await dropStore(options);
        const again = await restore(env, join(dir, 'confdesk.dump'));
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('nothing was restored');
        const back = /^ {2}(pg_restore .+)$/m.exec(again.stderr)?.[1];
        expect(back).toBeDefined();
        await sh(back as string);

        const reopened = await openStore(base);
        expect(await reopened.installedTeams()).toEqual(['TALPHA', 'TBRAVO']);
        await reopened.close();
        expect(await subscriptionsIn(stores[1] as StoreOptions)).toEqual(['sub-0']);
        expect(await subscriptionsIn(stores[2] as StoreOptions)).toEqual(['sub-1']);
      } finally {
        for (const options of stores) await dropStore(options);
      }
    });
  },
);
