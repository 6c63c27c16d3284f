// Installs the packed package into a host pinned to the oldest objection, knex and koa the package
// claims in its peerDependencies (test/ecosystem/install/host-app-oldest, PostgreSQL through pg),
// checks that the host's own copies are the ones used, type-checks the host, starts it and reads
// one relation of each kind. A second copy of objection inside the package would make the plugin
// misread the host's relations (a has-one as an array, a join table ignored), so the data checks
// below are what this file is for.
// Slow (npm install). The running part needs the PostgreSQL server named by DATABASE_URL (its own
// uniquely named database, dropped afterwards); without one it is skipped, or fails under
// REQUIRE_POSTGRES=1 as in CI.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { adminQuery } from '../../support/db';
import {
  copyHostSources,
  installedCopies,
  installedVersion,
  installHost,
  pack,
  readJson,
  root,
  runQuietly,
  startHost,
  stopHost,
  typeCheck,
  type ToleratedError,
} from './hosts';

const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app-oldest');

/**
 * The oldest versions the package claims, each the lower bound of its peerDependencies range; Koa's
 * types at the oldest version @koa/router's declarations compile with (they need the three-parameter
 * ParameterizedContext of @types/koa 2.13).
 */
const oldest = { objection: '3.0.0', knex: '0.95.0', koa: '2.0.0', '@types/koa': '2.13.0' } as const;

/** pg is the host's choice of knex driver, not the package's: any current 8.x. */
const hostDependencies = [...Object.entries(oldest).map(([name, version]) => `${name}@${version}`), 'pg@8'];

/**
 * Errors TypeScript 4.8 and later report inside the declarations of these old knex and objection
 * releases themselves (generic constraints written before `unknown` stopped satisfying `{}`); their
 * hosts compile with skipLibCheck. Every other error, in the host or in this package's declarations,
 * fails the test.
 */
const libraryOwnErrors: readonly ToleratedError[] = [
  { under: 'node_modules/knex/types/', code: 'TS2344' },
  { under: 'node_modules/objection/typings/', code: 'TS2344' },
];

