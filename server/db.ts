// Owns the demo server's database connection: PostgreSQL when DATABASE_URL is set, otherwise an
// embedded PGlite database kept in <project root>/data/pglite.
import fs from 'node:fs';
import path from 'node:path';
import Knex from 'knex';
import type { Knex as KnexInstance } from 'knex';
import ClientPgLite from 'knex-pglite';
import { PGlite, type Extension } from '@electric-sql/pglite';

/** PGlite's pg_trgm module: an `exports` subpath, which this project's module resolution does not read for types. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: an import would not type-check
const pgTrgm = (): Extension => (require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension }).pg_trgm;

/** The environment variables the database layer reads. */
export interface DatabaseEnv {
  readonly DATABASE_URL?: string | undefined;
  /** Milliseconds a statement may run before PostgreSQL cancels it (the plugin answers 503); default 5000. */
  readonly STATEMENT_TIMEOUT_MS?: string | undefined;
  /** Milliseconds a request waits for a free pooled connection before a 503; default 2000. */
  readonly POOL_TIMEOUT_MS?: string | undefined;
  /** Comma-separated PostgreSQL URLs of read replicas of DATABASE_URL (docs/scaling.md). */
  readonly DATABASE_REPLICA_URLS?: string | undefined;
}

function millis(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text !== undefined && text !== '' && Number.isInteger(n) && n > 0 ? n : fallback;
}

export interface CreateKnexOptions {
  /** PGlite data folder, or 'memory://' for a throw-away in-memory database; default <project root>/data/pglite. */
  readonly pgliteDir?: string;
}

/** Which engine a Knex instance built by `createKnex` talks to. */
export type DatabaseKind = 'postgres' | 'pglite';

/**
 * Finds the project root (the nearest folder holding package.json above this file), so the PGlite
 * folder is the same whether this runs from server/ or dist/server/.
 */
export function findProjectRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/** Tells which engine `createKnex(env)` will use. Example: `{ DATABASE_URL: 'postgres://…' }` → 'postgres'. */
export function databaseKind(env: DatabaseEnv): DatabaseKind {
  return env.DATABASE_URL !== undefined && env.DATABASE_URL !== '' ? 'postgres' : 'pglite';
}

/**
 * Builds the Knex instance for the demo server.
 * Example: `createKnex({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/demo' })` uses pg;
 * `createKnex({})` uses PGlite in `<project root>/data/pglite`; `createKnex({}, { pgliteDir: 'memory://' })` in memory.
 */
function postgresKnex(url: string, env: DatabaseEnv): KnexInstance {
  // A runaway statement is cancelled by the server, and a full pool fails fast: both become 503s.
  return Knex({
    client: 'pg',
    connection: { connectionString: url, statement_timeout: millis(env.STATEMENT_TIMEOUT_MS, 5000), connectionTimeoutMillis: 5000 },
    pool: { min: 0, max: 10 },
    acquireConnectionTimeout: millis(env.POOL_TIMEOUT_MS, 2000),
  });
}

export function createKnex(env: DatabaseEnv, options: CreateKnexOptions = {}): KnexInstance {
  const url = env.DATABASE_URL;
  if (url !== undefined && url !== '') return postgresKnex(url, env);
  const dir = options.pgliteDir ?? path.join(findProjectRoot(), 'data', 'pglite');
  if (!dir.startsWith('memory://')) fs.mkdirSync(dir, { recursive: true });
  // knex-pglite runs a single connection and rejects a pool setting. pg_trgm, a module PGlite must
  // be started with, serves `similar` (docs/query-language.md, "Ranked search: match and similar").
  const pglite = new PGlite(dir, { extensions: { pg_trgm: pgTrgm() } });
  return Knex({ client: ClientPgLite, connection: { pglite } as never });
}

/**
 * One Knex per URL in DATABASE_REPLICA_URLS (none when unset). Replicas copy a PostgreSQL primary,
 * so they need DATABASE_URL. Example: `{DATABASE_URL: 'postgres://p/demo', DATABASE_REPLICA_URLS:
 * 'postgres://r1/demo,postgres://r2/demo'}` -> two instances.
 */
export function createReplicaKnexes(env: DatabaseEnv): KnexInstance[] {
  const urls = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (urls.length === 0) return [];
  if (databaseKind(env) !== 'postgres') throw new Error('DATABASE_REPLICA_URLS needs DATABASE_URL: replicas copy a PostgreSQL primary');
  return urls.map((url) => postgresKnex(url, env));
}

/** Closes every connection of a Knex instance (and shuts PGlite down). Safe to call once per instance. */
export async function closeKnex(knex: KnexInstance): Promise<void> {
  await knex.destroy();
}
