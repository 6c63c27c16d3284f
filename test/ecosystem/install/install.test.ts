// Installs the packed package into a temporary host Koa application with its own models and tables
// (test/ecosystem/install/host-app, TypeScript, mounted following only docs/installing.md and plugin.json,
// with a model whose custom QueryBuilder has its own constructor), type-checks the host against the
// published types, starts it and runs a few requests; also an ES module host reading plugin.json
// (host-app-esm) and a typed client generated from the served OpenAPI document (typed-client).
// Slow (npm install); needs the npm registry or a warm npm cache. Leaves no files behind.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import {
  copyHostSources,
  installedCopies,
  installHost,
  pack,
  readJson,
  root,
  run,
  runQuietly,
  startHost,
  stopHost,
  typeCheck,
} from './hosts';

const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app');
const clientSources = join(root, 'test', 'ecosystem', 'install', 'typed-client');
const esmSources = join(root, 'test', 'ecosystem', 'install', 'host-app-esm');

/**
 * The host's dependencies besides the tarball: the libraries docs/installing.md asks for (Koa,
 * Objection, Knex, and PGlite with its Knex client), and Koa's types for TypeScript.
 */
const hostDependencies = ['koa', 'objection', 'knex', 'knex-pglite', '@electric-sql/pglite', '@types/koa'];

