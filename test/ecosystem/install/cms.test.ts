// Installs the packed package into a CMS host that uses everything a real one has
// (test/ecosystem/install/host-app-cms): snakeCaseMappers, a model with $formatJson and a virtual
// attribute, tables in a `cms` schema with a relation into `public`, an enum, arrays, json, jsonb,
// a point and a real, join-table extras, an async tenant restriction keyed by model, its own routers
// mounted before and after the plugin's on the same prefix, and the admin UI on its own path.
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

const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app-cms');
const hostDependencies = ['koa', '@koa/router', 'objection', 'knex', 'pg', 'knex-pglite', '@electric-sql/pglite', '@types/koa'];

type Get = (path: string, tenant?: string) => supertest.Test;

/** What a CMS host must see from the plugin, on whichever database it runs. */
function behaviour(get: () => Get, post: () => (path: string) => supertest.Test): void {
  const json = async (path: string, tenant?: string): Promise<unknown> => {
    const res = await get()(path, tenant);
    if (res.status !== 200) expect.fail(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const problem = async (path: string): Promise<{ code?: string; allowed?: unknown }> => {
    const res = await get()(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(400);
    expect(res.type).to.equal('application/problem+json');
    return res.body as { code?: string; allowed?: unknown };
  };

  it("leaves the host's own routes on the prefix to the host, before and after the plugin", async function () {
    expect(await json('/cms/v2/me')).to.deep.equal({ me: 'editor' });
    const created = await post()('/cms/v2/articles');
    expect(created.status).to.equal(201);
    expect(await json('/cms/v2/articles/1/preview')).to.deep.equal({ preview: '1' });
    const missing = await get()('/cms/v2/nothing');
    expect(missing.status).to.equal(404);
    expect(missing.body.code).to.equal('UNKNOWN_COLLECTION');
  });

  it("answers in the models' names and JSON: camelCase, masked e-mail, virtual full name", async function () {
    expect(await json('/cms/v2/authors?fields=id,firstName,fullName,email&sort[lastName]=desc')).to.deep.equal([
      { id: 1, firstName: 'Ada', fullName: 'Ada Writer', email: 'a***@host.example' },
      { id: 2, firstName: 'Ben', fullName: 'Ben Scribe', email: 'b***@host.example' },
    ]);
  });

  it('restricts the tenant everywhere its tables appear, whatever the relation', async function () {
    expect(await json('/cms/v2/authors?fields=id&expand[articles]=a&expand[editedArticles]=e')).to.deep.equal([
      { id: 1, articles: [{ id: 1, title: 'Koa in practice' }], editedArticles: [{ id: 3, title: 'Objection tips' }] },
      { id: 2, articles: [{ id: 3, title: 'Objection tips' }], editedArticles: [{ id: 1, title: 'Koa in practice' }] },
    ]);
    expect(await json('/cms/v2/articles?fields=id&expand[author]=a&a_fields=fullName', 'globex')).to.deep.equal([
      { id: 2, author: null },
      { id: 4, author: { fullName: 'Cy Other' } },
    ]);
    const page = (await json('/cms/v2/articles?fields=id&per-page=1')) as { total?: number };
    expect(page.total).to.equal(2);
  });

  it('sorts and filters an enum in its declared order and refuses other labels', async function () {
    expect(await json('/cms/v2/authors?fields=id,mood&sort[mood]')).to.deep.equal([
      { id: 2, mood: 'calm' },
      { id: 1, mood: 'away' },
    ]);
    expect(await json('/cms/v2/authors?fields=id&filter[mood]=>busy')).to.deep.equal([{ id: 1 }]);
    const refused = await problem('/cms/v2/authors?filter[mood]=angry');
    expect(refused.code).to.equal('INVALID_VALUE');
  });

  it('returns arrays, json and jsonb as JSON and compares them as values', async function () {
    expect(await json('/cms/v2/authors?fields=id,interests,settings,profile,rating&filter[id]=2')).to.deep.equal([
      { id: 2, interests: ['art'], settings: { theme: 'light' }, profile: [1, 2], rating: 3.25 },
    ]);
    expect(await json('/cms/v2/authors?fields=id&filter[interests]=math')).to.deep.equal([{ id: 1 }]);
    const settings = encodeURIComponent('{ "size" : 2, "theme" : "dark" }');
    expect(await json(`/cms/v2/authors?fields=id&filter[settings]=${settings}`)).to.deep.equal([{ id: 1 }]);
  });

  it("never answers 500 for types without an ordering or values out of a column's range", async function () {
    expect(await json('/cms/v2/authors?fields=id&filter[location]=(3,4)')).to.deep.equal([{ id: 2 }]);
    expect((await problem('/cms/v2/authors?sort[location]')).code).to.equal('FIELD_NOT_ALLOWED');
    expect((await problem('/cms/v2/authors?sort[profile]')).code).to.equal('FIELD_NOT_ALLOWED');
    expect((await problem('/cms/v2/authors?filter[rating]=1e40')).code).to.equal('INVALID_VALUE');
  });

  it("projects and sorts a join table's extra column through the alias", async function () {
    expect(await json('/cms/v2/articles?fields=id&filter[id]=1&expand[tags]=t&t_fields=label,position&t_sort[position]')).to.deep.equal([
      {
        id: 1,
        tags: [
          { label: 'opinion', position: 1 },
          { label: 'howto', position: 2 },
        ],
      },
    ]);
  });

  it("serves the admin UI on its own path, pointed at the plugin's prefix", async function () {
    const res = await get()('/tools/query/');
    expect(res.status).to.equal(200);
    expect(res.text).to.include('<meta name="koa-query-modifiers-prefix" content="/cms/v2">');
  });
}

describe('installing the packed package into a CMS host that uses every host feature', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;
  let child: ChildProcess | undefined;
  let agent: supertest.Agent | undefined;
  const get: () => Get =
    () =>
    (path, tenant = 'acme') => {
      if (agent === undefined) throw new Error('the host is not running');
      return agent.get(path).set('X-Tenant', tenant);
    };
  const post = () => (path: string) => {
    if (agent === undefined) throw new Error('the host is not running');
    return agent.post(path);
  };

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-cms-'));
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
      const started = await startHost(hostDir, { DATABASE_URL: '' });
      child = started.child;
      agent = supertest.agent(`http://127.0.0.1:${started.port}`);
    });

    after(async function () {
      if (child !== undefined) await stopHost(child);
      child = undefined;
      agent = undefined;
    });

    behaviour(get, post);
  });

  describe('on PostgreSQL', function () {
    let database: string | undefined;

    before(async function () {
      const server = process.env.DATABASE_URL;
      if (!server) {
        if (process.env.REQUIRE_POSTGRES === '1') throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
        this.skip();
      }
      database = `kqm_cms_${randomBytes(5).toString('hex')}`;
      await adminQuery(`create database ${database}`);
      const url = new URL(server);
      url.pathname = `/${database}`;
      const started = await startHost(hostDir, { DATABASE_URL: url.toString() });
      child = started.child;
      agent = supertest.agent(`http://127.0.0.1:${started.port}`);
    });

    after(async function () {
      if (child !== undefined) await stopHost(child);
      child = undefined;
      agent = undefined;
      if (database !== undefined) await adminQuery(`drop database if exists ${database} with (force)`);
    });

    behaviour(get, post);
  });
});
