// Owns the seeded pseudo-random generator behind the demo data, so every seed run produces the
// same rows (Math.random is never used).

/** A deterministic source of random choices. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. Example: `int(0, 6)`. */
  int(min: number, max: number): number;
  /** True with probability `p`. Example: `chance(0.2)`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One key of a weight table, chosen in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

/**
 * Creates a mulberry32 generator (32-bit state, good enough for demo data).
 * Example: `createPrng(42).int(1, 6)` returns the same number on every run.
 */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick: empty list');
      return item;
    },
    weighted: <K extends string>(weights: Readonly<Record<K, number>>): K => {
      const entries = Object.entries(weights) as Array<[K, number]>;
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [key, w] of entries) {
        roll -= w;
        if (roll < 0) return key;
      }
      const last = entries[entries.length - 1];
      if (last === undefined) throw new Error('weighted: empty table');
      return last[0];
    },
  };
}
