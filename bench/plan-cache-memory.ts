// `node dist/bench/plan-cache-memory.js`: what one entry of the plan cache (planCache) holds, and what
// planning costs with and without it. For each kind of query string it sends N distinct ones through
// the pipeline into a cache of N entries, forces a garbage collection, and reads the heap with the
// cache full and again after the cache is dropped: the difference over N is what an entry retains.
// Then the planning time (parse, validate and the statements' text: the pipeline's `parse` metric) of
// a query string that is in the cache (hit) and of one that is not (miss). Runs on an in-memory
// PGlite database with the demo schema (no rows: the statements' results do not matter here).

import os from 'node:os';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createCaches } from '../plugin/middleware';
import { resolveOptions } from '../plugin/options';
import { runPipeline, type PipelineCaches } from '../plugin/pipeline';
import { buildCatalog, type CollectionCatalog } from '../plugin/schema';
import { closeKnex, createKnex } from '../server/db';
import { createSchema } from '../server/demo/schema';
import { Phone, Post, Role, User } from '../server/demo/models';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface QueryKind {
  readonly label: string;
  /** The i-th distinct query string of this kind. */
  readonly make: (i: number) => string;
}

const inList = (i: number) => Array.from({ length: 500 }, (_, k) => i * 1000 + k).join(',');

const KINDS: readonly QueryKind[] = [
  { label: 'short', make: (i) => `filter[id]=${i}&per-page=20` },
  {
    label: 'typical',
    make: (i) =>
      `filter[status]=active&filter[id]=%3E%3D${i}&sort[created_at]=desc&fields=id,name,email` +
      '&expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&per-page=20&page=3',
  },
  { label: 'in[id] with 500 items', make: (i) => `fields=id,name&in[id]=${inList(i)}` },
  {
    label: '50 clauses, ~7 KB',
    make: (i) => Array.from({ length: 50 }, (_, k) => `filter[or+name]=${String(i).padStart(8, '0')}-${k}-${'x'.repeat(110)}`).join('&'),
  },
];

const ENTRIES = 500;

/** A flat copy, as a query string read from a request line is (a template literal builds a rope). */
const flat = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const request = (queryString: string) => ({ queryString, path: 'http://bench.local/api/users', scopeHook: undefined });

/**
 * Heap bytes one entry of `kind` retains, from a cache of ENTRIES entries filled through the pipeline,
 * and the bytes the cache counts for it (its estimate, what `planCache.maxBytes` bounds).
 */
async function bytesPerEntry(
  users: CollectionCatalog,
  options: ReturnType<typeof resolveOptions>,
  kind: QueryKind,
  round: number,
): Promise<{ measured: number; counted: number }> {
  const queries = Array.from({ length: ENTRIES }, (_, i) => flat(kind.make(round * ENTRIES + i)));
  let caches: PipelineCaches | undefined = createCaches(options);
  for (const queryString of queries) await runPipeline(users, options, request(queryString), caches);
  const full = heapAfterGc();
  // Read the cache after measuring, so it is certainly still alive when the full heap is read.
  const kept = caches.plans?.size ?? 0;
  const counted = (caches.plans?.bytes ?? 0) / ENTRIES;
  // eslint-disable-next-line no-useless-assignment -- drops the last reference, so the next heap reading is without the cache
  caches = undefined;
  const empty = heapAfterGc();
  if (kept !== ENTRIES) throw new Error(`the cache kept ${kept} entries, not ${ENTRIES}`);
  return { measured: (full - empty) / ENTRIES, counted };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Median planning time in microseconds of `count` requests: misses (each query string new) or hits. */
async function planningUs(
  users: CollectionCatalog,
  options: ReturnType<typeof resolveOptions>,
  kind: QueryKind,
  hit: boolean,
): Promise<number> {
  const caches = createCaches(options);
  const count = 1200;
  const times: number[] = [];
  const first = flat(kind.make(1_000_000));
  await runPipeline(users, options, request(first), caches);
  for (let i = 0; i < count; i++) {
    const queryString = hit ? first : flat(kind.make(2_000_000 + i));
    const outcome = await runPipeline(users, options, request(queryString), caches);
    times.push(outcome.metrics.parse * 1000);
  }
  return median(times.slice(count / 4));
}

async function main(): Promise<void> {
  const knex = createKnex({}, { pgliteDir: 'memory://' });
  try {
    await createSchema(knex);
    const collections = { users: User, posts: Post, phones: Phone, roles: Role };
    const options = resolveOptions({ knex, collections, planCache: ENTRIES });
    const users = (await buildCatalog(knex, collections)).get('users');
    if (users === undefined) throw new Error('no users collection');
    console.log(
      `plan cache: ${ENTRIES} entries per kind; node ${process.version}; load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      '| query string | its length | bytes per entry (heap) | bytes counted by the cache | planning, hit (µs) | planning, miss (µs) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const kind of KINDS) {
      // Two rounds of distinct strings; the second is reported (the first warms up code and shapes).
      await bytesPerEntry(users, options, kind, 0);
      const { measured, counted } = await bytesPerEntry(users, options, kind, 1);
      const hit = await planningUs(users, options, kind, true);
      const miss = await planningUs(users, options, kind, false);
      const length = kind.make(ENTRIES).length;
      console.log(
        `| ${kind.label} | ${length} | ${Math.round(measured)} | ${Math.round(counted)} | ${hit.toFixed(1)} | ${miss.toFixed(1)} |`,
      );
    }
    console.log(
      `load average after: ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await closeKnex(knex);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
