import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll } from 'vitest';
import type { StoreOptions } from '../../src/store/store.js';

/**
 * The store's two backends for a test file: the embedded SQLite file always, PostgreSQL when
 * TEST_DATABASE_URL is set (`.ci/run` sets it; without it the file says so). Each `options()` is a
 * fresh store (its own directory or schema), removed after the file's tests.
 */
export function storeBackends(what: string): { name: string; options: () => StoreOptions }[] {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) console.warn(`PostgreSQL ${what} SKIPPED: set TEST_DATABASE_URL to run them.`);
  const dirs: string[] = [];
  const schemas: string[] = [];
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (pgUrl && schemas.length) {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      for (const s of schemas) await client.query(`drop schema if exists "${s}" cascade`);
      await client.end();
    }
  });
  const backends: { name: string; options: () => StoreOptions }[] = [
    {
      name: 'embedded (SQLite file)',
      options: () => {
        const dir = mkdtempSync(join(tmpdir(), 'confdesk-store-'));
        dirs.push(dir);
        return { dataDir: dir };
      },
    },
  ];
  if (pgUrl)
    backends.push({
      name: 'PostgreSQL',
      options: () => {
        const schema = `confdesk_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
        schemas.push(schema);
        return { databaseUrl: pgUrl, schema };
      },
    });
  return backends;
}
