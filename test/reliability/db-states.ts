// Database states behind a running demo app, on the fault suite's throw-away cluster: the database
// not accepting connections, dropped, recreated empty, a table or a column gone, each followed by a
// restore. While the database cannot serve, every plugin route and /ready must answer 503
// SERVICE_UNAVAILABLE problem+json with Retry-After, never 500; once it is back, 200 with the same
// records as before, without restarting the app. Registered by faults.test.ts, so it runs once per
// `npm test` and only where the cluster could be made.

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { knex as createKnex, Knex } from 'knex';
import pino from 'pino';
import { createApp } from '../../server/app';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { Cluster } from './cluster';
import { rawGet, RawResponse } from './http';
import { expectValidProblem } from '../support/problems';

const DB = 'kqm_states';
/** A copy taken before the app starts: the "backup" a dropped database is restored from. */
const COPY = 'kqm_states_copy';
const USERS = 60;

/** Every collection and relation of the demo app; `posts` and the join table are reached twice. */
const PATHS: readonly string[] = [
  '/api/users?filter[id]=>3&sort[name]=desc&per-page=5',
  '/api/users?expand[posts]=p&p_sort[id]=desc&expand[phone]&limit=5',
  '/api/posts?expand[author]&sort[id]&limit=5',
  '/api/roles?expand[users]=u&u_fields=id,name&u_sort[id]',
];

type LogLine = Record<string, unknown>;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const quiet = (): void => undefined;

/** Creating from a template fails with 55006 while a just-closed session still lingers: retry briefly. */
async function createFromTemplate(cluster: Cluster, name: string, template: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await cluster.sql('postgres', `create database "${name}" template "${template}"`);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== '55006' || attempt >= 50) throw error;
      await sleep(100);
    }
  }
}

/** Creates the demo tables and rows in `database`, as the demo server does on its first start. */
async function seedDemoDatabase(cluster: Cluster, database: string, userCount: number): Promise<void> {
  const loader = createKnex({ client: 'pg', connection: cluster.url(database), pool: { min: 0, max: 1 } });
  try {
    await prepareDemoDatabase(loader, { userCount });
  } finally {
    await loader.destroy();
  }
}

