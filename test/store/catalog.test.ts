import { describe, expect, it } from 'vitest';
import { readCatalog } from '../../src/store/db.js';

/** PostgreSQL's error for a schema dropped while a catalog read ran (3F000). */
const dropped = (schema: string) =>
  Object.assign(new Error(`schema "${schema}" does not exist`), { code: '3F000' });

describe('a catalog read while someone else drops a schema', () => {
  it('is read again, and answers', async () => {
    let tries = 0;
    const read = async () => {
      tries++;
      if (tries < 3) throw dropped('someone_elses');
      return ['outbox'];
    };
    expect(await readCatalog(read, 'ours')).toEqual(['outbox']);
    expect(tries).toBe(3);
  });

  it('is read again when a table or a column vanished under it (another schema migrating)', async () => {
    let tries = 0;
    const read = async () => {
      tries++;
      if (tries === 1)
        throw Object.assign(new Error('column "email" of relation "user_links" does not exist'), {
          code: '42703',
        });
      if (tries === 2) throw Object.assign(new Error('relation "outbox" does not exist'), { code: '42P01' });
      return ['outbox'];
    };
    expect(await readCatalog(read, 'ours')).toEqual(['outbox']);
    expect(tries).toBe(3);
  });

  it('fails at once when it is our own schema that is missing, or another error', async () => {
    let tries = 0;
    await expect(
      readCatalog(async () => {
        tries++;
        throw dropped('ours');
      }, 'ours'),
    ).rejects.toThrow('schema "ours" does not exist');
    expect(tries).toBe(1);
    await expect(
      readCatalog(async () => Promise.reject(new Error('connection refused')), 'ours'),
    ).rejects.toThrow('connection refused');
  });

  it('gives up after ten tries in all', async () => {
    let tries = 0;
    await expect(
      readCatalog(async () => {
        tries++;
        throw dropped('someone_elses');
      }, 'ours'),
    ).rejects.toThrow('someone_elses');
    expect(tries).toBe(10);
  });
});