describe('installing the packed package into a host Koa app', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;
  let child: ChildProcess | undefined;
  let host: supertest.Agent;
  let origin: string;

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-'));
    hostDir = join(workDir, 'host');
  });

  after(async function () {
    if (child !== undefined) await stopHost(child);
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  let tarball: string;

  it('packs with npm pack (the plugin build, the admin UI, plugin.json and docs; no tests, sources or demo server)', function () {
    const packed = pack(workDir);
    tarball = packed.tarball;
    const { files } = packed;
    expect(files).to.include.members([
      'package.json',
      'plugin.json',
      'dist/plugin/index.js',
      'dist/plugin/index.d.ts',
      'dist/admin-ui/index.html',
      'docs/installing.md',
    ]);
    expect(
      files.filter((f) => f.startsWith('dist/test/') || f.startsWith('test/') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    ).to.deep.equal([]);
    expect(
      files.filter((f) => f.startsWith('dist/server/') || f.startsWith('dist/bench/')),
      'demo server and bench',
    ).to.deep.equal([]);
  });

  it('passes publint on the tarball (package.json fields, exports, files), warnings included', function () {
    const result = runQuietly(join(root, 'node_modules', '.bin', 'publint'), ['--strict', tarball], root);
    expect(result.status, `${result.stdout}\n${result.stderr}`).to.equal(0);
    expect(result.stdout, 'suggestions count too').to.match(/All good!/);
  });

  it('resolves with types for CommonJS, ESM (node16) and bundler consumers (arethetypeswrong)', function () {
    const result = runQuietly(join(root, 'node_modules', '.bin', 'attw'), [tarball, '--format', 'json'], root);
    const report = JSON.parse(result.stdout) as { analysis?: { problems?: unknown[] } };
    expect(report.analysis?.problems, result.stdout.slice(0, 2000)).to.deep.equal([]);
    expect(result.status).to.equal(0);
  });

  it('installs into a fresh host with npm install <tarball> and the documented dependencies', function () {
    installHost(hostDir, [tarball, ...hostDependencies]);
    expect(existsSync(join(hostDir, 'node_modules', 'koa-query-modifiers', 'plugin.json'))).to.equal(true);
  });

  it("uses the host's one copy of objection, knex, koa and Koa's types, with every peer satisfied", function () {
    for (const name of ['objection', 'knex', 'koa', '@types/koa']) {
      expect(installedCopies(hostDir, name), `copies of ${name}`).to.deep.equal([`node_modules/${name}`]);
    }
    const ls = runQuietly('npm', ['ls', '--all'], hostDir);
    expect(ls.status, `npm ls --all reports a problem:\n${ls.stdout}\n${ls.stderr}`).to.equal(0);
  });

  it("brings none of the demo server's libraries (pino) nor the project's OpenAPI tools (Prism, openapi-typescript)", function () {
    for (const name of ['pino', '@stoplight/prism-cli', 'openapi-typescript'])
      expect(installedCopies(hostDir, name), name).to.deep.equal([]);
  });

  it('ships every file plugin.json names (entries, admin UI)', function () {
    const pkgDir = join(hostDir, 'node_modules', 'koa-query-modifiers');
    const manifest = readJson(join(pkgDir, 'plugin.json'));
    const entries = manifest.entries as Record<string, string>;
    for (const [name, file] of Object.entries(entries)) {
      expect(existsSync(join(pkgDir, file)), `plugin.json entries.${name} = ${file}`).to.equal(true);
    }
    expect(existsSync(join(pkgDir, entries.admin ?? 'entries.admin', 'index.html')), 'the built admin UI (entries.admin)').to.equal(true);
  });

  it("links the package's command, which the host runs as npx koa-query-modifiers", function () {
    const usage = run(join(hostDir, 'node_modules', '.bin', 'koa-query-modifiers'), ['--help'], hostDir);
    expect(usage).to.include('Usage: koa-query-modifiers indexes --models <module>');
  });

  it('gives an ES module host the named exports (import { queryModifiers } from ...)', function () {
    writeFileSync(
      join(hostDir, 'esm-import.mjs'),
      [
        "import { queryModifiers, QueryError, problemCodes, optionsSchema, buildOpenApiDocument } from 'koa-query-modifiers';",
        'console.log(JSON.stringify([typeof queryModifiers, typeof QueryError, typeof problemCodes, typeof optionsSchema, typeof buildOpenApiDocument]));',
      ].join('\n'),
    );
    const out = run('node', ['esm-import.mjs'], hostDir);
    expect(JSON.parse(out)).to.deep.equal(['function', 'function', 'object', 'object', 'function']);
  });

  it('gives an ES module host plugin.json with the import attribute, in JavaScript and in TypeScript (nodenext)', function () {
    writeFileSync(
      join(hostDir, 'esm-manifest.mjs'),
      [
        "import manifest from 'koa-query-modifiers/plugin.json' with { type: 'json' };",
        'console.log(JSON.stringify([manifest.id, manifest.routes.prefix]));',
      ].join('\n'),
    );
    expect(JSON.parse(run('node', ['esm-manifest.mjs'], hostDir))).to.deep.equal(['koa-query-modifiers', '/api']);
    // Without the attribute Node.js refuses the JSON module: why the docs' snippet carries it.
    writeFileSync(
      join(hostDir, 'esm-manifest-bare.mjs'),
      "import manifest from 'koa-query-modifiers/plugin.json';\nconsole.log(manifest.id);",
    );
    const bare = runQuietly('node', ['esm-manifest-bare.mjs'], hostDir);
    expect(bare.status).to.not.equal(0);
    expect(bare.stderr).to.match(/ERR_IMPORT_ATTRIBUTE_MISSING|ERR_IMPORT_ASSERTION_TYPE_MISSING/);
    const esmDir = join(hostDir, 'esm');
    mkdirSync(esmDir, { recursive: true });
    for (const file of ['main.mts', 'tsconfig.json']) copyFileSync(join(esmSources, file), join(esmDir, file));
    expect(typeCheck(esmDir), 'compiler errors').to.deep.equal([]);
    expect(JSON.parse(run('node', [join('build', 'main.mjs')], esmDir))).to.deep.equal({
      id: 'koa-query-modifiers',
      prefix: '/api',
      admin: '/admin',
      plugin: 'function',
    });
  });

  it('type-checks the host written from the docs against the published types (strict, no skipLibCheck)', function () {
    copyHostSources(hostSources, hostDir);
    expect(typeCheck(hostDir), 'compiler errors').to.deep.equal([]);
    expect(existsSync(join(hostDir, 'build', 'main.cjs'))).to.equal(true);
  });

  describe('the running host', function () {
    before(async function () {
      const started = await startHost(hostDir);
      child = started.child;
      origin = `http://127.0.0.1:${started.port}`;
      host = supertest.agent(origin);
    });

    it('filters and sorts its own collection', async function () {
      const res = await host.get('/api/articles?filter[published]=true&sort[rating]=desc&fields=title,rating').expect(200);
      expect(res.body).to.deep.equal([
        { title: 'PGlite everywhere', rating: '4.9' },
        { title: 'Koa in practice', rating: '4.5' },
        { title: 'Objection tips', rating: '3.0' },
      ]);
      expect(res.headers['cache-control']).to.equal('public, max-age=60');
    });

    it('expands a relation with alias modifiers and never shows the hidden column', async function () {
      const res = await host.get('/api/authors?expand[articles]=a&a_fields=title&a_filter[published]=true&a_sort[rating]=desc').expect(200);
      expect(res.body).to.deep.equal([
        {
          id: 1,
          name: 'Ada Writer',
          email: 'ada@host.example',
          joined_at: '2024-01-01T00:00:00.000000Z',
          articles: [{ title: 'Koa in practice' }],
        },
        {
          id: 2,
          name: 'Ben Scribe',
          email: 'ben@host.example',
          joined_at: '2024-02-01T00:00:00.000000Z',
          articles: [{ title: 'PGlite everywhere' }, { title: 'Objection tips' }],
        },
        { id: 3, name: 'Cy Quiet', email: 'cy@host.example', joined_at: '2024-03-01T00:00:00.000000Z', articles: [] },
      ]);
    });

    it('answers with the pagination envelope under the host settings', async function () {
      const res = await host.get('/api/articles?page=2&fields=id').expect(200);
      expect(res.body).to.include({ current_page: 2, per_page: 2, total: 5, last_page: 3, from: 3, to: 4 });
      expect(res.body.data).to.deep.equal([{ id: 3 }, { id: 4 }]);
      await host.get('/api/articles?per-page=4').expect(400);
    });

    it('answers client mistakes and the authorize hook with problem+json', async function () {
      const res = await host.get('/api/authors?fields=password_hash').expect(400);
      expect(res.type).to.equal('application/problem+json');
      expect(res.body).to.include({ code: 'FIELD_NOT_ALLOWED', parameter: 'fields' });
      expect(res.body.allowed).to.deep.equal(['id', 'name', 'email', 'joined_at']);
      const denied = await host.get('/api/authors').set('X-Host-Key', 'closed').expect(403);
      expect(denied.body).to.include({ code: 'FORBIDDEN', detail: 'Closed by the host.' });
      await host.get('/api/nothing').expect(404);
    });

    it('reads a model through its own query builder (a soft-delete builder with a constructor): deleted notes stay out', async function () {
      const res = await host.get('/api/notes?sort[id]').expect(200);
      expect(res.body).to.deep.equal([
        { id: 1, text: 'kept' },
        { id: 3, text: 'also kept' },
      ]);
    });

    it("leaves the host's own routes alone", async function () {
      const own = await host.get('/host').expect(200);
      expect(own.body).to.deep.equal({ host: 'still mine', plugin: 'koa-query-modifiers' });
    });

    it('serves the admin UI at /admin/', async function () {
      const admin = await host.get('/admin/').expect(200);
      expect(admin.type).to.equal('text/html');
    });

    it("serves the OpenAPI document of the host's collections", async function () {
      const openapi = await host.get('/api/openapi.json').expect(200);
      expect(Object.keys(openapi.body.paths as object).filter((path) => !path.startsWith('/api/_'))).to.deep.equal([
        '/api/authors',
        '/api/articles',
        '/api/notes',
        '/api/openapi.json',
      ]);
    });

    it('gives a typed client generated from that document (openapi-typescript) that compiles under --strict and reads the host', async function () {
      const clientDir = join(workDir, 'client');
      mkdirSync(join(clientDir, 'src'), { recursive: true });
      writeFileSync(join(clientDir, 'openapi.json'), (await host.get('/api/openapi.json').expect(200)).text);
      const generator = join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
      run(process.execPath, [generator, 'openapi.json', '--output', join('src', 'api.cts')], clientDir);
      for (const file of ['client.cts', 'main.cts']) copyFileSync(join(clientSources, file), join(clientDir, 'src', file));
      copyFileSync(join(clientSources, 'tsconfig.json'), join(clientDir, 'tsconfig.json'));
      // Also proves the type errors main.cts expects (an unused @ts-expect-error is an error).
      expect(typeCheck(clientDir), 'compiler errors').to.deep.equal([]);
      const read = JSON.parse(run(process.execPath, [join('build', 'main.cjs'), origin], clientDir)) as unknown;
      expect(read).to.deep.equal({
        titles: ['PGlite everywhere', 'Koa in practice', 'Objection tips'],
        total: 3,
        authors: [
          { name: 'Cy Quiet', articles: 0 },
          { name: 'Ben Scribe', articles: 2 },
        ],
        next: 'string',
      });
    });
  });
});
