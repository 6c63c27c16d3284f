// Read replicas on a real primary with two streaming replicas this suite makes itself (initdb,
// pg_basebackup -R, pg_ctl on random loopback ports): requests are spread over the replicas, one
// request's statements all go to one server, a replica whose replay is paused falls out of rotation
// and comes back, the read-your-writes hook sends a request to a server that has its write, a
// replica stopped under load costs no error, one that hangs (SIGSTOP) costs a request at most
// replicas.queryTimeoutMs, and after the primary is stopped and a replica
// promoted the API keeps answering. All of it twice: connected straight to the servers, and through
// PgBouncer in transaction pooling mode. Needs initdb/pg_ctl/pg_basebackup (and pgbouncer):
// REQUIRE_POSTGRES=1 makes their absence a failure, otherwise the suite is skipped with the reason.

import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { knex as createKnex, Knex } from 'knex';
import { Client } from 'pg';
import type { QueryModifiersOptions, RequestReport } from '../../plugin';
import { loadFixture } from '../support/fixture';
import { Cluster, findPostgresBinaries, startCluster, startReplica } from './cluster';
import { Bouncer, findPgBouncer, startPgBouncer } from './pgbouncer';
import { closeIdleSockets, rawGet, RawResponse } from './http';
import { serve, Served } from './server';

const quiet = (): void => undefined;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function connect(url: string): Knex {
  return createKnex({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 1000 },
    pool: { min: 0, max: 4 },
    acquireConnectionTimeout: 2000,
    log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
  });
}

async function scalar(url: string, sql: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>(`select (${sql})::text as v`);
    return rows[0]?.v ?? '';
  } finally {
    await client.end();
  }
}

