// Unit tests of the apply stage: the SQL and bindings a validated query becomes (no connection).

import { expect } from 'chai';
import knexFactory from 'knex';
import { Model, QueryBuilder } from 'objection';
import { expansionQuery } from '../../plugin/apply/expansions';
import { compileQuery } from '../../plugin/apply/compiled';
import { planQueries, rootStatements, type ModelQuery } from '../../plugin/apply/query';
import type { CollectionCatalog, Column } from '../../plugin/schema';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { validateQuery } from '../../plugin/validate';
import { limits, people, things } from './catalog-stub';
import { expectSameRows } from '../support/same-rows';

const knex = knexFactory({ client: 'pg' });

function sqlOf(qs: string): { sql: string; bindings: readonly unknown[] } {
  const validated = validateQuery(describeQuery(parseQueryString(qs)), people, limits);
  const statements = rootStatements(compileQuery(validated));
  if (statements === undefined) throw new Error('the stub models are plain: their statements are written directly');
  return statements.rows;
}

const whereOf = (qs: string) => {
  const { sql, bindings } = sqlOf(`fields=id&${qs}`);
  return { where: sql.slice(sql.indexOf(' where ') + 7, sql.indexOf(' order by ')), bindings: bindings.slice(0, -1) };
};

describe('apply: SQL', () => {
  it('joins families with AND and groups each with OR of AND-lists', () => {
    expect(whereOf('filter[id]=1&filter[or! name]=a&in[id]=1,2')).to.deep.equal({
      where: '(("people"."id" = ?) OR (("people"."name" = ?) IS NOT TRUE)) and ((("people"."id" IN (?, ?))))',
      bindings: [1, 'a', 1, 2],
    });
  });

  it('uses IS DISTINCT FROM for <> and IS NULL for null', () => {
    expect(whereOf('filter[name]=<>a&filter[and born]=null').where).to.equal(
      '(("people"."name" IS DISTINCT FROM ? AND "people"."born" IS NULL))',
    );
  });

  it('turns date-only bounds on timestamps into half-open day ranges', () => {
    expect(whereOf('between[created_at]=2025-04-01,2025-04-17')).to.deep.equal({
      where: '((("people"."created_at" >= ? AND "people"."created_at" < ?)))',
      bindings: ['2025-04-01T00:00:00Z', '2025-04-18T00:00:00Z'],
    });
    expect(whereOf('filter[created_at]=>2025-04-17').bindings).to.deep.equal(['2025-04-18T00:00:00Z']);
  });

  it('matches null items of in lists with IS NULL', () => {
    expect(whereOf('in[name]=a,null').where).to.equal('((("people"."name" IN (?) OR "people"."name" IS NULL)))');
  });

  it('searches non-text columns through their text form, case-insensitively', () => {
    expect(whereOf('search[name,id]=4').where).to.equal('((("people"."name" ILIKE ? OR "people"."id"::text ILIKE ?)))');
  });

  it('never puts client text into the SQL string', () => {
    const evil = `x'; drop table people; --`;
    const { sql, bindings } = sqlOf(`filter[name]=${encodeURIComponent(evil)}&search[name]=${encodeURIComponent(evil)}`);
    expect(sql).not.to.include('drop');
    expect(bindings).to.include(evil);
  });

  it('selects timestamps, dates, numerics and bigints in exact text form, formatting only the rows a page returns', () => {
    // The inner statement filters, orders and pages the columns as stored; the outer one formats its
    // rows (PostgreSQL would otherwise format every row an offset skips) and keeps their order.
    expect(sqlOf('fields=created_at,born,score,big&sort[created_at]=desc&per-page=10&page=3')).to.deep.equal({
      sql:
        `select to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created_at", ` +
        `to_char("born", 'YYYY-MM-DD') AS "born", "score"::text AS "score", "big"::text AS "big" ` +
        'from (select "people".* from "people" order by "people"."created_at" desc, "people"."id" asc limit ? offset ?) as "__kqm_rows" ' +
        // Qualified: a bare name in the outer order would mean the formatted output column.
        'order by "__kqm_rows"."created_at" desc, "__kqm_rows"."id" asc',
      bindings: [10, 20],
    });
  });

  it('reads a select list with nothing to format in one statement', () => {
    expect(sqlOf('fields=id,name&sort[name]=desc&limit=5&offset=10')).to.deep.equal({
      sql: 'select "people"."id", "people"."name" from "people" order by "people"."name" desc, "people"."id" asc limit ? offset ?',
      bindings: [5, 10],
    });
  });

  it('reads a deep OFFSET page by its keys first, then the records of those keys in the same order', () => {
    expect(sqlOf('fields=id,name&filter[id]=>=5&sort[name]=desc&limit=5&offset=600')).to.deep.equal({
      sql:
        'select "people"."id", "people"."name" from "people" inner join (select "people"."id" as "__kqm_page0" from "people" ' +
        'where (("people"."id" >= ?)) order by "people"."name" desc, "people"."id" asc limit ? offset ?) as "__kqm_page" ' +
        'on "people"."id" = "__kqm_page"."__kqm_page0" order by "people"."name" desc, "people"."id" asc',
      bindings: [5, 5, 600],
    });
    // A shallow page skips too few records for the keys' lookups to pay.
    expect(sqlOf('fields=id,name&sort[name]=desc&limit=5&offset=499').sql).to.not.include('__kqm_page');
  });

  it('fetches one row past maxRows to detect truncation, and pages with limit/offset', () => {
    expect(sqlOf('fields=id').bindings).to.deep.equal([1001]);
    expect(sqlOf('fields=id&per-page=10&page=3').bindings).to.deep.equal([10, 20]);
  });
});

