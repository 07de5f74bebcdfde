/** A small TTL cache for reads that many handlers repeat; entries carry tags that writes invalidate. */
export class TtlCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number; tag: string }>();

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

  invalidate(tags: readonly string[]): void {
    for (const [key, e] of this.entries) if (tags.includes(e.tag)) this.entries.delete(key);
  }
}
