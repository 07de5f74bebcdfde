import { nextTurn } from '../util/turns.js';

/** A small TTL cache for reads that many handlers repeat; entries carry tags that writes invalidate. */
export class TtlCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number; tag: string }>();
  private readonly pending = new Map<string, { loading: Promise<unknown>; tag: string }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 500,
  ) {}

  get(key: string): unknown {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() >= e.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, tag: string, value: unknown): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs, tag });
  }

  /**
   * The cached value, or the one `load` gives; concurrent callers of a missing key share one load, so
   * a burst of requests costs the rate budget one call, not one each.
   */
  getOrLoad<T>(key: string, tag: string, load: () => Promise<T>): Promise<T> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit as T);
    const running = this.pending.get(key);
    // Those who joined a load resume a few per turn of the event loop, not all at once.
    if (running)
      return running.loading.then(async (value) => {
        await nextTurn();
        return value as T;
      });
    const current = () => this.pending.get(key)?.loading === loading;
    const loading: Promise<T> = load()
      .then((value) => {
        if (current()) this.set(key, tag, value);
        return value;
      })
      .finally(() => {
        if (current()) this.pending.delete(key);
      });
    this.pending.set(key, { loading, tag });
    return loading;
  }

  invalidate(tags: readonly string[]): void {
    // A load still running for an invalidated tag must not store what it read before the write.
    for (const [key, p] of this.pending) if (tags.includes(p.tag)) this.pending.delete(key);
    for (const [key, e] of this.entries) if (tags.includes(e.tag)) this.entries.delete(key);
  }
}