describe('apply: SQL for enums, arrays and JSON', () => {
  const thingsSql = (qs: string) => {
    const statements = rootStatements(compileQuery(validateQuery(describeQuery(parseQueryString(qs)), things, limits)));
    if (statements === undefined) throw new Error('the stub models are plain');
    return statements.rows;
  };
  const thingsWhere = (qs: string) => {
    const { sql, bindings } = thingsSql(`fields=id&${qs}`);
    return { where: sql.slice(sql.indexOf(' where ') + 7, sql.indexOf(' order by ')), bindings: bindings.slice(0, -1) };
  };

  it('casts enum values to the enum named with its schema, both quoted (knex placeholders escaped)', () => {
    expect(thingsWhere('filter[mood]=<happy&in[mood]=sad,null')).to.deep.equal({
      where:
        '(("things"."mood" < ?::"odd schema"."mo""od\\?")) and ((("things"."mood" IN (?::"odd schema"."mo""od\\?") ' +
        'OR "things"."mood" IS NULL)))',
      bindings: ['happy', 'sad'],
    });
  });

  it('tests arrays for containment (@>) and overlap (&&), <> as IS NOT TRUE, null items as IS NULL', () => {
    expect(thingsWhere('filter[tags]=a&filter[or tags]=<>b&in[counts]=1,2,null')).to.deep.equal({
      where:
        '(("things"."tags"::"pg_catalog"."text"[] @> ARRAY[?]::"pg_catalog"."text"[]) ' +
        'OR (("things"."tags"::"pg_catalog"."text"[] @> ARRAY[?]::"pg_catalog"."text"[]) IS NOT TRUE)) and ' +
        '((("things"."counts"::"pg_catalog"."int8"[] && ARRAY[?, ?]::"pg_catalog"."int8"[] OR "things"."counts" IS NULL)))',
      bindings: ['a', 'b', '1', '2'],
    });
  });

  it('compares JSON as jsonb', () => {
    expect(thingsWhere('filter[doc]=<>[1]').where).to.equal('(("things"."doc"::jsonb IS DISTINCT FROM ?::jsonb))');
  });

  it('selects arrays as JSON, bigint elements through their text form', () => {
    const { sql } = thingsSql('fields=tags,counts,mood');
    expect(sql).to.include(
      'select to_json("tags") AS "tags", to_json("counts"::text[]) AS "counts", "mood" from (select "things".* from "things"',
    );
  });
});

/** What the pipeline keeps of a query string: its compiled statement parts. */
const compiled = (qs: string, collection: CollectionCatalog = people) =>
  compileQuery(validateQuery(describeQuery(parseQueryString(qs)), collection, limits));

