// Installs the packed package into a multi-tenant host (test/ecosystem/install/host-app-hooks) whose
// hooks are written as hosts write them, and checks what the hooks hide stays hidden and uncached:
// a many-to-many relation restricted by a label-based `scope` hook that returns the query, through
// every path (dot path, has/has!, count, sort by count, windowed and nested expansions); Cache-Control
// and Vary on hooked mounts, and the start-up failure of a public cacheControl without `vary`;
// `total=estimated` under a scope, unmoved by another tenant's rows; Server-Timing only when asked.
// The host runs on PGlite, then on PostgreSQL (DATABASE_URL; required under REQUIRE_POSTGRES=1).

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { adminQuery } from '../../support/db';
import { copyHostSources, installHost, pack, root, startHost, stopHost, typeCheck } from './hosts';

const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app-hooks');
const hostDependencies = ['koa', 'objection', 'knex', 'pg', 'knex-pglite', '@electric-sql/pglite', '@types/koa'];

interface Host {
  get(path: string, tenant?: string): supertest.Test;
  post(path: string): supertest.Test;
  /** Starts the host once more with `env` and returns how it ended: it must not start. */
  startFailing(env: NodeJS.ProcessEnv): Promise<string>;
}

type Row = Record<string, unknown>;

/** What the host must see from the plugin, on whichever database it runs. */
function behaviour(host: () => Host): void {
  const json = async (path: string, tenant = 'acme'): Promise<unknown> => {
    const res = await host().get(path, tenant);
    if (res.status !== 200) expect.fail(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const ids = async (path: string, tenant = 'acme') => ((await json(path, tenant)) as Row[]).map((row) => row.id);
  const related = async (path: string, relation: string, tenant = 'acme'): Promise<Record<string, unknown[]>> =>
    Object.fromEntries(((await json(path, tenant)) as Row[]).map((row) => [String(row.id), (row[relation] as Row[]).map((r) => r.id)]));

  it('a dot path and has/has! through the join table see only the tenant’s members', async function () {
    expect(await ids('/api/roles?filter[users.role]=editor')).to.deep.equal([1]);
    expect(await ids('/api/roles?filter[users.role]=editor', 'globex')).to.deep.equal([1, 3]);
    expect(await ids('/api/roles?filter[users.name]=dan')).to.deep.equal([]);
    expect(await ids('/api/roles?has[users]=u')).to.deep.equal([1, 2]);
    expect(await ids('/api/roles?has![users]=u')).to.deep.equal([3]);
    expect(await ids('/api/roles?has![users]=u&u_filter[role]=viewer')).to.deep.equal([1, 3]);
  });

  it('a count and a sort by it count only the tenant’s members', async function () {
    expect(await json('/api/roles?fields=id&count[users]')).to.deep.equal([
      { id: 1, users_count: 2 },
      { id: 2, users_count: 1 },
      { id: 3, users_count: 0 },
    ]);
    expect(await ids('/api/roles?count[users]&sort[users_count]=asc')).to.deep.equal([3, 2, 1]);
    expect(await ids('/api/roles?count[users]&sort[users_count]=desc', 'globex')).to.deep.equal([1, 2, 3]);
  });

  it('plain, windowed and nested expansions join through the join table', async function () {
    expect(await related('/api/roles?fields=id&expand[users]=u', 'users')).to.deep.equal({ 1: [1, 3], 2: [2], 3: [] });
    expect(await related('/api/roles?fields=id&expand[users]=u&u_limit=1&u_sort[name]=desc', 'users')).to.deep.equal({
      1: [3],
      2: [2],
      3: [],
    });
    expect(
      await json(
        '/api/roles?fields=id&filter[id]=1&expand[users]=u&u_fields=id&u_expand[roles]=r&r_fields=id&r_expand[users]=v&v_fields=id&v_limit=5',
      ),
    ).to.deep.equal([
      {
        id: 1,
        users: [
          { id: 1, roles: [{ id: 1, users: [{ id: 1 }, { id: 3 }] }] },
          { id: 3, roles: [{ id: 1, users: [{ id: 1 }, { id: 3 }] }] },
        ],
      },
    ]);
  });

  it('a hook that returns the query does not have it run: one statement for the root and its relation condition', async function () {
    // The second request of each query: the first also asks the planner for its cost once (docs/scaling.md, "Lanes and pool sizing").
    const ran = async (path: string, tenant?: string) => {
      await json(path, tenant);
      await json('/host/statements');
      await json(path, tenant);
      return ((await json('/host/statements')) as { statements: number }).statements;
    };
    expect(await ran('/api/roles?filter[users.role]=editor')).to.equal(1);
    expect(await ran('/api/roles?fields=id&count[users]&sort[users_count]=desc')).to.equal(1);
    expect(await ran('/api/roles?expand[users]=u')).to.equal(2);
    expect(await ran('/shared/roles?has[users]=u&u_filter[role]=viewer', 'globex')).to.equal(1);
  });

  it('the same paths through the async scopeModel hook that returns the query', async function () {
    expect(await ids('/shared/roles?filter[users.role]=editor')).to.deep.equal([1]);
    expect(await json('/shared/roles?fields=id&count[users]&sort[users_count]=desc')).to.deep.equal([
      { id: 1, users_count: 2 },
      { id: 2, users_count: 1 },
      { id: 3, users_count: 0 },
    ]);
    expect(await related('/shared/roles?fields=id&expand[users]=u&u_limit=5', 'users', 'globex')).to.deep.equal({
      1: [4],
      2: [5],
      3: [4],
    });
  });

  it('a hooked mount answers private, no-cache; a public one with vary adds its headers to Vary', async function () {
    const own = await host().get('/api/roles', 'acme');
    expect([own.status, own.headers['cache-control'], own.headers.vary]).to.deep.equal([200, 'private, no-cache', 'Accept']);
    const shared = await host().get('/shared/roles', 'acme');
    expect([shared.status, shared.headers['cache-control'], shared.headers.vary]).to.deep.equal([
      200,
      'public, max-age=60',
      'X-Tenant, Accept',
    ]);
    const revalidated = await host().get('/shared/roles', 'acme').set('If-None-Match', String(shared.headers.etag));
    expect([revalidated.status, revalidated.headers['cache-control'], revalidated.headers.vary]).to.deep.equal([
      304,
      'public, max-age=60',
      'X-Tenant, Accept',
    ]);
    const open = await host().get('/timed/roles');
    expect(open.headers['cache-control']).to.equal('no-cache');
  });

  it('a public cacheControl on a hooked mount without vary stops the host at start-up, saying why', async function () {
    const output = await host().startFailing({ HOOKS_HOST_MODE: 'public-without-vary' });
    expect(output).to.include('cacheControl "public, max-age=60" lets shared caches keep answers');
    expect(output).to.include("set vary to the request headers those hooks read (e.g. vary: ['Authorization', 'X-Tenant'])");
  });

  it('Server-Timing only where the mount asks for it', async function () {
    expect((await host().get('/api/members')).headers['server-timing']).to.equal(undefined);
    expect((await host().get('/timed/members')).headers['server-timing']).to.match(
      /^parse;dur=[\d.]+, query;dur=[\d.]+, serialize;dur=[\d.]+$/,
    );
  });

  // Last: it grows the other tenant.
  it('total=estimated under a scope gives the same answer for the same visible rows, whatever the other tenant holds', async function () {
    const page = '/api/members?fields=id&per-page=1&total=estimated';
    const estimate = async () => {
      const body = (await json(page)) as Row;
      return [body.total, body.total_is_estimate, body.last_page];
    };
    expect(await estimate()).to.deep.equal([3, true, 3]);
    expect((await host().post('/host/grow?count=3000')).status).to.equal(204);
    expect(await estimate()).to.deep.equal([3, true, 3]);
    // The other tenant's own view: far past estimateAbove, still the lower bound.
    const theirs = (await json(page, 'globex')) as Row;
    expect([theirs.total, theirs.total_is_estimate]).to.deep.equal([3, true]);
  });
}

describe('installing the packed package into a multi-tenant host whose hooks restrict a many-to-many relation', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;
  let child: ChildProcess | undefined;
  let agent: supertest.Agent | undefined;
  let env: NodeJS.ProcessEnv = {};
  const host = (): Host => ({
    get: (path, tenant = 'acme') => {
      if (agent === undefined) throw new Error('the host is not running');
      return agent.get(path).set('X-Tenant', tenant);
    },
    post: (path) => {
      if (agent === undefined) throw new Error('the host is not running');
      return agent.post(path);
    },
    startFailing: async (more) =>
      startHost(hostDir, { ...env, ...more }).then(
        async (started) => {
          await stopHost(started.child);
          return expect.fail('the host started');
        },
        (error: unknown) => String(error),
      ),
  });

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-hooks-'));
    hostDir = join(workDir, 'host');
  });

  after(async function () {
    if (child !== undefined) await stopHost(child);
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it("installs the tarball with the host's own libraries and type-checks the host", function () {
    installHost(hostDir, [pack(workDir).tarball, ...hostDependencies]);
    copyHostSources(hostSources, hostDir);
    expect(typeCheck(hostDir)).to.deep.equal([]);
  });

  describe('on PGlite', function () {
    before(async function () {
      // An empty DATABASE_URL: the outer one (CI sets it) must not turn this run into a PostgreSQL one.
      env = { DATABASE_URL: '' };
      const started = await startHost(hostDir, env);
      child = started.child;
      agent = supertest.agent(`http://127.0.0.1:${started.port}`);
    });

    after(async function () {
      if (child !== undefined) await stopHost(child);
      child = undefined;
      agent = undefined;
    });

    behaviour(host);
  });

  describe('on PostgreSQL', function () {
    const databases: string[] = [];

    before(async function () {
      const server = process.env.DATABASE_URL;
      if (!server) {
        if (process.env.REQUIRE_POSTGRES === '1') throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
        this.skip();
      }
      // One database for the host, one for the start that must fail (it creates its tables first).
      for (let i = 0; i < 2; i += 1) databases.push(`kqm_hooks_${randomBytes(5).toString('hex')}`);
      for (const database of databases) await adminQuery(`create database ${database}`);
      const url = (database: string) => {
        const parsed = new URL(server);
        parsed.pathname = `/${database}`;
        return parsed.toString();
      };
      env = { DATABASE_URL: url(databases[0] as string) };
      const started = await startHost(hostDir, env);
      child = started.child;
      agent = supertest.agent(`http://127.0.0.1:${started.port}`);
      env = { DATABASE_URL: url(databases[1] as string) };
    });

    after(async function () {
      if (child !== undefined) await stopHost(child);
      child = undefined;
      agent = undefined;
      for (const database of databases) await adminQuery(`drop database if exists ${database} with (force)`);
    });

    behaviour(host);
  });
});
