// What the plugin may keep between requests: what a query string means (its compiled statements'
// parts, bounded in bytes), the planner's estimates of `total=estimated` for a few seconds, and, only
// when the host turns it on, the totals of count statements for a few seconds.

/** How much an LruMap keeps: at most `maxEntries` entries and at most `maxBytes` of their weights. */
export interface LruLimits {
  readonly maxEntries?: number;
  readonly maxBytes?: number;
}

/**
 * A bounded map that drops the least recently used entries first: by count, and by the bytes `weigh`
 * gives each entry (worked out once, when it is set). An entry heavier than `maxBytes` is not kept.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private weight = 0;

  /** `new LruMap(500)`: 500 entries; `new LruMap({ maxBytes: 8 << 20 }, weigh)`: 8 MiB of weighed entries. */
  constructor(
    limits: number | LruLimits,
    private readonly weigh: (key: K, value: V) => number = () => 0,
  ) {
    this.maxEntries = typeof limits === 'number' ? limits : (limits.maxEntries ?? Number.POSITIVE_INFINITY);
    this.maxBytes = typeof limits === 'number' ? Number.POSITIVE_INFINITY : (limits.maxBytes ?? Number.POSITIVE_INFINITY);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The summed weight of the entries kept. */
  get bytes(): number {
    return this.weight;
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
    this.delete(key);
    const weight = this.weigh(key, value);
    if (this.maxEntries <= 0 || weight > this.maxBytes) return;
    this.entries.set(key, value);
    this.weight += weight;
    while (this.entries.size > this.maxEntries || this.weight > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    if (!this.entries.has(key)) return;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.weight -= this.weigh(key, value);
  }
}

interface Total<T> {
  readonly value: Promise<T>;
  /** `performance.now()` after which the total is counted again. */
  expires: number;
}

/** What the pipeline asks of a totals cache: a kept value, or one counted now. */
export interface TotalsLookup<T = number> {
  get(key: string, count: () => Promise<T>): { readonly total: Promise<T>; readonly counted: boolean };
}

/**
 * Totals of count statements, keyed by their SQL and bindings (which already hold the filters and
 * whatever the scope hook added), kept for `ttlMs`. Requests that need the same total while it is
 * being counted wait for that one statement. A failed count is not kept. The planner's estimates
 * (`Plan Rows` of an `EXPLAIN`) are kept the same way, under the `EXPLAIN` statement, and a
 * request's facets and stats under their statement (docs/query-language.md, Facets and stats).
 */
export class TotalsCache<T = number> implements TotalsLookup<T> {
  private readonly totals: LruMap<string, Total<T>>;

  constructor(
    private readonly ttlMs: number,
    maxEntries: number,
  ) {
    this.totals = new LruMap(maxEntries);
  }

  /** The total for `key`: kept, being counted, or counted now with `count` (then `counted` is true). */
  get(key: string, count: () => Promise<T>): { readonly total: Promise<T>; readonly counted: boolean } {
    const now = performance.now();
    const kept = this.totals.get(key);
    if (kept !== undefined && now < kept.expires) return { total: kept.value, counted: false };
    const entry: Total<T> = { value: count(), expires: Number.POSITIVE_INFINITY };
    this.totals.set(key, entry);
    // The time to live starts when the count is known, so a slow count is not thrown away at once.
    entry.value.then(
      () => {
        entry.expires = performance.now() + this.ttlMs;
      },
      () => {
        if (this.totals.get(key) === entry) this.totals.delete(key);
      },
    );
    return { total: entry.value, counted: true };
  }

  /**
   * The same cache with `tag` added to every key: with the shared cache on, the versions of the tables
   * read, so a value counted before a write is never given after it (docs/scaling.md).
   */
  tagged(tag: string): TotalsLookup<T> {
    return { get: (key, count) => this.get(`${key}\u0000${tag}`, count) };
  }
}
