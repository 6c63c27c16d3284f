// The plugin inside a host application's own setup
// (docs/configuration.md, "Your models as they are"): its name mappers (on the models, or on Knex),
// `$formatJson` and virtual attributes, tables in another schema, join table extras, a second copy
// of objection, async tenant scopes keyed by model, and start-up checks that name the model instead
// of failing a request later.

import { expect } from 'chai';
import type { Knex } from 'knex';
import Koa from 'koa';
import * as objection from 'objection';
import supertest from 'supertest';
import { queryModifiers, type QueryModifiersOptions } from '../../plugin';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { hostModels, loadHostFixture, type HostModels, type NameMapping } from '../support/host-fixture';

/** objection loaded again from disk: the classes of a host that has its own copy of objection. */
function secondObjection(): typeof objection {
  const isObjection = (key: string) => /[\\/]node_modules[\\/]objection[\\/]/.test(key);
  const saved = Object.entries(require.cache).filter(([key]) => isObjection(key));
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- require.cache is keyed by file path; deleting an entry is how a module is loaded afresh
  for (const [key] of saved) delete require.cache[key];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const copy = require('objection') as typeof objection;
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- as above
  for (const key of Object.keys(require.cache)) if (isObjection(key)) delete require.cache[key];
  for (const [key, module] of saved) require.cache[key] = module;
  return copy;
}

const tenants: Readonly<Record<string, number>> = { acme: 1, globex: 2 };

/** A tenant lookup that takes a moment, as a host's database or cache lookup does. */
async function tenantOf(ctx: Koa.Context): Promise<number> {
  await new Promise((resolveSoon) => setTimeout(resolveSoon, 2));
  const name = ctx.get('x-tenant');
  if (name === 'broken') throw new Error('tenant service down');
  return tenants[name] ?? 0;
}

/** The documented pattern: restrict every tenant-owned model wherever it appears. */
const scopeModel: QueryModifiersOptions['scopeModel'] = async (ctx, model, query) => {
  if (model.tableName === 'cms.authors' || model.tableName === 'cms.articles') {
    query.where(`${model.tableName}.tenant_id`, await tenantOf(ctx));
  }
};

interface Host {
  readonly request: (path: string, tenant?: string) => supertest.Test;
  readonly close: () => Promise<void>;
}

async function startHost(knex: Knex, models: HostModels, options: Partial<QueryModifiersOptions> = {}): Promise<Host> {
  const router = await queryModifiers({
    knex,
    collections: { authors: models.Author, articles: models.Article, tags: models.Tag, places: models.Place },
    admin: { explain: true },
    ...options,
  });
  const app = new Koa();
  app.silent = true;
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolveListen) => server.once('listening', resolveListen));
  const agent = supertest(server);
  return {
    request: (path, tenant = 'acme') => agent.get(path).set('x-tenant', tenant),
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
}

const setups: readonly { mapping: NameMapping; copy: string }[] = [
  { mapping: 'model', copy: "the plugin's objection" },
  { mapping: 'knex', copy: 'a second copy of objection' },
];

