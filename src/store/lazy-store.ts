import { openDb, type StoreOptions } from './db.js';
import { openStore, type Store, storeOver } from './store.js';

/** How long an embedded workspace store stays open after its last call. */
export const defaultIdleCloseMs = 10_000;
/**
 * At most this many embedded workspace stores open at once (each is about 3.4 open files with its WAL
 * and shared memory): opening one more closes the one used least recently among those with no call
 * in flight. The process then stays well under the default limit of 1,024 open files whatever the
 * number of workspaces; a store with calls in flight is never closed, so this bound may be passed
 * while more workspaces than this are busy at the same moment.
 */
export const defaultMaxOpen = 48;

export interface LazyStoreOptions {
  idleCloseMs?: number;
  maxOpen?: number;
}

/**
 * A workspace's own store. PostgreSQL: the store itself (its connections are the process's shared
 * pool). Embedded: a store that opens its SQLite file on demand and closes it when idle
 * (`openLazyStore`), so the open files grow with the active workspaces, not with the installed ones.
 */
export function openWorkspaceStore(options: StoreOptions, lazy: LazyStoreOptions = {}): Promise<Store> {
  return options.databaseUrl?.startsWith('postgres') ? openStore(options) : openLazyStore(options, lazy);
}

/** The embedded stores open right now, least recently used first (for the bound on open files). */
const openNow = new Set<LazyHandle>();
let maxOpenNow = defaultMaxOpen;

interface LazyHandle {
  inFlight: () => number;
  closeIdle: () => void;
}

/** How many lazily opened embedded stores hold their files open now (tests, the bench). */
export const lazyStoresOpen = () => openNow.size;

/**
 * An embedded store whose file is open only while it is used: the first call opens it, and it is
 * closed `idleCloseMs` after its last call ends, or earlier when `maxOpen` others are open and it is
 * the least recently used. Never while a call (and so a transaction: each is inside one repository
 * call) is in flight. Opened once at once, so a store that cannot open (a folder it may not write)
 * fails here, as `openStore` does; its migrations and the clearing of a dead run's leases happen
 * then, and never again on a reopen (the leases of this run's claims stay theirs).
 */
export async function openLazyStore(options: StoreOptions, lazy: LazyStoreOptions = {}): Promise<Store> {
  const idleCloseMs = lazy.idleCloseMs ?? defaultIdleCloseMs;
  if (lazy.maxOpen !== undefined) maxOpenNow = lazy.maxOpen;
  let inner: Store | undefined = await openStore(options);
  let opening: Promise<Store> | undefined;
  let closing: Promise<void> | undefined;
  let closed = false;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;

  const closeIdle = () => {
    if (inFlight > 0 || !inner || closing) return;
    const s = inner;
    inner = undefined;
    openNow.delete(handle);
    if (timer) clearTimeout(timer);
    timer = undefined;
    closing = s.close().finally(() => {
      closing = undefined;
    });
  };
  const handle: LazyHandle = { inFlight: () => inFlight, closeIdle };

  /** Marks it the most recently used, and closes the least recently used idle ones past the bound. */
  const opened = () => {
    openNow.delete(handle);
    openNow.add(handle);
    for (const other of openNow) {
      if (openNow.size <= maxOpenNow) break;
      if (other !== handle && other.inFlight() === 0) other.closeIdle();
    }
  };

  const reopen = async () =>
    storeOver(
      // A reopen is the same run: its leases are its own claims, kept.
      await openDb({ ...options, keepLeases: true }),
    );

  async function acquire(): Promise<Store> {
    if (closed) throw new Error('the store is closed');
    // Counted before any wait: an idle close that has not begun yet will not begin now.
    inFlight++;
    try {
      while (!inner) {
        if (closing) await closing;
        else {
          opening ??= reopen().finally(() => {
            opening = undefined;
          });
          inner = await opening;
        }
      }
      opened();
      return inner;
    } catch (error) {
      done();
      throw error;
    }
  }

  function done() {
    inFlight--;
    if (inFlight > 0 || !inner) return;
    if (timer) timer.refresh();
    else {
      timer = setTimeout(closeIdle, idleCloseMs);
      // An idle workspace's timer does not keep the process alive.
      timer.unref();
    }
  }

  const use =
    <A extends unknown[], R>(name: string) =>
    async (...args: A): Promise<R> => {
      const s = await acquire();
      try {
        const method = (s as unknown as Record<string, (...a: A) => Promise<R>>)[name] as (
          ...a: A
        ) => Promise<R>;
        return await method(...args);
      } finally {
        done();
      }
    };

  opened();
  inFlight++;
  done();
  const first = inner;
  const store: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(first))
    store[name] = typeof value === 'function' ? use(name) : value;
  store.close = async () => {
    if (closed) return;
    closed = true;
    // Calls in flight finish first (each is short: SQLite waits 5 s at most for its lock).
    while (inFlight > 0 || opening) await new Promise((r) => setTimeout(r, 5));
    if (closing) await closing;
    closeIdle();
    if (closing) await closing;
  };
  return store as unknown as Store;
}
