// Faults, on a throw-away PostgreSQL cluster this suite starts and stops itself (initdb in a temp
// folder, random port): the database stopped mid-load (fast 503s, the process stays up), started
// again (answers again without an app restart), a full pool (503 after a bounded wait), a statement
// timeout (503), and SIGTERM to the real server process during load (in-flight requests complete,
// new ones are refused, exit code 0), then the database states of db-states.ts on the same cluster.
// Needs initdb/pg_ctl: REQUIRE_POSTGRES=1 makes their absence a failure, otherwise the suite is
// skipped with the reason.

import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { expect } from 'chai';
import { knex as createKnex, Knex } from 'knex';
import { Client } from 'pg';
import { loadFixture } from '../support/fixture';
import { Cluster, findPostgresBinaries, startCluster } from './cluster';
import { freePort } from '../support/free-port';
import { describeDatabaseStates } from './db-states';
import { closeIdleSockets, rawGet, RawResponse } from './http';
import { expectValidProblem } from '../support/problems';
import { repoRoot } from '../support/repo-root';
import { serve, Served } from './server';

const ACQUIRE_TIMEOUT_MS = 1000;
const STATEMENT_TIMEOUT_MS = 500;
const POOL_MAX = 4;
/** A 503 must come within the pool wait plus the connect timeout plus scheduling slack. */
const FAIL_FAST_MS = ACQUIRE_TIMEOUT_MS + 1000 + 1000;

interface Timed {
  readonly status: number;
  readonly ms: number;
  readonly res?: RawResponse;
  readonly error?: string;
}

async function timed(origin: string, path: string): Promise<Timed> {
  const started = Date.now();
  try {
    const res = await rawGet(origin, path, { agent: false });
    return { status: res.status, ms: Date.now() - started, res };
  } catch (error) {
    return { status: 0, ms: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
  }
}

/** `workers` clients requesting `paths` in turn until `stop()` resolves; every answer is kept. */
async function underLoad(origin: string, paths: readonly string[], workers: number, during: () => Promise<void>): Promise<Timed[]> {
  const results: Timed[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = w; running; i += 1) results.push(await timed(origin, paths[i % paths.length] as string));
  });
  try {
    await during();
  } finally {
    running = false;
    await Promise.all(loops);
  }
  return results;
}

const quiet = (): void => undefined;

/** `DBError: ... [code 57P01] <- error: terminating connection ...` */
function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const e = current as { name?: unknown; message?: unknown; code?: unknown; nativeError?: unknown; cause?: unknown };
    parts.push(`${String(e.name)}: ${String(e.message).slice(-120)}${e.code ? ` [code ${inspect(e.code)}]` : ''}`);
    current = e.nativeError ?? e.cause;
  }
  return parts.join(' <- ');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A timeout for Promise.race that does not keep the process alive once the race is decided. */
const deadline = (ms: number): Promise<'timeout'> => new Promise((r) => setTimeout(() => r('timeout'), ms).unref());

const LOAD_PATHS = [
  '/api/users?filter[id]=>3&sort[name]=desc',
  '/api/users?expand[posts]=p&p_sort[id]=desc&per-page=5',
  '/api/posts?expand[author]',
];