/** Registers the database-state tests; `getCluster` returns the suite's cluster once it runs. */
export function describeDatabaseStates(getCluster: () => Cluster | undefined): void {
  describe('database states behind a running app (demo app: plugin routes and /ready)', function () {
    this.timeout(120000);
    let cluster: Cluster;
    let knex: Knex | undefined;
    let server: Server | undefined;
    let origin = '';
    const lines: LogLine[] = [];
    const baseline = new Map<string, string>();

    before(async function () {
      const found = getCluster();
      if (!found) return this.skip();
      cluster = found;
      await cluster.createDatabase(DB);
      await seedDemoDatabase(cluster, DB, USERS);
      await createFromTemplate(cluster, COPY, DB);
      knex = createKnex({
        client: 'pg',
        connection: { connectionString: cluster.url(DB), statement_timeout: 2000, connectionTimeoutMillis: 2000 },
        pool: { min: 0, max: 4 },
        acquireConnectionTimeout: 2000,
        log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
      });
      const logger = pino({ level: 'info' }, { write: (text: string) => void lines.push(JSON.parse(text) as LogLine) });
      const app = await createApp({ knex, logger, admin: false });
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers every error itself (ctx.onerror): its promise never rejects
      const listening = createServer(app.callback());
      server = listening;
      await new Promise<void>((r) => listening.listen(0, '127.0.0.1', r));
      origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    });

    beforeEach(function () {
      lines.length = 0;
    });

    after(async function () {
      if (server) await new Promise<void>((r) => server?.close(() => r()));
      await knex?.destroy().catch(() => undefined);
    });

    const get = (path: string): Promise<RawResponse> => rawGet(origin, path, { agent: false });

    /** The errors behind the 5xx answers logged since the test began, to name a failure's cause. */
    function causes(): string {
      const errors = lines
        .filter((l) => typeof l.status === 'number' && l.status >= 500)
        .map((l) => JSON.stringify(l.err ?? l).slice(0, 400));
      return [...new Set(errors)].slice(0, 5).join(' | ');
    }

    async function expectUnavailable(what: string, sqlstate: string, paths: readonly string[] = [...PATHS, '/ready']): Promise<void> {
      for (const path of paths) {
        const res = await get(path);
        const label = `${what}: ${path}`;
        expect(res.status, `${label}: ${res.text.slice(0, 300)}; logged: ${causes()}`).to.equal(503);
        expect(expectValidProblem(res, label).code, label).to.equal('SERVICE_UNAVAILABLE');
        expect(res.headers['retry-after'], `${label}: Retry-After`).to.match(/^\d+$/);
        // Decision 30: what the database said is logged, never sent.
        expect(res.text, label).to.not.match(/kqm_|exist|accept|relation|column|55000|3D000|42P01|42703/i);
      }
      // The state under test is the one that was reached, not some other failure on the way.
      expect(JSON.stringify(lines), `${what}: SQLSTATE ${sqlstate} among the logged errors`).to.include(`"code":"${sqlstate}"`);
    }

    /** Polls until every path and /ready answer 200 (only 503 in between), then compares the records. */
    async function expectServingAgain(what: string, paths: readonly string[] = PATHS): Promise<void> {
      const until = Date.now() + 15000;
      for (;;) {
        const answers = await Promise.all([...paths, '/ready'].map(get));
        for (const res of answers) expect([200, 503], `${what}: ${res.text.slice(0, 300)}; logged: ${causes()}`).to.include(res.status);
        if (answers.every((res) => res.status === 200)) {
          paths.forEach((path, i) =>
            expect(answers[i]?.text, `${what}: ${path} gives the records it gave before`).to.equal(baseline.get(path)),
          );
          return;
        }
        if (Date.now() > until) expect.fail(`${what}: still ${answers.map((r) => r.status).join(', ')} after 15 s`);
        await sleep(200);
      }
    }

    it('serves every route and /ready is 200 while the database is up', async function () {
      for (const path of PATHS) {
        const res = await get(path);
        expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
        baseline.set(path, res.text);
      }
      expect((await get('/ready')).status).to.equal(200);
    });

    it('not accepting connections (55000): 503 with Retry-After, /ready 503; 200 once it accepts them again', async function () {
      await cluster.sql('postgres', `alter database ${DB} allow_connections false`);
      try {
        // Sessions already open keep working: end them, as a restart or a failover would.
        await cluster.sql('postgres', `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${DB}'`);
        await expectUnavailable('not accepting connections', '55000');
      } finally {
        await cluster.sql('postgres', `alter database ${DB} allow_connections true`);
      }
      await expectServingAgain('accepting connections again');
    });

    it('dropped (3D000): 503 with Retry-After, /ready 503; 200 once restored from a copy', async function () {
      await cluster.sql('postgres', `drop database ${DB} with (force)`);
      try {
        await expectUnavailable('dropped', '3D000');
      } finally {
        await createFromTemplate(cluster, DB, COPY);
      }
      await expectServingAgain('restored from a copy');
    });

    it('recreated empty, its tables missing (42P01): 503 with Retry-After, /ready 503; 200 once tables and rows are back', async function () {
      await cluster.sql('postgres', `drop database ${DB} with (force)`);
      await cluster.sql('postgres', `create database ${DB}`);
      try {
        await expectUnavailable('recreated empty', '42P01');
      } finally {
        await seedDemoDatabase(cluster, DB, USERS);
      }
      await expectServingAgain('tables and rows restored');
    });

    it('one table gone at run time (42P01): 503 on the routes that read it and /ready; 200 once it is back', async function () {
      await cluster.sql(DB, 'alter table posts rename to posts_moved');
      try {
        await expectUnavailable('posts gone', '42P01', [PATHS[1] as string, PATHS[2] as string, '/ready']);
        // The routes that do not read it keep serving.
        expect((await get(PATHS[3] as string)).status, `${PATHS[3]}: logged: ${causes()}`).to.equal(200);
      } finally {
        await cluster.sql(DB, 'alter table posts_moved rename to posts');
      }
      await expectServingAgain('posts back');
    });

    it('a column gone at run time (42703): 503 with Retry-After on the routes that read it; 200 once it is back', async function () {
      await cluster.sql(DB, 'alter table users rename column email to email_moved');
      try {
        // /ready checks that the tables answer, not every column the catalog read at start-up.
        await expectUnavailable('users.email gone', '42703', [PATHS[0] as string, PATHS[2] as string]);
      } finally {
        await cluster.sql(DB, 'alter table users rename column email_moved to email');
      }
      await expectServingAgain('users.email back');
    });
  });
}
