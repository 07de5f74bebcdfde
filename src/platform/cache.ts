import { nextTurn } from '../util/turns.js';
import type { Priority } from './lane.js';
import { currentLane, inPeoplesTurn } from './lane.js';

interface Entry {
  value: unknown;
  expiresAt: number;
  tag: string;
}

/** A cache entry as kept outside the process (see `TtlCache.kept`, `TtlCache.restore`). */
export interface KeptEntry extends Entry {
  key: string;
}

interface Pending {
  loading: Promise<unknown>;
  tag: string;
  lane: Priority;
}

/**
 * Those who joined a load resume a few per turn of the event loop, not all at once (`nextTurn`). One
 * function for all of them: thousands may join one slow load, and each then waits as a promise and
 * its reaction alone, without a closure of its own.
 */
async function afterATurn<T>(value: T): Promise<T> {
  await nextTurn();
  return value;
}

/**
 * A small TTL cache for reads that many handlers repeat; entries carry tags that writes invalidate.
 *
 * Loads are shared, but never across lanes upwards: a person (the interactive lane) never joins a
 * load that background work started, whose request waits in the background queue behind scans and
 * the budget's window — the person's own load goes first instead. Background work may join any load.
 * With `staleMs`, background work takes an entry up to that long past its TTL at once and refreshes
 * it behind (its caller does not wait for the budget to read a label again); a person always gets a
 * value within its TTL.
 */
export class TtlCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Pending>();
  /** Told whenever an entry is set or dropped (the client keeps the cache across a restart). */
  onChange: (() => void) | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 500,
    private readonly staleMs = 0,
  ) {}

  get(key: string): unknown {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() >= e.expiresAt) return undefined;
    return e.value;
  }

  /** The value even a little past its TTL (within the stale margin), without loading: undefined if none. */
  peek(key: string): unknown {
    const e = this.entries.get(key);
    return e && this.now() < e.expiresAt + this.staleMs ? e.value : undefined;
  }

  set(key: string, tag: string, value: unknown): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs, tag });
    this.onChange?.();
  }

  /** The entries still usable (within their TTL and the stale margin), to keep across a restart. */
  kept(): KeptEntry[] {
    const now = this.now();
    return [...this.entries]
      .filter(([, e]) => now < e.expiresAt + this.staleMs)
      .map(([key, e]) => ({ key, ...e }));
  }

  /**
   * Takes back entries kept by an earlier process (`kept`), with the expiry they had: a restart does
   * not make a read younger. Entries this process already has win.
   */
  restore(entries: readonly KeptEntry[]): void {
    const now = this.now();
    for (const e of entries) {
      if (this.entries.has(e.key) || !(now < e.expiresAt + this.staleMs) || e.expiresAt > now + this.ttlMs)
        continue;
      if (this.entries.size >= this.maxEntries) break;
      this.entries.set(e.key, { value: e.value, expiresAt: e.expiresAt, tag: e.tag });
    }
  }

  /**
   * The cached value, or the one `load` gives; concurrent callers of a missing key share one load
   * (see the class: never a person joining background work), so a burst of requests costs the rate
   * budget one call, not one each.
   */
  getOrLoad<T>(key: string, tag: string, load: () => Promise<T>, lane: Priority = currentLane()): Promise<T> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit as T);
    const people = lane === 'interactive';
    const stale = this.entries.get(key);
    if (!people && stale && this.now() < stale.expiresAt + this.staleMs) {
      if (!this.pending.has(key) && !this.pending.has(`${key}\u0000interactive`))
        this.start(key, tag, load, lane).catch(() => undefined); // refreshed behind; its failure keeps the stale value
      return Promise.resolve(stale.value as T);
    }
    // A person joins only a person's load; background work joins whichever is running.
    const running =
      this.pending.get(`${key}\u0000interactive`) ?? (people ? undefined : this.pending.get(key));
    if (running) return running.loading.then(afterATurn) as Promise<T>;
    return this.start(key, tag, load, lane);
  }

  private start<T>(key: string, tag: string, load: () => Promise<T>, lane: Priority): Promise<T> {
    const slot = lane === 'interactive' ? `${key}\u0000interactive` : key;
    const current = () => this.pending.get(slot)?.loading === loading;
    // People may join a person's load: it is their turn, checked never to wait in a background lane.
    const loading: Promise<T> = (
      lane === 'interactive' ? inPeoplesTurn(`the shared read ${key}`, load) : load()
    )
      .then((value) => {
        if (current()) this.set(key, tag, value);
        return value;
      })
      .finally(() => {
        if (current()) this.pending.delete(slot);
      });
    this.pending.set(slot, { loading, tag, lane });
    return loading;
  }

  /** Drops one entry (and a load of it still running, so it does not store what it read before). */
  delete(key: string): void {
    this.pending.delete(key);
    this.pending.delete(`${key}\u0000interactive`);
    if (this.entries.delete(key)) this.onChange?.();
  }

  invalidate(tags: readonly string[]): void {
    // A load still running for an invalidated tag must not store what it read before the write.
    for (const [key, p] of this.pending) if (tags.includes(p.tag)) this.pending.delete(key);
    for (const [key, e] of this.entries) if (tags.includes(e.tag)) this.entries.delete(key);
    this.onChange?.();
  }
}
