// Tables with the column types of docs/query-language.md, "Enums, arrays and JSON", for the HTTP suites of column-types and
// column-edges: `tasks` (an enum, arrays, jsonb; the example table of docs/query-language.md) and
// `gadgets` (json, point, real, an enum outside the search path, arrays of timestamps, bigints,
// numerics, enums and a domain).

import type { Knex } from 'knex';
import { Model } from 'objection';
import supertest from 'supertest';
import { expectOk, idsOf, rowsOf, startApp, type AppOptions, type Row, type TestApp } from './app';
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './db';

/** Declared order differs from alphabetical order on purpose: sad < ok < happy. */
export const MOOD_LABELS = ['sad', 'ok', 'happy'] as const;

export const TASKS_SQL: readonly string[] = [
  `create type mood as enum ('sad', 'ok', 'happy')`,
  `create table tasks (
     id integer primary key,
     title text not null,
     mood mood,
     tags text[],
     points integer[],
     meta jsonb
   )`,
  `insert into tasks (id, title, mood, tags, points, meta) values
     (1, 'Write docs', 'happy', '{docs,writing}', '{1,2,3}', '{"owner": "ann", "done": true}'),
     (2, 'Fix login', 'sad', '{code}', '{5}', '{"owner": "bob"}'),
     (3, 'Review', 'ok', '{}', '{}', '[1, 2]'),
     (4, 'Plan', null, null, null, null),
     (5, 'Ship', 'happy', '{code,"release, final"}', '{2,NULL}', '"done"')`,
];

export const GADGETS_SQL: readonly string[] = [
  `create schema extra`,
  `create type extra.tier as enum ('gold', 'bronze', 'silver')`,
  `create domain posint as integer check (value > 0)`,
  `create table gadgets (
     id integer primary key,
     label json,
     spot point,
     ratio real,
     precise double precision,
     amount numeric(6,2),
     tier extra.tier,
     tiers extra.tier[],
     stamps timestamptz[],
     bigs bigint[],
     amounts numeric[],
     sizes posint[]
   )`,
  `insert into gadgets values
     (1, '{"a": 1}', '(1,2)', 0.5, 1.25, 12.50, 'gold', '{gold,silver}',
      '{"2025-04-17 01:19:49.123456+00","2025-04-18 00:00:00.5+00"}', '{9007199254740993,1}', '{1.50,2}', '{1,2}'),
     (2, '[1, 2]', '(0,0)', -2, 0, 0, 'silver', '{bronze}', '{}', '{}', '{}', '{3}'),
     (3, null, null, null, null, null, null, null, null, null, null, null)`,
];

export class Task extends Model {
  static override tableName = 'tasks';
}

export class Gadget extends Model {
  static override tableName = 'gadgets';
}

/** Creates the tables of `statements` in order. */
export async function createTables(knex: Knex, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await knex.raw(statement);
}

export interface TypedApp {
  /** A supertest request for `path` (which includes `/api/...`). */
  get(path: string): supertest.Test;
  /** GET the path; expects 200 and a bare array; returns the records. */
  rows(path: string): Promise<Row[]>;
  /** GET `/api/<collection>?fields=id&<query>`; expects 200; returns the ids in response order. */
  ids(collection: string, query: string): Promise<number[]>;
}

/** Registers hooks that create a database holding only `statements` and start the app on `collections`. */
export function useTypedApp(
  statements: readonly string[],
  collections: Record<string, typeof Model>,
  options: AppOptions = {},
  dbOptions: TestDatabaseOptions = {},
): TypedApp {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ ...dbOptions, empty: true });
    await createTables(db.knex, statements);
    app = await startApp(db.knex, { collections, ...options });
  });
  after(async function () {
    this.timeout(60000);
    await app?.close();
    await db?.destroy();
  });
  const get = (path: string): supertest.Test => {
    if (app === undefined) throw new Error('the suite app is not ready (before hook failed?)');
    return supertest(app.origin).get(path);
  };
  const rows = async (path: string): Promise<Row[]> => {
    const res = await get(path);
    expectOk(res, path);
    return rowsOf(res);
  };
  return { get, rows, ids: async (collection, query) => idsOf(await rows(`/api/${collection}?fields=id&${query}`)) };
}
