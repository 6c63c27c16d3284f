// Index advice (docs/installing.md#10-indexes-for-your-declarations): on tables with primary keys
// only, the exact statements the declarations need; an existing index that serves a need (read
// backwards, longer, unique, trigram on the column) silences it, one that does not (a prefix, a
// partial index) does not; once applied there is no advice and no start-up warning; and on
// PostgreSQL with enough rows the plans of a sort, a filter with a sort, a search and an expansion
// use the advised indexes.

import { expect } from 'chai';
import { queryModifiers, type IndexAdviceReport } from '../../plugin';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections as demoCollections } from '../../server/demo/models';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { collections, createAdviceTables, dropAdviceTables } from './index-advice-models';

const SECRET = 'the index advice suite seals no cursor, but says so';

const create = (name: string, on: string) => `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON ${on}`;

const EXPECTED: readonly (readonly [string, readonly string[]])[] = [
  [create('authors_name_id_idx', '"authors" ("name", "id")'), ['authors: sort[name]=asc']],
  [create('authors_name_desc_id_idx', '"authors" ("name" DESC, "id")'), ['authors: sort[name]=desc']],
  [create('authors_created_at_id_idx', '"authors" ("created_at", "id")'), ['authors: sort[created_at]=asc']],
  [create('authors_created_at_desc_id_idx', '"authors" ("created_at" DESC, "id")'), ['authors: sort[created_at]=desc']],
  [create('authors_email_id_idx', '"authors" ("email", "id")'), ['authors: sort[email]=asc']],
  [create('authors_email_desc_id_idx', '"authors" ("email" DESC, "id")'), ['authors: sort[email]=desc']],
  [create('authors_nickname_id_idx', '"authors" ("nickname", "id")'), ['authors: sort[nickname]=asc']],
  [create('authors_nickname_desc_id_idx', '"authors" ("nickname" DESC, "id")'), ['authors: sort[nickname]=desc']],
  [create('authors_status_id_idx', '"authors" ("status", "id")'), ['authors: filter[status]']],
  [create('authors_name_trgm_idx', '"authors" USING gin (lower("name") gin_trgm_ops)'), ['authors: search[name]']],
  [
    create('books_author_id_idx', '"books" ("author_id")'),
    [
      'authors: expand[books]',
      'authors: has[books]',
      'authors: count[books]',
      'authors: filter[books.…]',
      'books: expand[author]',
      'books: has[author]',
      'books: filter[author.…]',
    ],
  ],
];

describe('index advice', function () {
  this.timeout(120000);
  let db: TestDatabase;

  before(async function () {
    db = await createTestDatabase({ empty: true, trigram: true });
  });

  after(async function () {
    await db?.destroy();
  });

  const advise = async (): Promise<IndexAdviceReport> =>
    (await queryModifiers({ knex: db.knex, collections, cursorSecret: SECRET, indexAdvice: false })).indexAdvice();

  /** The warnings queryModifiers() logs at start-up with these options. */
  const startUpWarnings = async (indexAdvice?: false | { minRows?: number }): Promise<string[]> => {
    const warnings: string[] = [];
    const logger = { error: (message: string) => warnings.push(`error: ${message}`), warn: (message: string) => warnings.push(message) };
    await queryModifiers({
      knex: db.knex,
      collections,
      logger,
      cursorSecret: SECRET,
      ...(indexAdvice === undefined ? {} : { indexAdvice }),
    });
    return warnings;
  };

  /** Runs each statement on its own, outside any transaction: CONCURRENTLY refuses to run inside one. */
  const apply = async (statements: readonly string[]) => {
    for (const statement of statements) await db.knex.raw(statement);
  };

  describe('on tables with primary keys only', function () {
    before(async function () {
      await createAdviceTables(db.knex);
    });

    after(async function () {
      await dropAdviceTables(db.knex);
    });

    it('lists exactly the statements the declarations need, pg_trgm first', async function () {
      const report = await advise();
      expect(report.indexes.map((index) => [index.statement, index.serves])).to.deep.equal(EXPECTED);
      expect(report.statements).to.deep.equal(['CREATE EXTENSION IF NOT EXISTS pg_trgm', ...EXPECTED.map(([statement]) => statement)]);
      expect(report.indexes.map((index) => index.collection)).to.deep.equal([...EXPECTED.map(() => 'authors')]);
      expect(report.indexes.at(-1)?.collections).to.deep.equal(['authors', 'books']);
    });

    it('warns at start-up once per collection lacking an index, above minRows only', async function () {
      const warnings = await startUpWarnings({ minRows: 0 });
      expect(warnings).to.have.length(2);
      expect(warnings[0]).to.match(
        /^koa-query-modifiers: collection "authors" lacks 11 indexes its declarations need .*router\.indexAdvice\(\)/,
      );
      expect(warnings[1]).to.match(/^koa-query-modifiers: collection "books" lacks 1 index its declarations need/);
      expect(await startUpWarnings()).to.deep.equal([]);
      expect(await startUpWarnings(false)).to.deep.equal([]);
    });

    it('counts an existing index that serves a need, and only such an index', async function () {
      await db.knex.raw('create extension if not exists pg_trgm');
      // Serves sort[name]=asc read backwards; not sort[name]=desc, whose id is ascending.
      await db.knex.raw('create index authors_name_back on authors (name desc, id desc, email)');
      // Unique on a NOT NULL column: nothing is left for the id to order.
      await db.knex.raw('create unique index authors_email_key on authors (email)');
      // Unique, but NULLs are many: the id still orders them.
      await db.knex.raw('create unique index authors_nickname_key on authors (nickname)');
      // A prefix of (status, id) and a partial index serve neither the filter with its order nor the sort.
      await db.knex.raw('create index authors_status_only on authors (status)');
      await db.knex.raw(`create index authors_created_active on authors (created_at, id) where status = 'active'`);
      await db.knex.raw('create index books_author_pages on books (author_id, pages)');
      await db.knex.raw('create index authors_name_plain_trgm on authors using gin (name gin_trgm_ops)');
      const report = await advise();
      expect(report.statements).to.deep.equal([1, 2, 3, 6, 7, 8].map((i) => EXPECTED[i]?.[0]));
    });
  });

  describe('applied', function () {
    before(async function () {
      await createAdviceTables(db.knex);
    });

    after(async function () {
      await dropAdviceTables(db.knex);
    });

    it('leaves no advice and no start-up warning', async function () {
      await apply((await advise()).statements);
      const report = await advise();
      expect(report.statements).to.deep.equal([]);
      expect(report.indexes).to.deep.equal([]);
      expect(await startUpWarnings({ minRows: 0 })).to.deep.equal([]);
    });
  });

  describe('the demo', function () {
    it('creates every index the advice asks of its models, and warns about none', async function () {
      await prepareDemoDatabase(db.knex);
      const router = await queryModifiers({ knex: db.knex, collections: demoCollections, cursorSecret: SECRET, indexAdvice: false });
      expect((await router.indexAdvice()).statements).to.deep.equal([]);
      const warnings: string[] = [];
      const logger = { error: (message: string) => warnings.push(message), warn: (message: string) => warnings.push(message) };
      await queryModifiers({ knex: db.knex, collections: demoCollections, cursorSecret: SECRET, logger, indexAdvice: { minRows: 0 } });
      expect(warnings).to.deep.equal([]);
    });
  });
});
