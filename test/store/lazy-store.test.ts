import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyStoresOpen, openLazyStore } from '../../src/store/lazy-store.js';
import { type Store, workspaceStoreOptions } from '../../src/store/store.js';

/*
 * The embedded store of a workspace opens its SQLite file on demand and closes it when idle, so the
 * process's open files follow the active workspaces, not the installed ones: counted from
 * /proc/self/fd (Linux), the files the process really holds open.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-lazy-'));
  dirs.push(dir);
  return dir;
};

/** The process's open files under `dir` (its SQLite files with their WAL and shared memory). */
const openFilesUnder = (dir: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false; // closed meanwhile (the readdir's own descriptor)
    }
  }).length;
const openFiles = () => readdirSync('/proc/self/fd').length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const teams = (n: number) => Array.from({ length: n }, (_, i) => `T${String(i).padStart(4, '0')}`);
const subscription = (team: string) => ({
  id: `00000000-0000-4000-8000-${team.padStart(12, '0')}`,
  channel: `C${team}`,
  kind: 'watch' as const,
  ticketId: '1',
  filter: {},
  createdBy: `U${team}`,
});

describe.runIf(process.platform === 'linux')('an embedded workspace store opened on demand', () => {
  it('closes its file when idle: the open files follow the active workspaces, and the data stays', async () => {
    const base = { dataDir: dataDir() };
    const startFiles = openFiles();
    const stores: Store[] = [];
    for (const team of teams(30))
      stores.push(await openLazyStore(workspaceStoreOptions(base, team), { idleCloseMs: 200, maxOpen: 100 }));
    await Promise.all(stores.map((s, i) => s.addSubscription(subscription(teams(30)[i] as string))));
    // Each open store holds its file, its WAL and its shared memory.
    expect(openFilesUnder(base.dataDir)).toBeGreaterThanOrEqual(30 * 3);
    await sleep(500);
    expect(openFilesUnder(base.dataDir)).toBe(0);
    expect(lazyStoresOpen()).toBe(0);
    expect(openFiles()).toBeLessThanOrEqual(startFiles + 2);
    // Used again: opened again, with what it kept; only the ones used are open.
    for (const [i, team] of teams(3).entries())
      expect((await stores[i]?.subscriptionsBy(`U${team}`))?.map((s) => s.channel)).toEqual([`C${team}`]);
    expect(openFilesUnder(base.dataDir)).toBeGreaterThanOrEqual(3 * 3);
    expect(openFilesUnder(base.dataDir)).toBeLessThanOrEqual(3 * 4);
    await Promise.all(stores.map((s) => s.close()));
    expect(openFilesUnder(base.dataDir)).toBe(0);
  });

  it('keeps at most so many files open, closing the least recently used', async () => {
    const base = { dataDir: dataDir() };
    const stores = new Map<string, Store>();
    for (const team of teams(12)) {
      const store = await openLazyStore(workspaceStoreOptions(base, team), {
        idleCloseMs: 60_000,
        maxOpen: 4,
      });
      stores.set(team, store);
      await store.addSubscription(subscription(team));
      expect(lazyStoresOpen()).toBeLessThanOrEqual(4);
      expect(openFilesUnder(base.dataDir)).toBeLessThanOrEqual(4 * 4);
    }
    // The four used last are the open ones.
    const open = (team: string) => openFilesUnder(join(base.dataDir, 'workspaces', team, '/')) > 0;
    expect(teams(12).filter(open)).toEqual(teams(12).slice(8));
    for (const [team, store] of stores)
      expect((await store.subscriptionsBy(`U${team}`)).map((s) => s.channel)).toEqual([`C${team}`]);
    await Promise.all([...stores.values()].map((s) => s.close()));
    expect(openFilesUnder(base.dataDir)).toBe(0);
  });

  it('never closes a file under a call or a transaction in flight', async () => {
    const base = { dataDir: dataDir() };
    // Closed as soon as idle, and only one open at a time: every call races a close of its own store
    // or of the other one.
    const [a, b] = await Promise.all(
      ['TRACEA', 'TRACEB'].map((team) =>
        openLazyStore(workspaceStoreOptions(base, team), { idleCloseMs: 0, maxOpen: 1 }),
      ),
    );
    if (!a || !b) throw new Error('not opened');
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 100; i++)
      for (const s of [a, b]) {
        calls.push(s.advance([{ ticketId: '1', eventId: `e${i}`, channel: 'C1', payload: { i } }]));
        calls.push(s.claim(`w${i}`, 2, 60_000));
        calls.push(s.outboxOf('1'));
      }
    await Promise.all(calls);
    for (const s of [a, b]) expect(await s.outboxOf('1')).toHaveLength(100);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps this run’s leases when its file is opened again, and refuses calls once closed', async () => {
    const base = { dataDir: dataDir() };
    const store = await openLazyStore(workspaceStoreOptions(base, 'TLEASE'), { idleCloseMs: 50 });
    await store.advance([{ ticketId: '1', eventId: 'e1', channel: 'C1', payload: {} }]);
    const [item] = await store.claim('me', 10, 60_000);
    expect(item?.leaseOwner).toBe('me');
    await sleep(200);
    expect(openFilesUnder(base.dataDir)).toBe(0);
    // Still this run's claim: settled by its owner (a new run's first open would have freed it).
    if (item) expect(await store.settle(item, { status: 'delivered', slackTs: '1.1' })).toBe(true);
    expect((await store.outboxOf('1')).map((i) => i.status)).toEqual(['delivered']);
    await store.close();
    await expect(store.outboxOf('1')).rejects.toThrow('closed');
    expect(openFilesUnder(base.dataDir)).toBe(0);
  });
});
