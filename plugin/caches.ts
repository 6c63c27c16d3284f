// The two things the plugin may keep between requests: what a query string means (its pairs, its
// validated form and its statement text), and, only when the host turns it on, the totals of
// count statements for a few seconds.

/** A bounded map that drops the least recently used entry first. */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}

interface Total {
  readonly value: Promise<number>;
  /** `performance.now()` after which the total is counted again. */
  expires: number;
}

/**
 * Totals of count statements, keyed by their SQL and bindings (which already hold the filters and
 * whatever the scope hook added), kept for `ttlMs`. Requests that need the same total while it is
 * being counted wait for that one statement. A failed count is not kept.
 */
export class TotalsCache {
  private readonly totals: LruMap<string, Total>;

  constructor(private readonly ttlMs: number, maxEntries: number) {
    this.totals = new LruMap(maxEntries);
  }

  /** The total for `key`: kept, being counted, or counted now with `count` (then `counted` is true). */
  get(key: string, count: () => Promise<number>): { readonly total: Promise<number>; readonly counted: boolean } {
    const now = performance.now();
    const kept = this.totals.get(key);
    if (kept !== undefined && now < kept.expires) return { total: kept.value, counted: false };
    const entry: Total = { value: count(), expires: Number.POSITIVE_INFINITY };
    this.totals.set(key, entry);
    // The time to live starts when the count is known, so a slow count is not thrown away at once.
    entry.value.then(
      () => { entry.expires = performance.now() + this.ttlMs; },
      () => { if (this.totals.get(key) === entry) this.totals.delete(key); },
    );
    return { total: entry.value, counted: true };
  }
}
