// Installs the packed package into a temporary host Koa application with its own models and tables
// (test/ecosystem/install/host-app, TypeScript, mounted following only docs/installing.md and plugin.json),
// type-checks the host against the published types, starts it and runs a few requests.
// Slow (npm install); needs the npm registry or a warm npm cache. Leaves no files behind.

import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import supertest from 'supertest';

const root = resolve(__dirname, '..', '..', '..', '..');
const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app');
const tsc = require.resolve('typescript/bin/tsc');

/** The host's dependencies besides the tarball: what docs/installing.md asks for, and Koa's types for TypeScript. */
const hostDependencies = ['koa', '@koa/router', 'objection', 'knex', 'knex-pglite', '@electric-sql/pglite', '@types/koa'];

/** npm and node children get a clean environment: no npm_* variables from an outer `npm test`. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: childEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** Starts `node build/main.cjs` and resolves with its port once it prints `{"port": N}`. */
function startHost(cwd: string): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolveStart, rejectStart) => {
    const child = spawn(process.execPath, [join('build', 'main.cjs')], { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString(); });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (line !== undefined) resolveStart({ child, port: (JSON.parse(line) as { port: number }).port });
    });
    child.on('exit', (code) => rejectStart(new Error(`the host exited (${code}) before listening:\n${out}\n${err}`)));
  });
}

function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

describe('installing the packed package into a host Koa app', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;
  let child: ChildProcess | undefined;
  let host: supertest.Agent;

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-'));
    hostDir = join(workDir, 'host');
    mkdirSync(join(hostDir, 'src'), { recursive: true });
  });

  after(async function () {
    if (child !== undefined) await stopHost(child);
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  let tarball: string;

  it('packs with npm pack (the build output, plugin.json and docs, without tests or sources)', function () {
    const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', workDir], root)) as
      { filename: string; files: { path: string }[] }[];
    const [info] = packed;
    if (info === undefined) throw new Error('npm pack reported nothing');
    tarball = join(workDir, info.filename);
    const files = info.files.map((f) => f.path);
    expect(files).to.include.members(['package.json', 'plugin.json', 'dist/plugin/index.js', 'dist/plugin/index.d.ts', 'docs/installing.md']);
    expect(files.filter((f) => f.startsWith('dist/test/') || f.startsWith('test/') || f.endsWith('.ts') && !f.endsWith('.d.ts'))).to.deep.equal([]);
  });

  it('installs into a fresh host with npm install <tarball> and the documented dependencies', function () {
    writeFileSync(join(hostDir, 'package.json'), JSON.stringify({ name: 'kqm-host', version: '1.0.0', private: true }, null, 2));
    run('npm', ['install', tarball, ...hostDependencies, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], hostDir);
    expect(existsSync(join(hostDir, 'node_modules', 'koa-query-modifiers', 'plugin.json'))).to.equal(true);
  });

  it('ships every file plugin.json names (entries, admin UI)', function () {
    const pkgDir = join(hostDir, 'node_modules', 'koa-query-modifiers');
    const manifest = readJson(join(pkgDir, 'plugin.json'));
    const entries = manifest.entries as Record<string, string>;
    for (const [name, file] of Object.entries(entries)) {
      expect(existsSync(join(pkgDir, file)), `plugin.json entries.${name} = ${file}`).to.equal(true);
    }
    expect(existsSync(join(pkgDir, 'dist', 'admin-ui', 'index.html')), 'the built admin UI (dist/admin-ui)').to.equal(true);
  });

  it('type-checks the host written from the docs against the published types (strict, no skipLibCheck)', function () {
    for (const file of readdirSync(hostSources).filter((f) => f.endsWith('.cts'))) copyFileSync(join(hostSources, file), join(hostDir, 'src', file));
    copyFileSync(join(hostSources, 'tsconfig.json'), join(hostDir, 'tsconfig.json'));
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], hostDir);
    expect(existsSync(join(hostDir, 'build', 'main.cjs'))).to.equal(true);
  });

  describe('the running host', function () {
    before(async function () {
      const started = await startHost(hostDir);
      child = started.child;
      host = supertest.agent(`http://127.0.0.1:${started.port}`);
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
        { id: 1, name: 'Ada Writer', email: 'ada@host.example', joined_at: '2024-01-01T00:00:00.000000Z', articles: [{ title: 'Koa in practice' }] },
        { id: 2, name: 'Ben Scribe', email: 'ben@host.example', joined_at: '2024-02-01T00:00:00.000000Z',
          articles: [{ title: 'PGlite everywhere' }, { title: 'Objection tips' }] },
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

    it('leaves the host\'s own routes alone', async function () {
      const own = await host.get('/host').expect(200);
      expect(own.body).to.deep.equal({ host: 'still mine', plugin: 'koa-query-modifiers' });
    });

    it('serves the admin UI at /admin/', async function () {
      const admin = await host.get('/admin/').expect(200);
      expect(admin.type).to.equal('text/html');
    });

    it('serves the OpenAPI document of the host\'s collections', async function () {
      const openapi = await host.get('/api/openapi.json').expect(200);
      expect(Object.keys(openapi.body.paths as object)).to.deep.equal(['/api/authors', '/api/articles']);
    });
  });
});
