import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store, workspaceStoreOptions } from '../../src/store/store.js';

/*
 * The embedded store's folders and files are the bot's user's only (0700, 0600): its cards, people's
 * links and, in distribution mode, sealed secrets. Tried with the most permissive umask (000), where
 * whatever the code leaves to the umask shows as open to everyone. Vitest runs files in forked
 * processes: this umask is this file's own.
 */

const mode = (path: string) => statSync(path).mode & 0o777;
let root: string;
let umask: number;
const opened: Store[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'confdesk-modes-'));
  umask = process.umask(0o000);
});
afterEach(async () => {
  process.umask(umask);
  for (const s of opened.splice(0)) await s.close();
  rmSync(root, { recursive: true, force: true });
});

/** Opens a store and writes to it (the WAL and its shared-memory file exist from the first write). */
async function openAndWrite(dataDir: string): Promise<Store> {
  const store = await openStore({ dataDir });
  opened.push(store);
  await store.advance([{ ticketId: '7', eventId: 'e1', channel: 'C1', payload: { eventName: 'x' } }]);
  return store;
}

describe('the embedded store, created under umask 000', () => {
  it('makes every folder it creates 0700 and the SQLite file, its WAL and SHM 0600', async () => {
    const dataDir = join(root, 'a', 'data');
    await openAndWrite(dataDir);
    expect(mode(join(root, 'a'))).toBe(0o700);
    expect(mode(dataDir)).toBe(0o700);
    const file = join(dataDir, 'confdesk.sqlite');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      expect(existsSync(f)).toBe(true);
      expect([f, mode(f).toString(8)]).toEqual([f, '600']);
    }
  });

  it('makes a workspace’s folders (workspaces/<team>) 0700 and its files 0600', async () => {
    const base = { dataDir: join(root, 'data') };
    await openAndWrite(base.dataDir);
    const team = workspaceStoreOptions(base, 'T0MODES');
    await openAndWrite(team.dataDir as string);
    expect(mode(join(root, 'data', 'workspaces'))).toBe(0o700);
    expect(mode(join(root, 'data', 'workspaces', 'T0MODES'))).toBe(0o700);
    const file = join(team.dataDir as string, 'confdesk.sqlite');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f)).toBe(0o600);
  });

  it('closes to others the files an older version left readable (0644)', async () => {
    const dataDir = join(root, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    const file = join(dataDir, 'confdesk.sqlite');
    const first = await openAndWrite(dataDir);
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o644);
    closeSync(openSync(`${file}-wal`, 'a', 0o644));
    await openAndWrite(dataDir);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f)).toBe(0o600);
    // A folder the operator made is theirs: left as it was (its files are closed, which is what counts).
    expect(mode(dataDir)).toBe(0o755);
  });
});