for (const { mapping, copy } of setups) {
  describe(`host fit: names mapped by ${mapping === 'model' ? 'the models' : 'Knex'}, models from ${copy}`, function () {
    let db: TestDatabase;
    let knex: Knex;
    let models: HostModels;
    let host: Host;

    before(async function () {
      this.timeout(120000);
      db = await createTestDatabase({ empty: true });
      await loadHostFixture(db.knex);
      const lib = mapping === 'model' ? objection : secondObjection();
      if (mapping === 'knex') expect(lib.Model).not.to.equal(objection.Model);
      knex = mapping === 'model' ? db.knex : db.connectWith(objection.knexSnakeCaseMappers());
      models = hostModels(lib, mapping);
      host = await startHost(knex, models, { scopeModel });
    });

    after(async function () {
      await host?.close();
      await db?.destroy();
    });

    const body = async (path: string, tenant?: string): Promise<unknown> => {
      const res = await host.request(path, tenant);
      if (res.status !== 200) expect.fail(`${path}: ${res.status} ${res.text}`);
      return res.body;
    };

    it('refuses a declaration that names a column by its database name, and names the property to declare instead', async function () {
      class SnakeArticle extends models.Article {
        static getProjectableFields(): string[] {
          return ['id', 'title', 'author_id'];
        }

        static getSortableFields(): string[] {
          return ['tenant_id'];
        }
      }
      const failure = await queryModifiers({ knex, collections: { articles: SnakeArticle } }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      const lines = (failure?.message ?? '').split('\n');
      expect(lines).to.include(
        '- SnakeArticle.getProjectableFields() names "author_id", which is not a column of table "cms.articles" or a virtual attribute of ' +
          'SnakeArticle; "author_id" is the column of the field "authorId": declarations name fields by property name, declare "authorId"',
      );
      expect(lines).to.include(
        '- SnakeArticle.getSortableFields() names "tenant_id", which is not a projectable field of SnakeArticle; "tenant_id" is the column ' +
          'of the field "tenantId": declarations name fields by property name, declare "tenantId"',
      );
    });

    it("speaks the models' property names in fields, conditions and sort", async function () {
      expect(await body('/api/authors?fields=id,firstName,lastName&filter[lastName]=<>Lee&sort[firstName]=desc')).to.deep.equal([
        { id: 2, firstName: 'Bob', lastName: 'Stone' },
      ]);
      const res = await host.request('/api/authors?filter[first_name]=Ann');
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('FIELD_NOT_ALLOWED');
    });

    it("gives each record the model's own JSON: redaction and virtual attributes", async function () {
      expect(await body('/api/authors?fields=fullName,email&filter[id]=1')).to.deep.equal([
        { fullName: 'Ann Lee', email: 'a***@example.com' },
      ]);
      expect(await body('/api/articles?fields=id&filter[id]=3&expand[author]=a&a_fields=fullName,email')).to.deep.equal([
        { id: 3, author: { fullName: 'Bob Stone', email: 'b***@example.com' } },
      ]);
      for (const path of ['/api/authors?sort[fullName]', '/api/authors?filter[fullName]=Ann+Lee', '/api/authors?search[fullName]=Ann']) {
        const res = await host.request(path);
        expect(res.status, path).to.equal(400);
        expect(res.body.code, path).to.equal('FIELD_NOT_ALLOWED');
      }
    });

    it('keeps columns out that the model does not list, even when its JSON is built from every column', async function () {
      const [record] = (await body('/api/authors?filter[id]=1')) as Record<string, unknown>[];
      expect(record).to.deep.equal({ id: 1, firstName: 'Ann', lastName: 'Lee', email: 'a***@example.com', fullName: 'Ann Lee' });
    });

    it('follows every kind of relation through tables in two schemas', async function () {
      const articles = await body('/api/articles?fields=id&expand[author]=a&a_fields=firstName&expand[firstTag]=f&f_fields=label');
      expect(articles).to.deep.equal([
        { id: 1, author: { firstName: 'Ann' }, firstTag: { label: 'tech' } },
        { id: 3, author: { firstName: 'Bob' }, firstTag: { label: 'news' } },
      ]);
      const authors = await body('/api/authors?fields=id&expand[profile]=p&p_fields=bio');
      expect(authors).to.deep.equal([
        { id: 1, profile: { bio: 'Writes about cities' } },
        { id: 2, profile: null },
      ]);
    });

    it("projects, sorts and filters a join table's extra columns through the alias", async function () {
      const rows = await body('/api/articles?fields=id&filter[id]=1&expand[tags]=t&t_fields=label,position,isPrimary&t_sort[position]');
      expect(rows).to.deep.equal([
        {
          id: 1,
          tags: [
            { label: 'life', position: 1, isPrimary: true },
            { label: 'tech', position: 2, isPrimary: false },
          ],
        },
      ]);
      const primary = await body('/api/articles?fields=id&expand[tags]=t&t_fields=label&t_filter[isPrimary]=true');
      expect(primary).to.deep.equal([
        { id: 1, tags: [{ label: 'life' }] },
        { id: 3, tags: [{ label: 'news' }] },
      ]);
    });

    it('restricts a tenant-owned model wherever it appears: root, every relation onto it, counts', async function () {
      expect(await body('/api/authors?fields=id')).to.deep.equal([{ id: 1 }, { id: 2 }]);
      expect(await body('/api/authors?fields=id&expand[articles]=a&a_fields=id&expand[editedArticles]=e&e_fields=id')).to.deep.equal([
        { id: 1, articles: [{ id: 1 }], editedArticles: [{ id: 3 }] },
        { id: 2, articles: [{ id: 3 }], editedArticles: [{ id: 1 }] },
      ]);
      expect(await body('/api/authors?fields=id', 'globex')).to.deep.equal([{ id: 3 }]);
      expect(await body('/api/articles?fields=id&expand[author]=a&a_fields=id', 'globex')).to.deep.equal([
        { id: 2, author: null },
        { id: 4, author: { id: 3 } },
      ]);
      // A full first page needs the count, which the scope restricts too.
      const page = (await body('/api/articles?fields=id&per-page=1')) as Record<string, unknown>;
      expect(page.total).to.equal(2);
    });

    it('reaches relations from conditions and counts: join table extras, redacted records, tenant scopes', async function () {
      // Ann's article 2 and the article 4 she edits belong to tenant 2: never counted for acme.
      expect(await body('/api/authors?fields=fullName,email&count[articles]&count[editedArticles]')).to.deep.equal([
        { fullName: 'Ann Lee', email: 'a***@example.com', articles_count: 1, editedArticles_count: 1 },
        { fullName: 'Bob Stone', email: 'b***@example.com', articles_count: 1, editedArticles_count: 1 },
      ]);
      // Tags through cms.article_tags, its extra isPrimary a condition inside the subquery.
      expect(await body('/api/articles?fields=id&count[tags]=t&t_filter[isPrimary]=true&sort[tags_count]=desc')).to.deep.equal([
        { id: 1, tags_count: 1 },
        { id: 3, tags_count: 1 },
      ]);
      expect(await body('/api/articles?fields=id&filter[tags.isPrimary]=false')).to.deep.equal([{ id: 1 }]);
      expect(await body('/api/articles?fields=id&has![tags]=t&t_filter[isPrimary]=false')).to.deep.equal([{ id: 3 }]);
      // Article 2's author is tenant 1's: hidden from globex, so it has no author there.
      expect(await body('/api/articles?fields=id&has![author]', 'globex')).to.deep.equal([{ id: 2 }]);
    });

    it('shows the restriction in explain', async function () {
      const explained = (await body('/api/_explain/authors?expand[articles]=a')) as { statements: { sql: string; bindings: unknown[] }[] };
      expect(explained.statements).to.have.length(2);
      for (const statement of explained.statements) expect(statement.sql).to.include('tenant_id');
    });

    it('answers 500, never unrestricted rows, when an async scope fails', async function () {
      const res = await host.request('/api/articles?fields=id', 'broken');
      expect(res.status).to.equal(500);
      expect(res.text).not.to.include('Secret');
    });

    it('leaves types without an ordering out of the sortable fields', async function () {
      const res = await host.request('/api/places?sort[location]');
      expect(res.status).to.equal(400);
      expect(res.body.allowed).to.deep.equal(['id', 'name', 'data']);
      expect(await body('/api/places?fields=id&sort[data]=desc')).to.deep.equal([{ id: 1 }, { id: 2 }]);
    });
  });
}

describe('host fit: hooks and declarations', function () {
  let db: TestDatabase;
  let models: HostModels;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ empty: true });
    await loadHostFixture(db.knex);
    models = hostModels(objection, 'model');
  });

  after(async function () {
    await db?.destroy();
  });

  it('awaits an async scope hook before running the query', async function () {
    const host = await startHost(db.knex, models, {
      scope: async (ctx, collection, query) => {
        const tenant = await tenantOf(ctx);
        if (collection === 'articles') query.where('cms.articles.tenant_id', tenant);
      },
    });
    try {
      const res = await host.request('/api/articles?fields=id&per-page=1');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([{ id: 1 }]);
      expect(res.body.total).to.equal(2);
    } finally {
      await host.close();
    }
  });

  it('refuses to start when a relation joins on a column that does not exist', async function () {
    const { Model } = objection;
    class Broken extends models.Author {
      static override get relationMappings(): objection.RelationMappings {
        return {
          articles: {
            relation: Model.HasManyRelation,
            modelClass: models.Article,
            join: { from: 'cms.authors.id', to: 'cms.articles.writer_id' },
          },
        };
      }

      static getExpandableRelations() {
        return { articles: { options: {} } };
      }
    }
    const failure = await queryModifiers({ knex: db.knex, collections: { authors: Broken } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.include('Broken.getExpandableRelations().articles').and.include('"writer_id"');
  });

  it('refuses to start when idColumn is not a column', async function () {
    class NoId extends models.Tag {
      static override idColumn = 'uid';
    }
    const failure = await queryModifiers({ knex: db.knex, collections: { tags: NoId } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.include('NoId.idColumn').and.include('"uid"');
  });

  it('refuses to start when an unorderable column is declared sortable', async function () {
    class SortedPlace extends models.Place {
      static getSortableFields(): string[] {
        return ['location'];
      }
    }
    const failure = await queryModifiers({ knex: db.knex, collections: { places: SortedPlace } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.include('SortedPlace.getSortableFields()').and.include('"location"');
  });

  it('finds tables through the Knex searchPath', async function () {
    const searching = db.connectWith({ searchPath: ['cms', 'public'] });
    class Article extends objection.Model {
      static override tableName = 'articles';
    }
    const host = await startHost(searching, { ...models, Article });
    try {
      const res = await host.request('/api/articles?fields=id,title&filter[id]=4');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal([{ id: 4, title: 'Other tenant' }]);
    } finally {
      await host.close();
    }
  });

  it('refuses models that do not come from objection', async function () {
    // eslint-disable-next-line @typescript-eslint/no-extraneous-class -- the point of the test: a class with a model's statics that is no model
    class NotAModel {
      static tableName = 'tags';
      static query(): void {}
    }
    const failure = await queryModifiers({ knex: db.knex, collections: { tags: NotAModel as unknown as typeof objection.Model } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.include('NotAModel comes from an objection without');
  });
});