/** The server a response names in Server-Timing (`db;desc="replica-1"`). */
function servedBy(res: RawResponse): string {
  const match = /db;desc="([^"]+)"/.exec(String(res.headers['server-timing'] ?? ''));
  return match?.[1] ?? '(none)';
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 15000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** The processes whose parent is `pid`, read from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid ...`: comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

/**
 * Freezes a cluster as a hung host would: SIGSTOP to its postmaster (first line of postmaster.pid),
 * so it accepts no new session, then to every backend and auxiliary process it forked. Returns the
 * processes to thaw with SIGCONT.
 */
function freeze(cluster: Cluster): number[] {
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(postmaster, 'SIGSTOP');
  const stopped = [postmaster, ...childrenOf(postmaster)];
  for (const pid of stopped.slice(1)) process.kill(pid, 'SIGSTOP');
  return stopped;
}

function thaw(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // A backend that was ended meanwhile has nothing to resume.
    }
  }
}

for (const via of ['direct connections', 'PgBouncer (transaction pooling)'] as const) {
  describe(`read replicas on a real primary with two streaming replicas, through ${via}`, function () {
    this.timeout(120000);
    let primary: Cluster | undefined;
    let bouncer: Bouncer | undefined;
    const replicas: Cluster[] = [];
    const knexes: Knex[] = [];
    const served: Served[] = [];
    const logged: string[] = [];
    /** Each line with its level: a replica leaving rotation is a warning, coming back is news, neither an error. */
    const logger = {
      error: (message: string) => logged.push(`error: ${message}`),
      warn: (message: string) => logged.push(`warn: ${message}`),
      info: (message: string) => logged.push(`info: ${message}`),
    };
    let nextRole = 100;

    before(async function () {
      const found = findPostgresBinaries();
      const pgbouncer = via === 'direct connections' ? { path: '' } : findPgBouncer();
      const missing = 'missing' in found ? found.missing : 'missing' in pgbouncer ? pgbouncer.missing : undefined;
      if (missing !== undefined || 'missing' in found || 'missing' in pgbouncer) {
        if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${missing}`);
        console.log(`    skipping the replica tests: ${missing}`);
        this.skip();
        return;
      }
      primary = await startCluster(found.bin);
      await primary.createDatabase('kqm_replicas');
      const loader = connect(primary.url('kqm_replicas'));
      try {
        await loadFixture(loader);
      } finally {
        await loader.destroy();
      }
      replicas.push(await startReplica(found.bin, primary), await startReplica(found.bin, primary));
      if (pgbouncer.path !== '') {
        const [r1, r2] = replicas as [Cluster, Cluster];
        bouncer = await startPgBouncer(pgbouncer.path, { primary: primary.port, r1: r1.port, r2: r2.port }, 'kqm_replicas');
      }
    });

    after(async function () {
      closeIdleSockets();
      for (const app of served) await app.close();
      for (const knex of knexes) await knex.destroy().catch(() => undefined);
      await bouncer?.stop();
      for (const replica of replicas) await replica.destroy();
      await primary?.destroy();
    });

    function db(): { primary: Cluster; r1: Cluster; r2: Cluster } {
      const [r1, r2] = replicas;
      if (!primary || !r1 || !r2) throw new Error('setup failed');
      return { primary, r1, r2 };
    }

    /** A Knex per server (primary, replica-1, replica-2), each counting the statements it runs. */
    function servers(): { knex: Knex; replicas: Knex[]; statements: Map<string, number> } {
      const { primary: p, r1, r2 } = db();
      const statements = new Map<string, number>();
      const made = (
        [
          ['primary', p, 'primary'],
          ['replica-1', r1, 'r1'],
          ['replica-2', r2, 'r2'],
        ] as const
      ).map(([name, cluster, entry]) => {
        const knex = connect(bouncer === undefined ? cluster.url('kqm_replicas') : bouncer.url(entry));
        knex.on('query', () => statements.set(name, (statements.get(name) ?? 0) + 1));
        knexes.push(knex);
        return knex;
      });
      return { knex: made[0] as Knex, replicas: made.slice(1), statements };
    }

    async function app(replicaSettings: Omit<Extract<QueryModifiersOptions['replicas'], { servers: unknown }>, 'servers'>): Promise<{
      served: Served;
      statements: Map<string, number>;
      reports: (RequestReport | undefined)[];
      get: (path: string, headers?: Record<string, string>) => Promise<RawResponse>;
    }> {
      const { knex, replicas: replicaKnexes, statements } = servers();
      const reports: (RequestReport | undefined)[] = [];
      const started = await serve(
        knex,
        {
          replicas: { servers: replicaKnexes, revealServer: true, ...replicaSettings },
          serverTiming: true,
          logger,
        },
        { onReport: (report) => reports.push(report === undefined ? undefined : { ...report }) },
      );
      served.push(started);
      const get = (path: string, headers?: Record<string, string>) => rawGet(started.origin, path, { headers });
      return { served: started, statements, reports, get };
    }

    /** Inserts a role on the primary and returns its name and the primary's WAL position after it. */
    async function write(): Promise<{ name: string; position: string }> {
      const { primary: p } = db();
      nextRole += 1;
      const name = `written-${nextRole}`;
      await p.sql('kqm_replicas', `insert into roles (id, name, level) values (${nextRole}, '${name}', 1)`);
      return { name, position: await scalar(p.url('kqm_replicas'), 'pg_current_wal_lsn()') };
    }

    async function caughtUp(replica: Cluster, position: string): Promise<boolean> {
      return (await scalar(replica.url('kqm_replicas'), `pg_last_wal_replay_lsn() >= '${position}'::pg_lsn`)) === 'true';
    }

    it('spreads requests over the replicas once they are checked, and answers as the primary would', async function () {
      const { get } = await app({ checkIntervalMs: 100 });
      const first = await get('/api/users?sort[id]=asc&fields=id,name');
      expect(first.status).to.equal(200);
      await waitFor('both replicas take requests', async () => {
        const names = new Set<string>();
        for (let i = 0; i < 6; i += 1) names.add(servedBy(await get('/api/users?sort[id]=asc&fields=id,name')));
        return names.has('replica-1') && names.has('replica-2') && !names.has('primary');
      });
      const fromReplica = await get('/api/users?sort[id]=asc&fields=id,name');
      expect(servedBy(fromReplica)).to.match(/^replica-/);
      expect(fromReplica.body).to.deep.equal(first.body);
    });

    it('sends every statement of one request (rows, expansion, count) to the same server', async function () {
      const { get, statements } = await app({ checkIntervalMs: 100 });
      await waitFor('a replica answers', async () => servedBy(await get('/api/roles?per-page=1')).startsWith('replica-'));
      await sleep(250); // let a check round finish so only the request's statements are counted
      for (let i = 0; i < 4; i += 1) {
        const before = new Map(statements);
        const res = await get('/api/users?expand[posts]=p&p_limit=5&per-page=2&sort[id]=asc');
        const ranOn = [...statements].filter(([name, n]) => n - (before.get(name) ?? 0) >= 3).map(([name]) => name);
        expect(res.status).to.equal(200);
        // 3 statements: the page, the posts of its users, the count; a check round adds at most 1 per server.
        expect(ranOn, `statements per server ${JSON.stringify([...statements])}`).to.deep.equal([servedBy(res)]);
      }
    });

    it('sends every totals statement (capped count, estimate) to the server of the request, and total=none counts nowhere', async function () {
      const { knex, replicas: replicaKnexes, statements } = servers();
      const started = await serve(knex, {
        replicas: { servers: replicaKnexes, revealServer: true, checkIntervalMs: 100 },
        serverTiming: true,
        // The planner's estimate asked on every request, not kept.
        pagination: { estimateAbove: 1, estimateTtlSeconds: 0 },
        logger,
      });
      served.push(started);
      const get = (path: string) => rawGet(started.origin, path);
      await waitFor('a replica answers', async () => servedBy(await get('/api/roles?per-page=1')).startsWith('replica-'));
      await sleep(250);
      // Each query once first: its first request also asks the planner's cost of its statements (once
      // per compiled query, for the heavy lane), which is not what is counted here.
      for (const query of ['total=estimated', 'total=none'])
        await get(`/api/users?expand[posts]=p&p_limit=5&per-page=2&sort[id]=asc&${query}`);
      // [query, statements it runs]: the page, the posts of its users, then the capped count and the EXPLAIN; or none.
      for (const [query, ran] of [
        ['total=estimated', 4],
        ['total=none', 2],
      ] as const) {
        for (let i = 0; i < 3; i += 1) {
          const before = new Map(statements);
          const res = await get(`/api/users?expand[posts]=p&p_limit=5&per-page=2&sort[id]=asc&${query}`);
          expect(res.status).to.equal(200);
          const body = res.body as Record<string, unknown>;
          expect('total_is_estimate' in body, query).to.equal(query === 'total=estimated');
          const grown = [...statements].map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const);
          // A check round adds at most 1 per server.
          expect(
            grown.filter(([, n]) => n >= ran).map(([name]) => name),
            `${query}: ${JSON.stringify(grown)}`,
          ).to.deep.equal([servedBy(res)]);
          expect(grown.find(([name]) => name === servedBy(res))?.[1], query).to.be.within(ran, ran + 1);
        }
      }
    });

    it('takes a replica whose replay is paused out of rotation, and back once it catches up', async function () {
      const { r1 } = db();
      const { get, served: started } = await app({ checkIntervalMs: 100, maxLagMs: 400 });
      await waitFor('replica-1 takes requests', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-1');
      await r1.sql('kqm_replicas', 'select pg_wal_replay_pause()');
      try {
        const { name } = await write();
        await sleep(1000);
        // What a host's readiness probe would show (JSON-ready: the position as PostgreSQL prints it).
        const states = JSON.parse(JSON.stringify(started.router.replicas())) as {
          name: string;
          state: string;
          lagMs: number;
          position: string;
        }[];
        expect(states.map((s) => [s.name, s.state])).to.deep.equal([
          ['replica-1', 'lagging'],
          ['replica-2', 'up'],
        ]);
        expect(states[0]?.lagMs).to.be.above(400);
        expect(states[1]?.position).to.match(/^[0-9A-F]+\/[0-9A-F]+$/);
        const answers: RawResponse[] = [];
        for (let i = 0; i < 8; i += 1) answers.push(await get(`/api/roles?filter[name]=${name}&per-page=10`));
        expect(answers.map(servedBy)).to.not.include('replica-1');
        // Whoever answers has the write: replica-2 replays it at once, the primary wrote it.
        for (const res of answers) expect((res.body as { total: number }).total, servedBy(res)).to.equal(1);
      } finally {
        await r1.sql('kqm_replicas', 'select pg_wal_replay_resume()');
      }
      await waitFor('replica-1 is back', async () => {
        const names = new Set<string>();
        for (let i = 0; i < 4; i += 1) names.add(servedBy(await get('/api/roles?per-page=1')));
        return names.has('replica-1');
      });
      expect(
        logged.some((line) => /^warn: koa-query-modifiers: replica replica-1 is \d+ ms behind/.test(line)),
        logged.join('\n'),
      ).to.equal(true);
      await waitFor('the recovery is logged', () =>
        Promise.resolve(logged.includes('info: koa-query-modifiers: replica replica-1 is serving again')),
      );
      expect(logged.filter((line) => line.startsWith('error: ') && line.includes('replica-1'))).to.deep.equal([]);
    });

    it("reads a client's own write: readAfter sends it to a server that has replayed the position, else the primary", async function () {
      const { r1, r2 } = db();
      const { get } = await app({
        checkIntervalMs: 100,
        maxLagMs: 60000,
        readAfter: (ctx) => ctx.get('X-Wal-Position'),
      });
      await waitFor('replicas take requests', async () => servedBy(await get('/api/roles?per-page=1')).startsWith('replica-'));
      await r1.sql('kqm_replicas', 'select pg_wal_replay_pause()');
      await r2.sql('kqm_replicas', 'select pg_wal_replay_pause()');
      try {
        const { name, position } = await write();
        await sleep(300);
        // Without the hook's position the replicas (within the generous lag) answer without the write.
        const stale = await get(`/api/roles?filter[name]=${name}&per-page=10`);
        expect(servedBy(stale)).to.match(/^replica-/);
        expect((stale.body as { total: number }).total).to.equal(0);
        // With it, only a server that has the write may answer: here only the primary.
        const own = await get(`/api/roles?filter[name]=${name}&per-page=10`, { 'X-Wal-Position': position });
        expect(servedBy(own)).to.equal('primary');
        expect((own.body as { total: number }).total).to.equal(1);
        // A position that is not one (a tampered cookie) is the safe choice: the primary.
        const garbled = await get(`/api/roles?filter[name]=${name}&per-page=10`, { 'X-Wal-Position': 'not-a-position' });
        expect(garbled.status).to.equal(200);
        expect(servedBy(garbled)).to.equal('primary');
        await r2.sql('kqm_replicas', 'select pg_wal_replay_resume()');
        await waitFor('replica-2 replays the write', () => caughtUp(r2, position));
        await waitFor('replica-2 answers the reader of its own write', async () => {
          const res = await get(`/api/roles?filter[name]=${name}&per-page=10`, { 'X-Wal-Position': position });
          return servedBy(res) === 'replica-2' && (res.body as { total: number }).total === 1;
        });
      } finally {
        await r1.sql('kqm_replicas', 'select pg_wal_replay_resume()').catch(() => undefined);
        await r2.sql('kqm_replicas', 'select pg_wal_replay_resume()').catch(() => undefined);
      }
    });

    it('a replica that fails during a request: the request is answered by another server, without error', async function () {
      const { r1 } = db();
      // Checked once at start, then not for a minute: the set still believes replica-1 is up when it stops.
      const { get, reports } = await app({ checkIntervalMs: 60000 });
      await waitFor('replica-1 takes requests', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-1');
      await r1.stop('immediate');
      try {
        const answers: RawResponse[] = [];
        reports.length = 0;
        for (let i = 0; i < 6; i += 1) answers.push(await get('/api/users?expand[posts]=p&per-page=3'));
        expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
        expect(answers.map(servedBy)).to.not.include('replica-1');
        // What the host's access log gets: the one request sent to replica-1 was retried elsewhere.
        const retried = reports.filter((r) => r?.retriedFrom !== undefined);
        expect(retried.map((r) => [r?.collection, r?.retriedFrom])).to.deep.equal([['users', 'replica-1']]);
        expect(retried[0]?.server).to.be.oneOf(['replica-2', 'primary']);
        expect(logged.some((line) => /replica-1 is down/.test(line))).to.equal(true);
      } finally {
        await r1.start();
      }
    });

    it('a replica that hangs (SIGSTOP): each request costs at most queryTimeoutMs, then another server answers', async function () {
      const { r1 } = db();
      const queryTimeoutMs = 1000;
      // A check would find the hang only after 5 s: within this test, only the requests' deadline can.
      const { get, reports } = await app({ checkIntervalMs: 100, checkTimeoutMs: 5000, queryTimeoutMs });
      await waitFor('replica-1 takes requests', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-1');
      const frozen = freeze(r1);
      try {
        reports.length = 0;
        logged.length = 0;
        const answers: { res: RawResponse; ms: number }[] = [];
        // Round robin: the first goes to replica-2, the second to the frozen replica-1.
        for (let i = 0; i < 4; i += 1) {
          const started = performance.now();
          const res = await get('/api/users?expand[posts]=p&per-page=3&sort[id]=asc');
          answers.push({ res, ms: performance.now() - started });
        }
        expect(answers.map(({ res }) => res.status)).to.deep.equal([200, 200, 200, 200]);
        expect(answers.map(({ res }) => servedBy(res))).to.not.include('replica-1');
        // A generous bound: the deadline plus a retry, far below the time the replica stays frozen.
        for (const { ms } of answers) expect(ms).to.be.below(queryTimeoutMs + 3000);
        const retried = reports.filter((r) => r?.retriedFrom !== undefined);
        expect(retried.map((r) => [r?.collection, r?.retriedFrom])).to.deep.equal([['users', 'replica-1']]);
        expect(retried[0]?.server).to.be.oneOf(['replica-2', 'primary']);
        expect(logged.some((line) => /^warn: koa-query-modifiers: replica replica-1 is down/.test(line))).to.equal(true);
        expect(answers[1]?.res.body).to.deep.equal(answers[0]?.res.body);
      } finally {
        thaw(frozen);
      }
      await waitFor('replica-1 is back', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-1');
    });

    it('a replica stopped under load: no error answer; it takes requests again once restarted', async function () {
      const { r2 } = db();
      const { get } = await app({ checkIntervalMs: 100 });
      await waitFor('replica-2 takes requests', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-2');
      const statuses: number[] = [];
      const names = new Set<string>();
      let running = true;
      const workers = Array.from({ length: 4 }, async () => {
        while (running) {
          const res = await get('/api/users?filter[id]=>2&sort[name]=desc&per-page=5');
          statuses.push(res.status);
          names.add(servedBy(res));
        }
      });
      await sleep(300);
      await r2.stop('immediate');
      await sleep(1000);
      running = false;
      await Promise.all(workers);
      expect(statuses.length).to.be.above(10);
      expect(
        statuses.filter((s) => s !== 200),
        `${statuses.length} answers`,
      ).to.deep.equal([]);
      await r2.start();
      await waitFor('replica-2 is back', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-2');
    });

    it('after the primary stops and a replica is promoted, the API keeps answering from the replicas', async function () {
      const { primary: p, r1 } = db();
      const { get } = await app({ checkIntervalMs: 100, maxLagMs: 1000 });
      await waitFor('replicas take requests', async () => servedBy(await get('/api/roles?per-page=1')).startsWith('replica-'));
      await p.stop('fast');
      await r1.promote();
      const answers: RawResponse[] = [];
      for (let i = 0; i < 10; i += 1) answers.push(await get('/api/users?sort[id]=asc&per-page=3'));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
      expect(answers.map(servedBy)).to.not.include('primary');
      // The promoted server is no longer in recovery and keeps serving.
      await waitFor('the promoted replica serves', async () => servedBy(await get('/api/roles?per-page=1')) === 'replica-1');
    });
  });
}
