// Unit tests of expansions read inside the root's rows statement (plugin/apply/aggregated.ts): the
// statement's text, which parents' related rows it reads, which expansions keep their own statement,
// and what the rows it returns become.

import { expect } from 'chai';
import knexFactory from 'knex';
import { attachAggregates } from '../../plugin/apply/aggregated';
import { compileQuery } from '../../plugin/apply/compiled';
import { planQueries } from '../../plugin/apply/query';
import { QueryError } from '../../plugin/errors';
import type { CollectionCatalog, Column, RelationCatalog } from '../../plugin/schema';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { validateQuery } from '../../plugin/validate';
import { limits, people, sealed } from './catalog-stub';

const knex = knexFactory({ client: 'pg' });

const compiled = (qs: string, collection: CollectionCatalog = people) =>
  compileQuery(validateQuery(describeQuery(parseQueryString(qs)), collection, limits));

const rowsOf = async (qs: string, collection?: CollectionCatalog) => (await planQueries(compiled(qs, collection), knex)).rows.toSQL();

describe('apply: expansions read inside the root statement', () => {
  it('reads a to-many relation once over the page, at most maxRelatedRows + 1 rows, aggregated per parent in its order', async () => {
    expect(await rowsOf('fields=id&expand[notes]=n&n_fields=title,created_at&n_sort[created_at]=desc&per-page=2')).to.deep.equal({
      sql:
        'with "__kqm_rows" as (select "people".* from "people" order by "people"."id" asc limit ?) ' +
        'select "id", coalesce("__kqm_e0"."__kqm_agg", \'[]\'::json) as "notes", "__kqm_e0"."__kqm_read" as "__kqm_read0" ' +
        'from "__kqm_rows" left join (select "__kqm_r"."__kqm_key", json_agg(json_build_object(\'title\', "__kqm_r"."title", ' +
        '\'created_at\', "__kqm_r"."created_at") order by "__kqm_r"."__kqm_o0" desc, "__kqm_r"."__kqm_o1" asc) as "__kqm_agg", ' +
        'sum(count(*)) over () as "__kqm_read" from (select "notes"."person_id" as "__kqm_key", "notes"."title", ' +
        `to_char("notes"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created_at", ` +
        '"notes"."created_at" as "__kqm_o0", "notes"."id" as "__kqm_o1" from "notes" ' +
        'where "notes"."person_id" = any(array(select "__kqm_rows"."id" from "__kqm_rows")) ' +
        'order by "notes"."created_at" desc, "notes"."id" asc limit ?) as "__kqm_r" group by "__kqm_r"."__kqm_key") as "__kqm_e0" ' +
        'on "__kqm_e0"."__kqm_key" = "__kqm_rows"."id" order by "__kqm_rows"."id" asc',
      // The page, then one past maxRelatedRows (50 here): more than that is LIMIT_EXCEEDED
      // (docs/query-language.md, "Cost limits").
      bindings: [2, 51],
    });
  });

  it("reads the related rows of the parents shown only, not of a row read past the page, in the page's reading order", async () => {
    const parents = (sql: string) => /= any\(array\((.*?)\)\)/.exec(sql)?.[1];
    const none = await rowsOf('expand[notes]=n&per-page=2&page=3&total=none');
    expect(parents(none.sql)).to.equal('select "__kqm_rows"."id" from "__kqm_rows" order by "__kqm_rows"."id" asc limit ?');
    expect(none.bindings).to.deep.equal([3, 4, 2, 51]);
    const cut = await rowsOf('expand[notes]=n&sort[name]=desc');
    expect(parents(cut.sql)).to.equal(
      'select "__kqm_rows"."id" from "__kqm_rows" order by "__kqm_rows"."name" desc, "__kqm_rows"."id" asc limit ?',
    );
    expect(cut.bindings).to.deep.equal([1001, 1000, 51]);
    // A backward cursor page from the end reads in the turned order: its first rows are the ones shown.
    const token = sealed({ sort: ['name:desc', 'id:asc'], direction: 'prev', at: null });
    const prev = await rowsOf(`fields=id&expand[notes]=n&sort[name]=desc&per-page=2&cursor=${token}`);
    expect(parents(prev.sql)).to.equal(
      'select "__kqm_rows"."id" from "__kqm_rows" order by "__kqm_rows"."name" asc, "__kqm_rows"."id" desc limit ?',
    );
    expect(prev.sql).to.match(/ order by "__kqm_rows"\."name" asc, "__kqm_rows"\."id" desc$/);
    // The cursor's key columns, then the aggregate.
    expect(prev.sql).to.include('"__kqm_k0", "__kqm_k1", coalesce(');
    // Past a boundary the first row read may be the boundary row, no parent: the expansion has its own statement.
    const past = sealed({ sort: ['name:desc', 'id:asc'], direction: 'prev', at: ['b', '3'] });
    const query = `fields=id&expand[notes]=n&sort[name]=desc&per-page=2&cursor=${past}`;
    expect(compileQuery(validateQuery(describeQuery(parseQueryString(query)), people, limits)).aggregated).to.equal(undefined);
    expect((await rowsOf(query)).sql).to.not.include('json_agg');
  });

  it('reads a many-to-many relation through its join table, and several expansions in one statement', async () => {
    const { sql, bindings } = await rowsOf('fields=name&expand[tags]=t&t_filter[label]=<>b&expand[notes]=n&n_fields=id');
    expect(sql).to.include(
      '(select "person_tags"."person_id" as "__kqm_key", "tags"."id", "tags"."label", "tags"."id" as "__kqm_o0" from "tags" ' +
        'inner join "person_tags" on "tags"."id" = "person_tags"."tag_id" where (("tags"."label" IS DISTINCT FROM ?)) ' +
        'and "person_tags"."person_id" = any(',
    );
    expect(sql).to.include(' as "__kqm_e0" on "__kqm_e0"."__kqm_key" = "__kqm_rows"."id" left join (');
    expect(sql).to.include(
      ' as "tags", "__kqm_e0"."__kqm_read" as "__kqm_read0", coalesce("__kqm_e1"."__kqm_agg", \'[]\'::json) as "notes"',
    );
    expect(bindings).to.deep.equal([1001, 'b', 1000, 51, 1000, 51]);
  });

  it('keeps a statement of its own for a window, nested expansions, composite keys, records built by the model, and on the builder path', async () => {
    expect(compiled('expand[notes]=n&n_limit=2').aggregated).to.equal(undefined);
    expect(compiled('expand[nicknames]=k').aggregated).to.equal(undefined);
    const byModel: RelationCatalog = { ...(people.relations.get('notes') as RelationCatalog) };
    const modelJson: CollectionCatalog = {
      ...people,
      relations: new Map([['notes', { ...byModel, scope: { ...byModel.scope, viaModel: true } }]]),
    };
    expect(compiled('expand[notes]=n', modelJson).aggregated).to.equal(undefined);
    const mixed = compiled('expand[notes]=n&expand[nicknames]=k&expand[tags]=t&t_limit=1');
    expect(mixed.aggregated?.aggregates.map((a) => a.expansion.relation.name)).to.deep.equal(['notes']);
    expect(mixed.aggregated?.loaded.map((e) => e.relation.name)).to.deep.equal(['nicknames', 'tags']);
    // A scope hook makes every statement a builder: the page alone, each expansion loaded by its own.
    const built = await planQueries(mixed, knex, () => Promise.resolve());
    expect(built.rows.toSQL().sql).to.match(
      /^select .* from \(select "people"\.\* from "people" order by "people"\."id" asc limit \?\) as "__kqm_rows" order by/,
    );
  });

  it('keeps a statement of its own past 50 fields: json_build_object takes at most 100 arguments', function () {
    const notes = people.relations.get('notes') as RelationCatalog;
    const wide = (count: number): CollectionCatalog => {
      const fields: Column[] = Array.from({ length: count }, (_, i) => ({
        name: `f${i}`,
        column: `f${i}`,
        table: 'notes',
        type: 'text',
        nullable: true,
        udt: 'text',
        orderable: true,
      }));
      const columns = new Map(notes.scope.columns);
      for (const field of fields) columns.set(field.name, field);
      const scope = { ...notes.scope, columns, projectable: fields.map((field) => field.name) };
      return { ...people, relations: new Map([['notes', { ...notes, scope }]]) };
    };
    expect(compiled('expand[notes]=n', wide(50)).aggregated?.aggregates).to.have.length(1);
    expect(compiled('expand[notes]=n', wide(51)).aggregated).to.equal(undefined);
  });

  it('names each field with a string literal: quotes doubled, a ? is not a placeholder', async () => {
    const notes = people.relations.get('notes') as RelationCatalog;
    const odd: Column = { name: "it's?", column: 'odd', table: 'notes', type: 'text', nullable: true, udt: 'text', orderable: true };
    const scope = { ...notes.scope, columns: new Map(notes.scope.columns).set(odd.name, odd), projectable: [odd.name] };
    const collection: CollectionCatalog = { ...people, relations: new Map([['notes', { ...notes, scope }]]) };
    const { sql, bindings } = await rowsOf('fields=id&expand[notes]=n', collection);
    const native = knex
      .raw(sql, bindings as never[])
      .toSQL()
      .toNative();
    expect(native.sql).to.include(`json_build_object('it''s?', "__kqm_r"."it's?")`);
    expect(native.sql).to.include('"notes"."odd" AS "it\'s?"');
  });

  it('leaves each parent its records as loading them would: an array, or the first record or null; LIMIT_EXCEEDED past the cap', () => {
    const [aggregate] = compiled('expand[notes]=n&per-page=2').aggregated?.aggregates ?? [];
    const rows = [
      { id: 1, notes: [{ id: 7 }], __kqm_read0: '2' },
      { id: 2, notes: '[{"id":8}]', __kqm_read0: '2' },
      { id: 3, notes: [], __kqm_read0: null },
    ];
    attachAggregates(rows, [aggregate!]);
    expect(rows.map((row) => row.notes)).to.deep.equal([[{ id: 7 }], [{ id: 8 }], []]);
    const one = {
      ...aggregate!,
      expansion: { ...aggregate!.expansion, relation: { ...aggregate!.expansion.relation, cardinality: 'one' as const } },
    };
    const single = [{ notes: [{ id: 7 }] }, { notes: [] }];
    attachAggregates(single, [one]);
    expect(single.map((row) => row.notes)).to.deep.equal([{ id: 7 }, null]);
    expect(() => attachAggregates([{ notes: [], __kqm_read0: '50' }], [aggregate!])).to.not.throw();
    expect(() => attachAggregates([{ notes: [], __kqm_read0: '51' }], [aggregate!]))
      .to.throw(QueryError)
      .with.property('code', 'LIMIT_EXCEEDED');
  });
});