describe('installing the packed package into a host on the oldest objection, knex and koa', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-oldest-'));
    hostDir = join(workDir, 'host');
  });

  after(function () {
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it("pins the lower bounds of the package's peerDependencies", function () {
    const peers = readJson(join(root, 'package.json')).peerDependencies as Record<string, string>;
    for (const [name, version] of Object.entries(oldest)) {
      const lowest = /^\^?(\d+\.\d+\.\d+)/.exec(peers[name] ?? '')?.[1];
      expect(lowest, `lowest ${name} in peerDependencies "${peers[name]}"`).to.equal(version);
    }
  });

  it('installs the tarball with npm install next to the oldest versions', function () {
    const { tarball } = pack(workDir);
    installHost(hostDir, [tarball, ...hostDependencies]);
    for (const [name, version] of Object.entries(oldest)) expect(installedVersion(hostDir, name), name).to.equal(version);
  });

  it("uses the host's one copy of objection, knex, koa and Koa's types, with every peer satisfied", function () {
    for (const name of ['objection', 'knex', 'koa', '@types/koa']) {
      expect(installedCopies(hostDir, name), `copies of ${name}`).to.deep.equal([`node_modules/${name}`]);
    }
    const ls = runQuietly('npm', ['ls', '--all'], hostDir);
    expect(ls.status, `npm ls --all reports a problem:\n${ls.stdout}\n${ls.stderr}`).to.equal(0);
  });

  it("brings none of the demo server's libraries (PGlite, knex-pglite, pino)", function () {
    for (const name of ['@electric-sql/pglite', 'knex-pglite', 'pino']) {
      expect(installedCopies(hostDir, name), name).to.deep.equal([]);
    }
  });

  it('type-checks the host against the published types (strict, no skipLibCheck)', function () {
    copyHostSources(hostSources, hostDir);
    expect(typeCheck(hostDir, libraryOwnErrors), 'compiler errors').to.deep.equal([]);
    expect(existsSync(join(hostDir, 'build', 'main.cjs'))).to.equal(true);
  });

  describe('the running host', function () {
    let child: ChildProcess | undefined;
    let database: string | undefined;
    let host: supertest.Agent;

    before(async function () {
      const server = process.env.DATABASE_URL;
      if (server === undefined || server === '') {
        if (process.env.REQUIRE_POSTGRES === '1') throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
        process.stdout.write('      DATABASE_URL is not set: the oldest host is installed and compiled, not run\n');
        this.skip();
      }
      database = `kqm_install_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database ${database}`);
      const url = new URL(server);
      url.pathname = `/${database}`;
      const started = await startHost(hostDir, { DATABASE_URL: url.toString() });
      child = started.child;
      host = supertest.agent(`http://127.0.0.1:${started.port}`);
    });

    after(async function () {
      if (child !== undefined) await stopHost(child);
      if (database !== undefined) await adminQuery(`drop database if exists ${database} with (force)`);
    });

    it('expands a has-one as an object or null, and a has-one-through along its join table', async function () {
      const res = await host
        .get('/api/authors?fields=id,name&expand[profile]=p&p_fields=bio&expand[desk]=d&d_fields=name&sort[id]=asc')
        .expect(200);
      expect(res.body).to.deep.equal([
        { id: 1, name: 'Ada Writer', profile: { bio: 'Ada edits the Koa column.' }, desk: { name: 'Frontend desk' } },
        { id: 2, name: 'Ben Scribe', profile: { bio: 'Ben writes on weekends.' }, desk: { name: 'Backend desk' } },
        { id: 3, name: 'Cy Quiet', profile: null, desk: null },
      ]);
    });

    it('expands a belongs-to as an object, and a many-to-many through its join table with alias sort', async function () {
      const res = await host
        .get('/api/articles?fields=id,title&expand[author]=a&a_fields=name&expand[tags]=t&t_fields=name&t_sort[name]=desc&sort[id]=asc')
        .expect(200);
      expect(res.body).to.deep.equal([
        { id: 1, title: 'Koa in practice', author: { name: 'Ben Scribe' }, tags: [{ name: 'node' }, { name: 'koa' }] },
        { id: 2, title: 'Objection tips', author: { name: 'Ada Writer' }, tags: [{ name: 'sql' }] },
        { id: 3, title: 'Untagged notes', author: { name: 'Ben Scribe' }, tags: [] },
      ]);
    });

    it('paginates with an envelope, filters, and answers 304 to its ETag', async function () {
      const res = await host.get('/api/articles?fields=id&filter[author_id]=2&per-page=1&page=2').expect(200);
      expect(res.body).to.include({ current_page: 2, per_page: 1, total: 2, last_page: 2 });
      expect(res.body.data).to.deep.equal([{ id: 3 }]);
      const etag = res.headers.etag;
      expect(etag).to.be.a('string');
      await host.get('/api/articles?fields=id&filter[author_id]=2&per-page=1&page=2').set('If-None-Match', String(etag)).expect(304);
    });

    it('answers client mistakes with problem+json, unknown collections with 404 and other methods with 405', async function () {
      const res = await host.get('/api/authors?expand[nothing]=x').expect(400);
      expect(res.type).to.equal('application/problem+json');
      expect(res.body).to.include({ status: 400, parameter: 'expand[nothing]' });
      await host.get('/api/nothing').expect(404);
      const post = await host.post('/api/authors').expect(405);
      expect(post.headers.allow).to.equal('GET, HEAD');
      await host.head('/api/authors').expect(200);
    });

    it('applies its cors option and serves the admin UI', async function () {
      const res = await host.get('/api/authors?fields=id').set('Origin', 'https://site.example').expect(200);
      expect(res.headers['access-control-allow-origin']).to.equal('https://site.example');
      const admin = await host.get('/admin/').expect(200);
      expect(admin.type).to.equal('text/html');
    });
  });
});
