// Installs the packed package into a host whose models keep fields private in their own JSON
// (test/ecosystem/install/host-app-boundary): an account model that removes its uuid key and its
// password hash and masks the e-mail address, declaring nothing else, and the README's users and
// posts with drafts kept out by scopeModel. Each leak of a field the model's JSON keeps private is
// answered as the docs say (docs/configuration.md, "What your model's JSON hides or masks"), and
// the README's example never lets a draft out. The host runs on PGlite, then on PostgreSQL
// (DATABASE_URL; required under REQUIRE_POSTGRES=1).

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { adminQuery } from '../../support/db';
import { copyHostSources, installHost, pack, root, startHost, stopHost, typeCheck } from './hosts';

const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app-boundary');
const hostDependencies = ['koa', 'objection', 'knex', 'pg', 'knex-pglite', '@electric-sql/pglite', '@types/koa'];
const keys = ['c0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000003'];
const hashes = ['hash-c-7f3a', 'hash-e-91bc', 'hash-a-04d2'];

type Get = (path: string) => supertest.Test;
type Body = Record<string, unknown>;

/** What the host must see, on whichever database it runs. */
function behaviour(get: () => Get): void {
  const ok = async (path: string): Promise<supertest.Response> => {
    const res = await get()(path);
    if (res.status !== 200) expect.fail(`${path}: ${res.status} ${res.text}`);
    return res;
  };
  /** 400 FIELD_NOT_ALLOWED, with no private value and no private name in any `allowed` list. */
  const refused = async (path: string): Promise<Body> => {
    const res = await get()(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(400);
    expect(res.type).to.equal('application/problem+json');
    const body = res.body as Body & { errors: Body[] };
    expect(body.code, path).to.equal('FIELD_NOT_ALLOWED');
    for (const secret of [...hashes, ...keys]) expect(res.text, path).not.to.include(secret);
    // An entry whose list equals an earlier one's names that entry (`allowed_from`) instead of repeating it.
    for (const entry of [body, ...body.errors]) {
      const allowed = (entry.allowed ?? []) as unknown[];
      for (const name of ['passwordHash', 'id']) expect(allowed, path).not.to.include(name);
    }
    return body;
  };
  const noSecrets = (text: string): void => {
    for (const secret of [...hashes, ...keys, 'passwordHash', 'password_hash']) expect(text).not.to.include(secret);
  };

  it('answers records without the key and the hash, and with the e-mail as the model masks it', async function () {
    const res = await ok('/api/accounts?sort[handle]');
    expect(res.body).to.deep.equal([
      { handle: 'ada', email: 'a***@host.example', createdAt: '2025-01-01T00:00:00.000000Z' },
      { handle: 'ben', email: 'b***@host.example', createdAt: '2025-01-02T00:00:00.000000Z' },
      { handle: 'cleo', email: 'c***@host.example', createdAt: '2025-01-03T00:00:00.000000Z' },
    ]);
  });

  it('refuses the bisection of the hash, and every other comparison of it', async function () {
    for (const path of [
      '/api/accounts?filter[passwordHash]=>=hash-b&filter[and passwordHash]=<hash-f',
      '/api/accounts?in[passwordHash]=hash-c-7f3a',
      '/api/accounts?between[passwordHash]=hash-b,hash-f',
      '/api/accounts?search[passwordHash]=hash-c',
      '/api/accounts?sort[passwordHash]',
      '/api/accounts?sort[passwordHash]&cursor=',
    ]) {
      await refused(path);
    }
  });

  it('refuses to filter, search or sort by the masked e-mail', async function () {
    for (const path of [
      '/api/accounts?filter[email]=>=b&filter[and email]=<c',
      '/api/accounts?search[email]=ben',
      '/api/accounts?sort[email]',
      '/api/accounts?sort[email]=desc&cursor=',
    ]) {
      await refused(path);
    }
  });

  it('refuses fields=passwordHash (never an empty record), fields=id, and a field that does not exist, alike', async function () {
    const hash = await refused('/api/accounts?fields=passwordHash');
    const unknown = await refused('/api/accounts?fields=nonsense');
    expect(String(hash.detail).replace('passwordHash', 'nonsense')).to.equal(unknown.detail);
    expect(hash.allowed).to.deep.equal(unknown.allowed).and.to.deep.equal(['handle', 'email', 'createdAt']);
    await refused('/api/accounts?fields=handle,id');
    await refused('/api/accounts?fields!=passwordHash');
  });

  it('pages by cursor over the private key without showing it', async function () {
    const handles: unknown[] = [];
    let next: string | null = '/api/accounts?sort[handle]=desc&per-page=1&cursor=';
    while (next !== null) {
      const page: supertest.Response = await ok(next.replace(/^https?:\/\/[^/]+/, ''));
      noSecrets(JSON.stringify((page.body as Body).data));
      handles.push(...((page.body as Body).data as Body[]).map((r) => r.handle));
      next = (page.body as { next_page_url: string | null }).next_page_url;
    }
    expect(handles).to.deep.equal(['cleo', 'ben', 'ada']);
  });

  it('leaves the hash and the key out of openapi.json and _meta, and the e-mail out of their comparisons', async function () {
    const openapi = await ok('/api/openapi.json');
    noSecrets(openapi.text);
    const accounts = (openapi.body as { paths: Record<string, unknown> }).paths['/api/accounts'];
    // Each bracketed family is one deepObject parameter whose schema's properties are the keys it allows.
    type Parameter = { name: string; schema?: { properties?: object } };
    const item = accounts as { parameters?: Parameter[]; get?: { parameters?: Parameter[] } };
    const parameters = [...(item.parameters ?? []), ...(item.get?.parameters ?? [])].flatMap((p) =>
      Object.keys(p.schema?.properties ?? {}).map((key) => `${p.name}[${key}]`),
    );
    expect(parameters.filter((n) => /^(sort|filter|in|between|search)\[(email|id)\]$/.test(n))).to.deep.equal([]);
    expect(parameters).to.include('sort[handle]').and.to.include('filter[createdAt]');
    const meta = await ok('/api/_meta/accounts');
    noSecrets(meta.text);
    const lists = meta.body as Record<string, string[]>;
    expect(lists.projectable).to.deep.equal(['handle', 'email', 'createdAt']);
    for (const list of ['sortable', 'filterable', 'searchable']) expect(lists[list], list).to.deep.equal(['handle', 'createdAt']);
  });

  it("never lets a draft out with the README's scopeModel: not through expand, a dot path, has or count", async function () {
    expect((await ok('/api/posts?fields=title')).body).to.deep.equal([{ title: 'Launch notes' }]);
    expect((await ok('/api/users?fields=name&expand[posts]=p&p_fields=title')).body).to.deep.equal([
      { name: 'Ann', posts: [{ title: 'Launch notes' }] },
      { name: 'Bob', posts: [] },
    ]);
    expect((await ok('/api/users?fields=name&filter[posts.status]=draft')).body).to.deep.equal([]);
    expect((await ok('/api/users?fields=name&has[posts]=p&p_filter[status]=draft')).body).to.deep.equal([]);
    expect((await ok('/api/users?fields=name&count[posts]')).body).to.deep.equal([
      { name: 'Ann', posts_count: 1 },
      { name: 'Bob', posts_count: 0 },
    ]);
  });

  it('shows what a scope hook keyed on the label "posts" does not reach, as the docs say', async function () {
    expect((await ok('/label/posts?fields=title')).body).to.deep.equal([{ title: 'Launch notes' }]);
    expect((await ok('/label/users?fields=name&filter[posts.status]=draft')).body).to.deep.equal([{ name: 'Ann' }, { name: 'Bob' }]);
    expect((await ok('/label/users?fields=name&count[posts]')).body).to.deep.equal([
      { name: 'Ann', posts_count: 2 },
      { name: 'Bob', posts_count: 1 },
    ]);
  });
}

describe('installing the packed package into a host whose models keep fields private', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;
  let child: ChildProcess | undefined;
  let agent: supertest.Agent | undefined;
  const get: () => Get = () => (path) => {
    if (agent === undefined) throw new Error('the host is not running');
    return agent.get(path);
  };

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-boundary-'));
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

    behaviour(get);
  });

  describe('on PostgreSQL', function () {
    let database: string | undefined;

    before(async function () {
      const server = process.env.DATABASE_URL;
      if (!server) {
        if (process.env.REQUIRE_POSTGRES === '1') throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
        this.skip();
      }
      database = `kqm_boundary_${randomBytes(5).toString('hex')}`;
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

    behaviour(get);
  });
});
