// One attempt at a request with the shared cache on, on the server chosen for it: the versions of its
// tables are read there first (beside the Redis lookup), and the kept answer is served only if it was
// computed at those very versions; otherwise the pipeline runs, after that read, so an answer is only
// ever stamped with versions as old as its data or older, never newer.

import type { Knex } from 'knex';
import type { ResolvedOptions } from '../options';
import { runPipeline, type PipelineCaches, type PipelineOutcome, type PipelineRequest } from '../pipeline';
import type { CollectionCatalog } from '../schema';
import type { SharedCache } from './shared-cache';
import type { CachedAnswer } from './types';

/** A request's answer: kept and still valid, or computed now (with where to keep it, when it may be kept). */
export type Answer =
  | { readonly kind: 'hit'; readonly cached: CachedAnswer }
  | {
      readonly kind: 'computed';
      readonly outcome: PipelineOutcome;
      readonly keep?: { readonly key: string; readonly stamp: string };
    };

export interface CachedRun {
  readonly shared: SharedCache;
  /** The Redis key of this request's answer; undefined: not kept (the versions may still serve kept totals). */
  readonly key: string | undefined;
}

/** `GET /api/users?sort[name]` on `knex`'s server: the kept answer if its tables' versions are unchanged, else the pipeline's. */
export async function runCached(
  run: CachedRun,
  collection: CollectionCatalog,
  options: ResolvedOptions,
  request: PipelineRequest,
  caches: PipelineCaches,
  knex: Knex | undefined,
): Promise<Answer> {
  const { shared, key } = run;
  const found = key === undefined ? undefined : shared.get(key);
  const stamp = await shared.stamp(knex ?? options.knex, collection.name);
  const cached = await found;
  if (stamp !== undefined && cached?.stamp === stamp) return { kind: 'hit', cached };
  const outcome = await runPipeline(
    collection,
    options,
    { ...request, ...(knex === undefined ? {} : { knex }), ...(stamp === undefined ? {} : { dataVersion: stamp }) },
    caches,
  );
  return { kind: 'computed', outcome, ...(key !== undefined && stamp !== undefined ? { keep: { key, stamp } } : {}) };
}
