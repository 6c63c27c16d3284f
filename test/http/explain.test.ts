// The explain view (`<prefix>/_explain/<collection>`): off unless the host turns it on and its
// authorize hook answers `true` to `'_explain'` (it shows what the API hides); the exact statements a
// request runs and, on demand, PostgreSQL's plan of each, even when column names hold `?` or `$1`.

import { expect } from 'chai';
import type { Context } from 'koa';
import { Model } from 'objection';
import type { ModelQuery } from '../../plugin';
import { objectOf, rowsOf, startApp, expectOk, useApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections } from '../support/fixture';
import { expectProblem } from '../support/problems';
import supertest from 'supertest';
import { withoutBudget } from '../support/budget';

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

/** A host whose hook lets everyone read everything, and whose scope restricts users to one record. */
const allowEverything = {
  authorize: (): boolean => true,
  scope: (_ctx: Context, _label: string, query: ModelQuery): void => {
    query.where('users.id', 7);
  },
};

describe('explain', function () {
  describe('off by default, even when authorize allows everything', function () {
    const h = useApp({ admin: {}, ...allowEverything });

    it('is not served, and _meta says so', async function () {
      expectProblem(await h.get('/api/_explain/users?filter[id]=1'), { code: 'UNKNOWN_COLLECTION' });
      expect(objectOf(await h.get('/api/_meta')).explain).to.equal(false);
      expect(await h.userIds('fields=id')).to.deep.equal([7]);
    });
  });

  describe('turned on by the host, for whom authorize answers true to _explain', function () {
    const h = useApp({ admin: { explain: true }, ...allowEverything });

    it('shows the statements, scope conditions and their values included', async function () {
      const res = await h.get('/api/_explain/users?fields=id');
      expectOk(res);
      const [statement] = (objectOf(res) as unknown as Explained).statements;
      expect(statement?.sql).to.include('"users"."id" = $1');
      expect(statement?.bindings[0]).to.equal(7);
      expect(objectOf(await h.get('/api/_meta')).explain).to.equal(true);
    });

    it('formats timestamps and numerics of the returned rows only, outside the statement that skips rows', async function () {
      const res = await h.get('/api/_explain/users?sort[created_at]=desc&fields=id,score,created_at&limit=2&offset=5');
      expectOk(res);
      const [ran] = (objectOf(res) as unknown as Explained).statements;
      // Inside the byte budget's wrapper, as every shown rows statement runs (limits.maxResponseBytes).
      const statement = ran === undefined ? undefined : withoutBudget(ran);
      const sql = statement?.sql ?? '';
      const inner = sql.slice(sql.indexOf(' from (') + 7, sql.lastIndexOf(') as "__kqm_rows"'));
      expect(inner).to.match(
        /^select "users"\.\* from "users" where .* order by "users"\."created_at" desc, "users"\."id" asc limit \$2 offset \$3$/,
      );
      expect(sql).to.match(/^select "id", "score"::text AS "score", to_char\("created_at" AT TIME ZONE 'UTC', /);
      expect(sql).to.match(/ order by "__kqm_rows"\."created_at" desc, "__kqm_rows"\."id" asc$/);
    });
  });

  describe('turned on, but authorize answers otherwise to _explain', function () {
    const answers: Record<string, boolean | { status: 401 }> = { _explain: false, users: true, _meta: true };
    const h = useApp({
      admin: { explain: true },
      authorize: (ctx, question) => {
        if (question === '_explain' && ctx.get('x-role') === 'admin') return true;
        if (question === '_explain' && ctx.get('x-role') === 'guest') {
          ctx.set('WWW-Authenticate', 'Bearer');
          return { status: 401 };
        }
        return answers[question] ?? false;
      },
    });

    it('refuses it, lets the collection be read, and _meta tells the admin UI', async function () {
      expectProblem(await h.get('/api/_explain/users'), { code: 'FORBIDDEN' });
      expectProblem(await h.get('/api/_explain/users').set('x-role', 'guest'), { code: 'UNAUTHORIZED' });
      expectOk(await h.get('/api/users?limit=1'));
      const meta = await h.get('/api/_meta').set('x-role', 'guest');
      expect(objectOf(meta).explain).to.equal(false);
      expect(meta.headers['www-authenticate'], 'a header the hook set while refusing _explain').to.equal(undefined);
    });

    it('needs the collection question answered true as well', async function () {
      expectOk(await h.get('/api/_explain/users').set('x-role', 'admin'));
      expect(objectOf(await h.get('/api/_meta').set('x-role', 'admin')).explain).to.equal(true);
      expectProblem(await h.get('/api/_explain/posts').set('x-role', 'admin'), { code: 'FORBIDDEN' });
    });
  });

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
      expect(rowsOf(res)).to.deep.equal([
        { id: 2, 'a?b': 'x', $1: 'two' },
        { id: 1, 'a?b': 'x', $1: 'one' },
      ]);
    });

    it('explains them, and plans each statement exactly as it ran', async function () {
      const res = await get(`/api/_explain/odd?${query}&per-page=1&explain=plan`);
      expectOk(res);
      const explained = objectOf(res) as unknown as Explained;
      expect(explained.statements.map((s) => s.sql)).to.have.length(2);
      expect(explained.statements[0]?.sql).to.include('"a?b"').and.include('"$1"').and.include('"c$2?"');
      // The last binding is the response's byte budget (limits.maxResponseBytes, 8 MiB by default).
      expect(explained.statements[0]?.bindings).to.deep.equal(['x', 1, 2, 3, 1, 8 * 1024 * 1024]);
      expect(explained.plan).to.have.length(2);
      for (const plan of explained.plan ?? []) expect(JSON.stringify(plan)).to.include('"Relation Name":"odd_names"');
    });
  });
});
