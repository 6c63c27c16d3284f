// The explain view (`<prefix>/_explain/<collection>`): the exact statements a request runs and, on
// demand, PostgreSQL's plan of each, even when column names hold `?` or `$1`.

import { expect } from 'chai';
import { Model } from 'objection';
import { objectOf, rowsOf, startApp, expectOk, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections } from '../support/fixture';
import supertest from 'supertest';

/** A table whose column names knex would read as placeholders if it parsed them. */
class OddName extends Model {
  static override tableName = 'odd_names';
}

// `\\?` keeps knex from reading the `?` of these statements as placeholders.
const oddSchema = [
  'create table odd_names (id serial primary key, "a\\?b" text not null, "$1" text null, "c$2\\?" integer not null)',
  `insert into odd_names ("a\\?b", "$1", "c$2\\?") values ('x', 'one', 1), ('x', 'two', 2), ('y', null, 3)`,
];

interface Explained {
  readonly statements: { readonly sql: string; readonly bindings: unknown[] }[];
  readonly plan?: unknown[];
}

describe('explain', function () {
  describe('column names holding ? and $1', function () {
    let db: TestDatabase | undefined;
    let app: TestApp | undefined;
    const get = (path: string) => supertest(app?.origin ?? '').get(path);

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase();
      for (const statement of oddSchema) await db.knex.raw(statement);
      app = await startApp(db.knex, { collections: { ...collections, odd: OddName }, admin: { explain: true } });
    });

    after(async function () {
      this.timeout(60000);
      await app?.close();
      await db?.destroy();
    });

    const query = 'filter[a%3Fb]=x&in[c%242%3F]=1,2,3&sort[%241]=desc&fields=id,a%3Fb,%241';

    it('the collection route reads them', async function () {
      const res = await get(`/api/odd?${query}`);
      expectOk(res);
      expect(rowsOf(res)).to.deep.equal([{ id: 2, 'a?b': 'x', $1: 'two' }, { id: 1, 'a?b': 'x', $1: 'one' }]);
    });

    it('explains them, and plans each statement exactly as it ran', async function () {
      const res = await get(`/api/_explain/odd?${query}&per-page=1&explain=plan`);
      expectOk(res);
      const explained = objectOf(res) as unknown as Explained;
      expect(explained.statements.map((s) => s.sql)).to.have.length(2);
      expect(explained.statements[0]?.sql).to.include('"a?b"').and.include('"$1"').and.include('"c$2?"');
      expect(explained.statements[0]?.bindings).to.deep.equal(['x', 1, 2, 3, 1]);
      expect(explained.plan).to.have.length(2);
      for (const plan of explained.plan ?? []) expect(JSON.stringify(plan)).to.include('"Relation Name":"odd_names"');
    });
  });
});
