// How `search` compares a field, chosen at start-up from the table's indexes (issue 16): ILIKE where a
// trigram index on the column serves it, lower(column) LIKE lower(pattern) everywhere else. Both find
// the same records, letters outside ASCII included, and explain says which form each field uses.

import { expect } from 'chai';
import supertest from 'supertest';
import { idsOf, objectOf, rowsOf, startApp, expectOk, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';

interface Explained {
  readonly statements: { readonly sql: string }[];
  readonly search?: { scope: string; field: string; form: string; index: string | null }[];
}

const explainOn = { admin: { explain: true }, authorize: (): boolean => true };

// Names whose upper and lower case differ outside ASCII (ids past the fixture's 23).
const NAMES: readonly [number, string][] = [
  [101, 'Ärger Ölmann'],
  [102, 'İpek Işık'],
  [103, 'STRASSE Weiß'],
  [104, 'ΣΟΦΊΑ Παπά'],
  [105, 'ǅoko Ǆ'],
  [106, 'Łukasz Żółw'],
];

// Terms in the other case, the dotted and dotless i, sharp s against SS, final sigma.
const TERMS = ['ä', 'ÄRGER', 'ölm', 'i̇', 'İ', 'ı', 'işik', 'weiss', 'WEIß', 'σοφία', 'ς', 'ǆ', 'ǲ', 'ŁUKASZ', 'żółw', 'an'];

describe('search forms', function () {
  let db: TestDatabase;
  let app: TestApp | undefined;

  before(async function () {
    db = await createTestDatabase({ trigram: true });
    for (const [id, name] of NAMES) {
      await db.knex('users').insert({
        id,
        name,
        email: `u${id}@example.com`,
        password_hash: 'x',
        created_at: '2025-05-01T00:00:00Z',
        updated_at: '2025-05-01T00:00:00Z',
      });
    }
  });

  afterEach(async function () {
    await app?.close();
    app = undefined;
  });

  after(async function () {
    await db.destroy();
  });

  const explain = async (qs: string): Promise<Explained> => {
    const res = await supertest((app as TestApp).origin).get(`/api/_explain/users?${qs}`);
    expectOk(res);
    return objectOf(res) as unknown as Explained;
  };

  /** The ids each term finds in `name`, searched alone and together with `email`. */
  const found = async (): Promise<number[][]> => {
    const results: number[][] = [];
    for (const term of TERMS) {
      for (const fields of ['name', 'name,email']) {
        const res = await supertest((app as TestApp).origin).get(
          `/api/users?fields=id&search[${fields}]=${encodeURIComponent(term)}&limit=100`,
        );
        expectOk(res);
        results.push(idsOf(rowsOf(res)));
      }
    }
    return results;
  };

  let withoutIndex: number[][] = [];

  it('without an index: lower() LIKE lower(), and explain says so', async function () {
    app = await startApp(db.knex, explainOn);
    const explained = await explain('search[name,email]=ann');
    expect(explained.statements[0]?.sql).to.include('(lower("users"."name") LIKE lower($1) OR lower("users"."email") LIKE lower($2))');
    expect(explained.search).to.deep.equal([
      { scope: 'users', field: 'name', form: 'lower() LIKE lower()', index: null },
      { scope: 'users', field: 'email', form: 'lower() LIKE lower()', index: null },
    ]);
    withoutIndex = await found();
    // Case-insensitive outside ASCII, under the database's lower().
    expect(withoutIndex[TERMS.indexOf('ä') * 2]).to.deep.equal([101]);
    expect(withoutIndex[TERMS.indexOf('ÄRGER') * 2]).to.deep.equal([101]);
    expect(withoutIndex[TERMS.indexOf('σοφία') * 2]).to.deep.equal([104]);
    expect(withoutIndex[TERMS.indexOf('ŁUKASZ') * 2]).to.deep.equal([106]);
    expect(withoutIndex[TERMS.indexOf('an') * 2]).to.include.members([4, 8, 11, 101]);
  });

  it('with a trigram index on the column: ILIKE, named in explain; the same records for every term', async function () {
    await db.knex.raw('create extension if not exists pg_trgm');
    await db.knex.raw('create index users_name_trgm on users using gin (name gin_trgm_ops)');
    // Chosen at start-up: a router built now sees the index.
    app = await startApp(db.knex, explainOn);
    const explained = await explain('search[name,email]=ann&expand[posts]=p&p_search[title]=x');
    expect(explained.statements[0]?.sql).to.include('("users"."name" ILIKE $1 OR lower("users"."email") LIKE lower($2))');
    expect(explained.search).to.deep.equal([
      { scope: 'users', field: 'name', form: 'ILIKE', index: 'users_name_trgm' },
      { scope: 'users', field: 'email', form: 'lower() LIKE lower()', index: null },
      { scope: 'users.posts', field: 'title', form: 'lower() LIKE lower()', index: null },
    ]);
    expect(await found()).to.deep.equal(withoutIndex);
  });

  it('an index on lower(column) is served by the lower form, and named', async function () {
    await db.knex.raw('create index users_email_lower on users (lower(email) text_pattern_ops)');
    app = await startApp(db.knex, explainOn);
    expect((await explain('search[email]=ann*')).search).to.deep.equal([
      { scope: 'users', field: 'email', form: 'lower() LIKE lower()', index: 'users_email_lower' },
    ]);
    expect(await found()).to.deep.equal(withoutIndex);
  });
});
