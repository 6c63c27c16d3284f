// Index advice on PostgreSQL with enough rows for plans to matter
// (docs/installing.md#10-indexes-for-your-declarations): before the advice is applied a sort scans
// the table; after it, the plans of a sort, a filter with a sort, a filter with the default order,
// a search and an expansion's related rows read the advised indexes. And the package's command
// prints the advice, then none.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import supertest from 'supertest';
import { queryModifiers } from '../../plugin';
import { expectOk, objectOf, startApp, type TestApp } from '../support/app';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/db';
import { repoRoot } from '../support/repo-root';
import { collections, createAdviceTables } from './index-advice-models';

const SECRET = 'the index advice suite seals no cursor, but says so';

/** Every scan of a table (its `Node Type`, the table and the index it reads) and every sort, anywhere in the plans. */
function scans(plans: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const type = record['Node Type'];
    const scan = typeof record['Relation Name'] === 'string' || typeof record['Index Name'] === 'string';
    if (typeof type === 'string' && (scan || type.endsWith('Sort'))) {
      found.push([type, record['Relation Name'], record['Index Name']].filter((part) => typeof part === 'string').join(' '));
    }
    Object.values(record).forEach(walk);
  };
  walk(plans);
  return found;
}

/** The package's command, as `npx koa-query-modifiers` runs it: the `bin` entry of package.json. */
function runCommand(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
  const bin = manifest.bin['koa-query-modifiers'] as string;
  expect(
    manifest.files.some((shipped) => bin.startsWith(`${shipped}/`)),
    `${bin} ships in "files"`,
  ).to.equal(true);
  const run = spawnSync(process.execPath, [join(repoRoot, bin), ...args], { encoding: 'utf8', cwd: repoRoot, timeout: 60000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('index advice on PostgreSQL', function () {
  this.timeout(300000);
  let db: TestDatabase;
  let app: TestApp | undefined;
  let url: string;

  before(async function () {
    if (testDbKind() !== 'postgres') return this.skip();
    db = await createTestDatabase({ empty: true, trigram: true });
    const server = new URL(process.env.DATABASE_URL ?? '');
    server.pathname = `/${db.name ?? ''}`;
    url = server.toString();
    await createAdviceTables(db.knex);
    await db.knex.raw(`insert into authors (name, email, status, created_at)
      select 'author ' || md5(g::text), 'a' || g || '@example.com',
        case when g % 100 = 0 then 'banned' when g % 3 = 0 then 'inactive' else 'active' end,
        timestamptz '2020-01-01' + g * interval '1 minute'
      from generate_series(1, 50000) as g`);
    await db.knex.raw(`insert into books (author_id, title, status, pages)
      select 1 + g % 50000, 'book ' || g, case when g % 2 = 0 then 'draft' else 'published' end, g % 500
      from generate_series(1, 150000) as g`);
    await db.knex.raw('analyze authors, books');
  });

  afterEach(async function () {
    await app?.close();
    app = undefined;
  });

  after(async function () {
    await db?.destroy();
  });

  const scansOf = async (query: string): Promise<string[]> => {
    app ??= await startApp(db.knex, { collections, admin: { explain: true }, authorize: () => true, indexAdvice: false });
    const res = await supertest(app.origin).get(`/api/_explain/authors?${query}&explain=plan`);
    expectOk(res);
    return scans(objectOf(res).plan);
  };

  it('the command prints every advised statement for a migration', function () {
    const run = runCommand(['indexes', '--url', url, '--models', join(__dirname, 'index-advice-models.js')]);
    expect(run.stderr).to.equal('');
    expect(run.status).to.equal(0);
    expect(run.stdout).to.match(/^-- koa-query-modifiers: 11 indexes the declarations need\n/);
    expect(run.stdout).to.include('\nCREATE EXTENSION IF NOT EXISTS pg_trgm;\n');
    expect(run.stdout).to.include('\n-- authors\n-- serves authors: sort[name]=asc\n');
    expect(run.stdout).to.include('CREATE INDEX CONCURRENTLY IF NOT EXISTS "authors_name_desc_id_idx" ON "authors" ("name" DESC, "id");\n');
    expect(run.stdout.match(/^CREATE INDEX CONCURRENTLY .*;$/gm)).to.have.length(11);
  });

  it('the command reads an ES module host the same way', function () {
    const dir = mkdtempSync(join(tmpdir(), 'kqm-advice-'));
    try {
      const models = join(dir, 'models.mjs');
      writeFileSync(
        models,
        `export { collections } from ${JSON.stringify(pathToFileURL(join(__dirname, 'index-advice-models.js')).href)};\n`,
      );
      const esm = runCommand(['indexes', '--url', url, '--models', models]);
      expect(esm.stderr).to.equal('');
      expect(esm.stdout).to.equal(runCommand(['indexes', '--url', url, '--models', join(__dirname, 'index-advice-models.js')]).stdout);
      expect(esm.stdout).to.include('"authors_name_trgm_idx"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the command refuses a call without models, with its usage', function () {
    const run = runCommand(['indexes', '--url', url]);
    expect(run.status).to.equal(2);
    expect(run.stderr).to.include('--models is required').and.include('Usage: koa-query-modifiers indexes');
  });

  it('before the advice, explain names the large table a plan reads whole, with the advice on it', async function () {
    const marking = await startApp(db.knex, {
      collections,
      admin: { explain: true },
      authorize: () => true,
      indexAdvice: { minRows: 40000 },
    });
    try {
      const res = await supertest(marking.origin).get('/api/_explain/authors?sort[name]=desc&limit=20&explain=plan');
      expectOk(res);
      const seqScans = objectOf(res).seqScans as { table: string; rows: number; indexes: { statement: string; serves: string[] }[] }[];
      expect(seqScans.map(({ table, rows }) => ({ table, rows }))).to.deep.equal([{ table: 'authors', rows: 50000 }]);
      expect(seqScans[0]?.indexes.map((index) => index.serves.join())).to.deep.equal([
        'authors: sort[name]=asc',
        'authors: sort[name]=desc',
        'authors: sort[created_at]=asc',
        'authors: sort[created_at]=desc',
        'authors: sort[email]=asc',
        'authors: sort[email]=desc',
        'authors: sort[nickname]=asc',
        'authors: sort[nickname]=desc',
        'authors: filter[status]',
        'authors: search[name]',
      ]);
      const without = await supertest(marking.origin).get('/api/_explain/authors?sort[name]=desc&limit=20');
      expect(objectOf(without)).not.to.have.property('seqScans');
    } finally {
      await marking.close();
    }
  });

  it('before the advice, a sort reads the whole table', async function () {
    const plan = await scansOf('sort[name]=desc&limit=20');
    expect(plan.join()).to.match(/Seq Scan authors/);
    expect(plan.join()).not.to.include('Index');
  });

  it('after it, a sort, filters and a search read the advised indexes', async function () {
    const router = await queryModifiers({ knex: db.knex, collections, cursorSecret: SECRET, indexAdvice: false });
    // CONCURRENTLY cannot run inside a transaction: each statement on its own.
    for (const statement of (await router.indexAdvice()).statements) await db.knex.raw(statement);
    expect(await scansOf('sort[name]=desc&limit=20')).to.deep.equal(['Index Scan authors authors_name_desc_id_idx']);
    expect(await scansOf('sort[created_at]=asc&limit=20&offset=100')).to.deep.equal(['Index Scan authors authors_created_at_id_idx']);
    expect(await scansOf('filter[status]=banned&limit=20')).to.deep.equal(['Index Scan authors authors_status_id_idx']);
    const filteredSort = await scansOf('filter[status]=banned&sort[created_at]=desc&limit=20');
    expect(filteredSort).to.have.length.above(0);
    expect(filteredSort.join()).to.match(/Index Scan (authors )?authors_(status_id|created_at_desc_id)_idx/);
    for (const node of filteredSort) {
      expect(node).to.match(
        /^(Index Scan authors authors_(status_id|created_at_desc_id)_idx|Bitmap Heap Scan authors|Bitmap Index Scan authors_status_id_idx|(Incremental )?Sort)$/,
      );
    }
    expect((await scansOf('search[name]=3f2a1&limit=20')).join()).to.include('Bitmap Index Scan authors_name_trgm_idx');
  });

  it('after it, explain names no sequential scan', async function () {
    const marking = await startApp(db.knex, { collections, admin: { explain: true }, authorize: () => true, indexAdvice: { minRows: 0 } });
    try {
      const res = await supertest(marking.origin).get('/api/_explain/authors?sort[name]=desc&limit=20&explain=plan');
      expectOk(res);
      expect(objectOf(res)).not.to.have.property('seqScans');
    } finally {
      await marking.close();
    }
  });

  it("after it, an expansion's related rows are read through the advised index", async function () {
    const plan = await scansOf('limit=20&expand[books]');
    expect(plan.filter((scan) => scan.includes('books'))).to.deep.equal(['Index Scan books books_author_id_idx']);
  });

  it('after it, the command has no advice', function () {
    const run = runCommand(['indexes', '--url', url, '--models', join(__dirname, 'index-advice-models.js')]);
    expect(run.status).to.equal(0);
    expect(run.stdout).to.equal('-- koa-query-modifiers: no index advice: every index the declarations need exists\n');
  });
});