describe('faults on a throw-away PostgreSQL cluster', function () {
  this.timeout(120000);
  let cluster: Cluster | undefined;
  let knex: Knex | undefined;
  let app: Served | undefined;
  let slow = false;
  const logged: string[] = [];
  /** Errors that became 500s, to name the cause in a failure. */
  const unhandled: string[] = [];

  before(async function () {
    const found = findPostgresBinaries();
    if ('missing' in found) {
      if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${found.missing}`);
      console.log(`    skipping the fault tests: ${found.missing}`);
      this.skip();
      return;
    }
    cluster = await startCluster(found.bin);
    await cluster.createDatabase('kqm_faults');
    const loader = createKnex({ client: 'pg', connection: cluster.url('kqm_faults') });
    try {
      await loadFixture(loader);
    } finally {
      await loader.destroy();
    }
    knex = createKnex({
      client: 'pg',
      connection: {
        connectionString: cluster.url('kqm_faults'),
        statement_timeout: STATEMENT_TIMEOUT_MS,
        connectionTimeoutMillis: 1000,
      },
      pool: { min: 0, max: POOL_MAX },
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      // Knex prints every failed connection attempt; the outage tests cause hundreds on purpose.
      log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
    });
    app = await serve(
      knex,
      {
        logger: { error: (message: string, error?: unknown) => logged.push(`${message}: ${String(error)}`) },
        // The test's own slow query, switched on by the statement-timeout test (never client input).
        scope: (_ctx, collection, query) => {
          if (slow && collection === 'users') query.whereRaw('pg_sleep(1) is not null');
        },
      },
      { onError: (error) => unhandled.push(describeError(error)) },
    );
  });

  beforeEach(function () {
    logged.length = 0;
    unhandled.length = 0;
  });

  after(async function () {
    closeIdleSockets();
    await app?.close();
    await knex?.destroy().catch(() => undefined);
    await cluster?.destroy();
  });

  function origin(): string {
    if (!app) throw new Error('setup failed');
    return app.origin;
  }

  function expect503(t: Timed, what: string): void {
    expect(t.status, `${what}: ${t.error ?? t.res?.text.slice(0, 300)}; unhandled errors: ${[...new Set(unhandled)].join(' | ')}`).to.equal(
      503,
    );
    expect(t.ms, `${what}: answered in ${t.ms} ms`).to.be.below(FAIL_FAST_MS);
    if (t.res) {
      const body = expectValidProblem(t.res, what);
      expect(body.code).to.equal('SERVICE_UNAVAILABLE');
      // Decision 30: database details are logged, never sent.
      expect(t.res.text).to.not.match(/ECONNREFUSED|terminat|57P0|pg_sleep|canceling statement/i);
    }
  }

  it('serves requests while the database is up', async function () {
    for (const path of LOAD_PATHS) expect((await timed(origin(), path)).status, path).to.equal(200);
  });

  it('database stopped mid-load: fast 503s, no other status, the process stays up', async function () {
    if (!cluster) throw new Error('setup failed');
    const db = cluster;
    const results = await underLoad(origin(), LOAD_PATHS, 6, async () => {
      await sleep(400);
      await db.stop('fast');
      await sleep(1500);
    });
    const statuses = new Set(results.map((r) => r.status));
    const others = results.filter((r) => r.status !== 200 && r.status !== 503);
    expect(
      [...statuses].filter((s) => s !== 200 && s !== 503),
      `${others.length} of ${results.length} answers; causes: ${[...new Set(unhandled)].join(' | ')}`,
    ).to.deep.equal([]);
    expect(results.filter((r) => r.status === 200).length, 'answers before the stop').to.be.above(0);
    const failed = results.filter((r) => r.status === 503);
    expect(failed.length, 'answers after the stop').to.be.above(0);
    for (const r of failed) expect503(r, 'during the outage');
    // After the outage began: every request is a fast 503, and the app itself still answers.
    for (const path of LOAD_PATHS) expect503(await timed(origin(), path), `${path} while down`);
    expect(logged.length, 'the database errors were logged').to.be.above(0);
  });

  it('database started again: requests succeed without restarting the app', async function () {
    if (!cluster) throw new Error('setup failed');
    await cluster.start();
    const deadline = Date.now() + 15000;
    let last: Timed | undefined;
    while (Date.now() < deadline) {
      last = await timed(origin(), LOAD_PATHS[0] as string);
      if (last.status === 200) break;
      expect(last.status, 'while reconnecting').to.equal(503);
      await sleep(200);
    }
    expect(last?.status, 'recovered within 15 s').to.equal(200);
    const results = await underLoad(origin(), LOAD_PATHS, 6, () => sleep(1000));
    expect(
      results.every((r) => r.status === 200),
      JSON.stringify(results.find((r) => r.status !== 200)),
    ).to.equal(true);
  });

  it('a full pool gives 503 after a bounded wait, then serves again', async function () {
    if (!knex) throw new Error('setup failed');
    const pool = knex;
    // Hold every pooled connection in a transaction that sleeps beyond the statement timeout.
    const holders = Array.from({ length: POOL_MAX }, () =>
      pool.transaction(async (trx) => {
        await trx.raw('set local statement_timeout = 0');
        await trx.raw('select pg_sleep(2.5)');
      }),
    );
    await sleep(300);
    const waited = await timed(origin(), LOAD_PATHS[0] as string);
    expect503(waited, 'pool exhausted');
    expect(waited.ms, 'waited for the pool before giving up').to.be.at.least(ACQUIRE_TIMEOUT_MS - 100);
    await Promise.all(holders);
    expect((await timed(origin(), LOAD_PATHS[0] as string)).status, 'after the pool drained').to.equal(200);
  });

  it('a statement timeout gives 503', async function () {
    slow = true;
    try {
      const t = await timed(origin(), '/api/users?filter[id]=1');
      expect503(t, 'statement timeout');
      expect(t.ms, 'cut by statement_timeout, not after the 1 s sleep per row').to.be.below(1000 + 500);
    } finally {
      slow = false;
    }
    expect((await timed(origin(), '/api/users?filter[id]=1')).status, 'afterwards').to.equal(200);
  });

  describe('SIGTERM to the demo server during load', function () {
    let server: ChildProcess | undefined;
    let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
    let output = '';

    after(function () {
      if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    });

    it('completes in-flight requests, refuses new ones, closes the pool and exits with 0', async function () {
      if (!cluster) throw new Error('setup failed');
      await cluster.createDatabase('kqm_sigterm');
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, [join(repoRoot, 'dist', 'server', 'main.js')], {
        env: { ...process.env, DATABASE_URL: cluster.url('kqm_sigterm'), PORT: String(port), LOG_LEVEL: 'warn', API_TOKEN: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const child = server;
      child.stdout?.on('data', (d: Buffer) => {
        output += d.toString();
      });
      child.stderr?.on('data', (d: Buffer) => {
        output += d.toString();
      });
      exit = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));

      // Wait until it has seeded its database and listens.
      const ready = Date.now() + 90000;
      for (;;) {
        const t = await timed(base, '/api/users?limit=1');
        if (t.status === 200) break;
        if (child.exitCode !== null || Date.now() > ready) expect.fail(`the server did not start: ${output.slice(-2000)}`);
        await sleep(250);
      }

      // The query's cost is asked once, before the lock: each request below then sends its own statement.
      expect((await timed(base, '/api/users?limit=5&sort[id]=desc')).status).to.equal(200);
      // Block every query on a table lock, so requests are provably in flight when SIGTERM arrives.
      const locker = new Client({ connectionString: cluster.url('kqm_sigterm') });
      // pg_stat_activity is a snapshot per transaction, so the waits are watched from another session.
      const watcher = new Client({ connectionString: cluster.url('kqm_sigterm') });
      await locker.connect();
      await watcher.connect();
      try {
        await locker.query('begin');
        await locker.query('lock table users in access exclusive mode');
        const inFlight = Array.from({ length: 6 }, () => timed(base, '/api/users?limit=5&sort[id]=desc'));
        const waiting = Date.now() + 10000;
        for (;;) {
          const r = await watcher.query(
            "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
          );
          if ((r.rows[0] as { n: number }).n >= 6) break;
          if (Date.now() > waiting) expect.fail('the requests never reached the database');
          await sleep(50);
        }
        child.kill('SIGTERM');
        await sleep(300);
        const refused = await timed(base, '/api/users?limit=1');
        expect(refused.status, `a new request after SIGTERM: ${JSON.stringify(refused)}`).to.equal(0);
        expect(refused.error).to.match(/ECONNREFUSED|ECONNRESET|socket hang up/);
        await locker.query('rollback');
        const done = await Promise.all(inFlight);
        expect(
          done.map((t) => t.status),
          JSON.stringify(done.map((t) => t.error ?? t.res?.text.slice(0, 100))),
        ).to.deep.equal([200, 200, 200, 200, 200, 200]);
        for (const t of done) expect((t.res?.body as unknown[]).length).to.equal(5);
      } finally {
        await locker.end().catch(() => undefined);
        await watcher.end().catch(() => undefined);
      }
      const raced = await Promise.race([exit, deadline(15000)]);
      const exited = raced === 'timeout' ? undefined : raced;
      expect(exited, `exit within 15 s; output: ${output.slice(-1000)}`).to.not.equal(undefined);
      expect(exited, output.slice(-1000)).to.deep.equal({ code: 0, signal: null });
      // The pool was closed: no session of the server is left on the database.
      const probe = new Client({ connectionString: cluster.url('postgres') });
      await probe.connect();
      try {
        const r = await probe.query("select count(*)::int as n from pg_stat_activity where datname = 'kqm_sigterm'");
        expect((r.rows[0] as { n: number }).n, 'server sessions left').to.equal(0);
      } finally {
        await probe.end();
      }
    });
  });

  describeDatabaseStates(() => cluster);
});