const noHook = (): Promise<void> => Promise.resolve();

describe('apply: statement text written directly equals what a builder compiles', () => {
  const queries = [
    '',
    'fields=id,name&sort[name]=desc&per-page=10&page=3',
    'filter[id]=>=5&filter[or! name]=a&in[id]=1,2&between[created_at]=2025-04-01,2025-04-17',
    'search[name,id]=*an*&fields!=score&limit=20&offset=40',
    'filter[born]=null&in[name]=a,null&sort[created_at]&sort[id]=desc&page=1',
    'fields=created_at,born,score,big,active&limit=5',
    'expand[notes]=n&n_fields=title&n_sort[created_at]=desc&n_search[title]=x*&per-page=2',
    'expand[tags]=t&t_filter[label]=<>b&fields=name',
    'expand[nicknames]=k&k_sort[nick]=desc&fields=id',
    'expand[notes]=n&n_sort[created_at]=desc&n_limit=2&n_offset=1&n_filter[title]=<>x',
    'expand[tags]=t&t_limit=1',
    'expand[nicknames]=k&k_offset=3',
    'filter[id]=>=5&search[name]=*an*&per-page=10&page=2&total=estimated',
    'expand[notes]=n&fields=id&per-page=2&total=none',
    'fields=id,name&sort[name]=desc&limit=20&offset=600',
    'filter[id]=>=5&search[name]=*an*&per-page=10&page=80',
    'fields=created_at,born,score&sort[created_at]=desc&per-page=5&page=300&total=none',
    'expand[notes]=n&n_sort[created_at]=desc&per-page=10&page=90',
  ];
  for (const qs of queries) {
    it(`rows and count: "${qs}"`, async () => {
      const direct = await planQueries(compiled(qs), knex);
      const built = await planQueries(compiled(qs), knex, noHook);
      expectSameRows(direct.rows, built.rows, compiled(qs).aggregated !== undefined);
      expect(direct.count.toSQL()).to.deep.equal(built.count.toSQL());
      expect(direct.estimated?.capped.toSQL()).to.deep.equal(built.estimated?.capped.toSQL());
      expect(direct.estimated?.estimate.toSQL()).to.deep.equal(built.estimated?.estimate.toSQL());
    });
  }

  it('total=estimated: a count capped at estimateAbove + 1 rows, and the plan of the same rows', async () => {
    const planned = await planQueries(compiled('filter[id]=>=5&per-page=10&total=estimated'), knex);
    expect(planned.estimated?.capped.toSQL()).to.deep.equal({
      sql: 'select count(*) as "count" from (select 1 from "people" where (("people"."id" >= ?)) limit ?) as "capped"',
      bindings: [5, 101],
    });
    expect(planned.estimated?.estimate.toSQL()).to.deep.equal({
      sql: 'explain (format json) select "people".* from "people" where (("people"."id" >= ?))',
      bindings: [5],
    });
    expect((await planQueries(compiled('per-page=10'), knex)).estimated).to.equal(undefined);
  });

  it('total=estimated on a builder whose hook selects: the capped count counts what the hook selects (a distinct, say)', async () => {
    const distinct = (label: string, query: ModelQuery): Promise<void> => {
      query.distinct('people.name');
      return Promise.resolve();
    };
    const planned = await planQueries(compiled('per-page=10&total=estimated'), knex, distinct);
    expect(planned.estimated?.capped.toSQL().sql).to.equal(
      'select count(*) as "count" from (select distinct "people"."name" from "people" limit ?) as "capped"',
    );
  });

  it('total=none reads one row past the page, and nothing to count with', async () => {
    expect((await planQueries(compiled('fields=id&per-page=10&page=3&total=none'), knex)).rows.toSQL().bindings).to.deep.equal([11, 20]);
  });

  const parents = [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
    { id: 2, name: 'b' },
    { id: null, name: 'c' },
  ];
  for (const qs of queries.filter((q) => q.includes('expand'))) {
    it(`expansion: "${qs}"`, async () => {
      const v = compiled(qs);
      for (const expansion of v.expansions) {
        const direct = await expansionQuery(parents, knex, expansion);
        const built = await expansionQuery(parents, knex, expansion, noHook);
        expect(direct?.query.toSQL()).to.deep.equal(built?.query.toSQL());
        expect(direct?.keyColumns).to.deep.equal(built?.keyColumns);
      }
    });
  }

  it('loads many-to-many rows through the join table, with the owner key under a hidden name', async () => {
    const [tags] = compiled('expand[tags]=t').expansions;
    const planned = await expansionQuery(parents, knex, tags!);
    expect(planned?.query.toSQL()).to.deep.equal({
      sql:
        'select "tags"."id", "tags"."label", "person_tags"."person_id" AS "__kqm_owner0" from "tags" ' +
        'inner join "person_tags" on "tags"."id" = "person_tags"."tag_id" where "person_tags"."person_id" = any(?) ' +
        'order by "tags"."id" asc limit ?',
      // One array value, whatever the number of parents: the text stays the same, so it is written once.
      // The limit is one past maxRelatedRows (50 here): more rows than that is an error
      // (docs/query-language.md, "Cost limits").
      bindings: [[1, 2], 51],
    });
    expect(planned?.keyColumns).to.deep.equal(['__kqm_owner0']);
  });

  it('matches composite keys as tuples and leaves out parents with a NULL key part', async () => {
    const [nicknames] = compiled('expand[nicknames]=k&k_fields=nick').expansions;
    const { sql, bindings } = (await expansionQuery(parents, knex, nicknames!))!.query.toSQL();
    expect(sql).to.include('where ("nicknames"."person_id", "nicknames"."person_name") in ((?, ?), (?, ?))');
    expect(bindings).to.deep.equal([1, 'a', 2, 'b', 51]);
  });

  it('reads a window LATERAL per parent key, the keys unnested from one array per key column', async () => {
    const [notes] = compiled('expand[notes]=n&n_fields=title&n_sort[created_at]=desc&n_limit=2&n_offset=1').expansions;
    expect((await expansionQuery(parents, knex, notes!))?.query.toSQL()).to.deep.equal({
      sql:
        'select "__kqm_rows".* from unnest(?::"integer"[]) as "__kqm_parent"("__kqm_key0") cross join lateral ' +
        '(select "notes"."title", "notes"."person_id" from "notes" where "notes"."person_id" = "__kqm_parent"."__kqm_key0" ' +
        'order by "notes"."created_at" desc, "notes"."id" asc limit ? offset ?) as "__kqm_rows" limit ?',
      bindings: [[1, 2], 2, 1, 51],
    });
    // A window's values that need formatting are formatted by the outer select, for the window's rows only.
    const [dated] = compiled('expand[notes]=n&n_fields=title,created_at&n_limit=2&n_offset=1').expansions;
    expect((await expansionQuery(parents, knex, dated!))?.query.toSQL().sql).to.equal(
      `select "title", to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created_at", "person_id" ` +
        'from unnest(?::"integer"[]) as "__kqm_parent"("__kqm_key0") cross join lateral (select "notes".* from "notes" ' +
        'where "notes"."person_id" = "__kqm_parent"."__kqm_key0" order by "notes"."id" asc limit ? offset ?) as "__kqm_rows" limit ?',
    );
    // With nothing to format, the window's rows are selected as they are read.
    const [tags] = compiled('expand[tags]=t&t_limit=1').expansions;
    expect((await expansionQuery(parents, knex, tags!))?.query.toSQL().sql).to.match(/^select "__kqm_rows"\.\* from unnest/);
    const [nicknames] = compiled('expand[nicknames]=k&k_limit=1').expansions;
    const { sql, bindings } = (await expansionQuery(parents, knex, nicknames!))!.query.toSQL();
    expect(sql).to.include('from unnest(?::"integer"[], ?::"text"[]) as "__kqm_parent"("__kqm_key0", "__kqm_key1")');
    expect(sql).to.include(
      'where "nicknames"."person_id" = "__kqm_parent"."__kqm_key0" and "nicknames"."person_name" = "__kqm_parent"."__kqm_key1"',
    );
    expect(bindings).to.deep.equal([[1, 2], ['a', 'b'], 1, 51]);
  });

  it("reads a join table's field by its name in a formatted window (a column of the related table could have that name)", async () => {
    // A join-table field (`since`, a timestamp, so the window formats it) beside the related table's own.
    const tagRelation = people.relations.get('tags')!;
    const since: Column = {
      name: 'since',
      column: 'since',
      table: 'person_tags',
      type: 'timestamptz',
      nullable: true,
      udt: 'timestamptz',
      orderable: true,
    };
    const scope = {
      ...tagRelation.scope,
      columns: new Map(tagRelation.scope.columns).set('since', since),
      projectable: [...tagRelation.scope.projectable, 'since'],
    };
    const collection: CollectionCatalog = { ...people, relations: new Map(people.relations).set('tags', { ...tagRelation, scope }) };
    const [tags] = compiled('expand[tags]=t&t_fields=label,since&t_limit=1&t_offset=2', collection).expansions;
    const direct = await expansionQuery(parents, knex, tags!);
    expect(direct?.query.toSQL().sql).to.equal(
      `select "label", to_char("since" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "since", "__kqm_owner0" ` +
        'from unnest(?::"integer"[]) as "__kqm_parent"("__kqm_key0") cross join lateral ' +
        '(select "tags"."label", "person_tags"."since", "person_tags"."person_id" AS "__kqm_owner0" from "tags" ' +
        'inner join "person_tags" on "tags"."id" = "person_tags"."tag_id" where "person_tags"."person_id" = "__kqm_parent"."__kqm_key0" ' +
        'order by "tags"."id" asc limit ? offset ?) as "__kqm_rows" limit ?',
    );
    expect(direct?.query.toSQL()).to.deep.equal((await expansionQuery(parents, knex, tags!, noHook))?.query.toSQL());
  });

  it('runs no expansion query when no parent has a key', async () => {
    const [notes] = compiled('expand[notes]=n').expansions;
    expect(await expansionQuery([{ id: null }], knex, notes!)).to.equal(undefined);
  });

  it("goes through the model's own query builder when it has one (e.g. soft delete)", async () => {
    // Objection's typings give QueryBuilder no constructor arguments; at run time it takes the model class.
    const Base = QueryBuilder as unknown as new (modelClass: typeof Model) => QueryBuilder<Model>;
    class SoftDeleteQueryBuilder extends Base {
      constructor(modelClass: typeof Model) {
        super(modelClass);
        this.onBuild((query) => {
          query.whereNull('people.deleted_at');
        });
      }
    }
    class SoftPerson extends Model {
      static override tableName = 'people';
    }
    Object.defineProperty(SoftPerson, 'QueryBuilder', { value: SoftDeleteQueryBuilder });
    const soft: CollectionCatalog = { ...people, modelClass: SoftPerson };
    const planned = await planQueries(compiled('fields=id&filter[id]=1', soft), knex);
    expect(planned.rows.toSQL().sql).to.equal(
      'select "people"."id" from "people" where "people"."deleted_at" is null and (("people"."id" = ?)) order by "people"."id" asc limit ?',
    );
    expect(planned.count.toSQL().sql).to.include('"people"."deleted_at" is null');
  });

  it('quotes identifiers itself: quotes doubled, a ? in a name is not a placeholder', async () => {
    const odd: Column = { name: 'we"ird?', column: 'we"ird?', table: 'people', type: 'text', nullable: true, udt: 'text', orderable: true };
    const columns = new Map(people.columns).set(odd.name, odd);
    const collection: CollectionCatalog = {
      ...people,
      columns,
      projectable: [...people.projectable, odd.name],
      filterable: [...people.filterable, odd.name],
    };
    const { sql, bindings } = (await planQueries(compiled('fields=we%22ird%3F&filter[we%22ird%3F]=x', collection), knex)).rows.toSQL();
    const native = knex
      .raw(sql, bindings as never[])
      .toSQL()
      .toNative();
    expect(native.sql).to.equal(
      'select "people"."we""ird?" from "people" where (("people"."we""ird?" = $1)) order by "people"."id" asc limit $2',
    );
    expect(native.bindings).to.deep.equal(['x', 1001]);
  });
});
