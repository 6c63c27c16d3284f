// Builds the Koa app under test (the plugin's router on the fixture's collections), serves it on an
// ephemeral port so page URLs have a known origin, and registers the mocha hooks a suite needs.

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Knex } from 'knex';
import supertest from 'supertest';
import { expect } from 'chai';
import { queryModifiers, QueryModifiersOptions } from '../../plugin';
import { createTestDatabase, TestDatabase, TestDatabaseOptions } from './db';
import { collections } from './fixture';

export type AppOptions = Partial<QueryModifiersOptions>;

export type Row = Record<string, unknown>;

export interface TestApp {
  /** `http://127.0.0.1:<port>`: the origin page URLs must start with. */
  readonly origin: string;
  close(): Promise<void>;
}

/** The `cursorSecret` of every app startApp starts (unless a test gives its own), so tests can seal cursors (cursor-walk.ts). */
export const TEST_CURSOR_SECRET = 'the test apps seal their cursors with this secret';

/** Starts the plugin on `knex` with the fixture's collections (overridable) and any other options. */
export async function startApp(knex: Knex, options: AppOptions = {}): Promise<TestApp> {
  const router = await queryModifiers({ knex, collections, cursorSecret: TEST_CURSOR_SECRET, ...options });
  const app = new Koa();
  app.use(router.routes()).use(router.allowedMethods());
  return listen(app);
}

/** Serves any Koa app (errors not printed) on an ephemeral port of 127.0.0.1. */
export async function listen(app: Koa): Promise<TestApp> {
  app.silent = true;
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers every error itself (ctx.onerror): its promise never rejects
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** Turns a response that is not 200 into a failure that shows what came back. */
export function expectOk(res: supertest.Response, path = ''): void {
  if (res.status !== 200) {
    expect.fail(`expected 200 for ${path}, got ${res.status}: ${res.text.slice(0, 1000)}`);
  }
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The response body as an array of records (fails when it is anything else). */
export function rowsOf(res: supertest.Response): Row[] {
  const body: unknown = res.body;
  if (!Array.isArray(body) || !body.every(isRow)) {
    return expect.fail(`expected a JSON array of records, got: ${res.text}`);
  }
  return body;
}

/** The response body as one object (an envelope or a problem). */
export function objectOf(res: supertest.Response): Row {
  const body: unknown = res.body;
  if (!isRow(body)) return expect.fail(`expected a JSON object, got: ${res.text}`);
  return body;
}

export function asRow(value: unknown): Row {
  if (!isRow(value)) return expect.fail(`expected an object, got ${JSON.stringify(value)}`);
  return value;
}

export function asRows(value: unknown): Row[] {
  if (!Array.isArray(value) || !value.every(isRow)) {
    return expect.fail(`expected an array of objects, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A suite's app and database; usable inside `it` once the suite's `before` hook has run. */
export class Harness {
  private database?: TestDatabase;
  private server?: TestApp;

  constructor(
    private readonly options: () => AppOptions,
    private readonly dbOptions: TestDatabaseOptions,
  ) {}

  get db(): TestDatabase {
    if (!this.database) throw new Error('the suite database is not ready (before hook failed?)');
    return this.database;
  }

  get origin(): string {
    if (!this.server) throw new Error('the suite app is not ready (before hook failed?)');
    return this.server.origin;
  }

  async setUp(): Promise<void> {
    this.database = await createTestDatabase(this.dbOptions);
    this.server = await startApp(this.database.knex, this.options());
  }

  async tearDown(): Promise<void> {
    await this.server?.close();
    await this.database?.destroy();
  }

  /** A supertest request for `path` (which includes `/api/...` and the query string as sent). */
  get(path: string): supertest.Test {
    return supertest(this.origin).get(path);
  }

  /** GET the path; expects 200 and a bare array; returns the records. */
  async rows(path: string): Promise<Row[]> {
    const res = await this.get(path);
    expectOk(res, path);
    return rowsOf(res);
  }

  /** GET `/api/users?<query>`; expects 200 and a bare array; returns the ids in response order. */
  async userIds(query: string): Promise<number[]> {
    return idsOf(await this.rows(`/api/users?${query}`));
  }
}

export function idsOf(rows: readonly Row[]): number[] {
  return rows.map((row) => {
    if (typeof row.id !== 'number') return expect.fail(`record without a numeric id: ${JSON.stringify(row)}`);
    return row.id;
  });
}

/** parent id -> ids of the related records under `relation`, for every parent (empty lists included). */
export function relatedIds(rows: readonly Row[], relation: string): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  for (const row of rows) {
    const related = row[relation];
    expect(related, `record ${String(row.id)}.${relation}`).to.be.an('array');
    out[Number(row.id)] = idsOf(asRows(related));
  }
  return out;
}

/**
 * Registers before/after hooks on the current describe block that create a fresh database with the
 * fixture and start the app; `options` is a function so it can close over per-suite state.
 */
export function useApp(options: AppOptions | (() => AppOptions) = {}, dbOptions: TestDatabaseOptions = {}): Harness {
  const harness = new Harness(typeof options === 'function' ? options : () => options, dbOptions);
  before(async function setUpSuite() {
    this.timeout(120000);
    await harness.setUp();
  });
  after(async function tearDownSuite() {
    this.timeout(60000);
    await harness.tearDown();
  });
  return harness;
}

/** Every integer from `from` to `to` inclusive. */
export function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i += 1) out.push(i);
  return out;
}

/** Every id of the fixture's users except the given ones, ascending. */
export function allUsersExcept(...excluded: number[]): number[] {
  return range(1, 23).filter((id) => !excluded.includes(id));
}
