import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, workspaceStoreOptions } from '../../src/store/store.js';

/*
 * `npm run outbox` and `npm run doctor`, run as an operator runs them (child processes, no .env), with
 * a DATA_DIR that is not the bot's or a mistyped `--workspace`: they say so and never create a store
 * or a folder (a new empty store would answer "No dead letters", true and useless).
 */

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-tools-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

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
const outbox = (env: Record<string, string>, ...args: string[]) =>
  tool('src/store/outbox-cli.ts', env, ...args);
const doctor = (env: Record<string, string>) => tool('src/doctor/cli.ts', env);

describe('npm run outbox never creates a store', () => {
  it.each([['dead'], ['requeue', 'all']])(
    'a DATA_DIR with no store (%s): exit 1 naming the path, nothing created',
    async (...args) => {
      const wrong = join(dir, 'not-the-bots', 'data');
      const r = await outbox({ DATA_DIR: wrong }, ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`DATA_DIR: no store at ${join(wrong, 'confdesk.sqlite')}`);
      expect(r.stdout).not.toContain('No dead letter');
      expect(existsSync(join(dir, 'not-the-bots'))).toBe(false);
    },
  );

  it('a DATA_DIR that exists but holds no store: the same, and the folder stays empty', async () => {
    const r = await outbox({ DATA_DIR: dir }, 'dead');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no store at');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the bot’s DATA_DIR: works as before (the check can pass)', async () => {
    await (await openStore({ dataDir: join(dir, 'data') })).close();
    const r = await outbox({ DATA_DIR: join(dir, 'data') }, 'dead');
    expect(r).toMatchObject({ code: 0, stdout: expect.stringContaining('No dead letters') });
  });
});

describe('npm run outbox in distribution mode never creates a workspace’s folder', () => {
  const dataDir = () => join(dir, 'data');
  beforeEach(async () => {
    const registry = await openStore({ dataDir: dataDir() });
    await registry.saveInstallation('TALPHA', 'sealed', new Date());
    await registry.close();
    await (await openStore(workspaceStoreOptions({ dataDir: dataDir() }, 'TALPHA'))).close();
  });

  it('a mistyped --workspace: exit 1 naming it and the installed ones, no folder created', async () => {
    const r = await outbox({ ...distribution, DATA_DIR: dataDir() }, '--workspace', 'TALPHAA', 'dead');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--workspace TALPHAA: no workspace TALPHAA here');
    expect(r.stderr).toContain('Installed: TALPHA');
    expect(r.stdout).not.toContain('No dead letter');
    expect(readdirSync(join(dataDir(), 'workspaces'))).toEqual(['TALPHA']);
    // The right one is read.
    const right = await outbox({ ...distribution, DATA_DIR: dataDir() }, '--workspace', 'TALPHA', 'dead');
    expect(right).toMatchObject({ code: 0, stdout: expect.stringContaining('No dead letters') });
  });

  it('a DATA_DIR with no store: exit 1 naming the path (not "Installed: none"), nothing created', async () => {
    const wrong = join(dir, 'elsewhere');
    for (const args of [['dead'], ['--workspace', 'TALPHA', 'dead']]) {
      const r = await outbox({ ...distribution, DATA_DIR: wrong }, ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`no store at ${join(wrong, 'confdesk.sqlite')}`);
    }
    expect(existsSync(wrong)).toBe(false);
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl)
  console.warn('tools-never-create: TEST_DATABASE_URL is not set: the PostgreSQL case is not run.');
describe.runIf(databaseUrl)('npm run outbox on PostgreSQL never creates a schema', () => {
  it('a DATABASE_SCHEMA with no store: exit 1 naming it, the schema not created', async () => {
    const schema = `confdesk_missing_${process.pid}`;
    const env = { DATABASE_URL: databaseUrl as string, DATABASE_SCHEMA: schema };
    const r = await outbox(env, 'dead');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`DATABASE_URL: no confdesk store in this database (schema ${schema})`);
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const found = await client.query('select 1 from information_schema.schemata where schema_name = $1', [
        schema,
      ]);
      expect(found.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });
});

describe('npm run doctor never creates a store', () => {
  it('one workspace, a DATA_DIR with no store: says where it looked, nothing created', async () => {
    const wrong = join(dir, 'nope');
    const r = await doctor({ DATA_DIR: wrong, PLATFORM_URL: 'simulator' });
    expect(r.stdout).toMatch(
      new RegExp(
        `store +migrations +WARNING +no store at ${join(wrong, 'confdesk.sqlite')}: not created yet`,
      ),
    );
    expect(r.stdout).toContain("DATA_DIR or DATABASE_URL is not the bot's");
    expect(existsSync(wrong)).toBe(false);
  });

  it('distribution mode, a DATA_DIR with no store: says so, nothing created', async () => {
    const wrong = join(dir, 'nope');
    const r = await doctor({ ...distribution, DATA_DIR: wrong });
    expect(r.stdout).toMatch(/store +open +WARNING +no store at .*: not created yet/);
    expect(r.stdout).toMatch(/workspaces +note +none installed yet/);
    expect(existsSync(wrong)).toBe(false);
  });
});
