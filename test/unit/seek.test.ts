// The keyset seek of cursor pages (docs/query-language.md, "Cursors: cursor"), by the SQL it
// writes: a row-value comparison where every direction agrees and nothing can be NULL, the expanded
// OR form otherwise with NULLs where PostgreSQL puts them (docs/query-language.md, "sort"), backward
// pages in the turned order, and the probe; the same text whether written directly or through a builder.

import { expect } from 'chai';
import knexFactory from 'knex';
import { compileQuery } from '../../plugin/apply/compiled';
import { planQueries } from '../../plugin/apply/query';
import { isBoundary } from '../../plugin/apply/seek';
import { describeQuery, parseQueryString, type CursorToken } from '../../plugin/syntax';
import { validateQuery } from '../../plugin/validate';
import type { CollectionCatalog, Column } from '../../plugin/schema';
import { limits, people, sealed } from './catalog-stub';
import { expectSameRows } from '../support/same-rows';

const knex = knexFactory({ client: 'pg' });

const compiled = (qs: string) => compileQuery(validateQuery(describeQuery(parseQueryString(qs)), people, limits));
const cursor = (token: CursorToken): string => sealed(token);

/** The page statement (the probe is a statement of its own, run only when the boundary row is gone). */
async function rowsSql(qs: string): Promise<{ sql: string; bindings: readonly unknown[] }> {
  const { sql, bindings } = (await planQueries(compiled(qs), knex)).rows.toSQL();
  return { sql, bindings };
}

/** From the page's own `from`. */
const tail = (sql: string): string => sql.slice(sql.lastIndexOf(' from '));

describe('apply: keyset seek', () => {
  it('the first page reads one row past the page, no offset, no seek', async () => {
    const { sql, bindings } = await rowsSql('fields=id&per-page=10&cursor=');
    expect(tail(sql)).to.equal(' from "people" order by "people"."id" asc limit ?');
    expect(bindings).to.deep.equal([11]);
  });

  it('one key that is never NULL: a row-value comparison, from the boundary row on (it is read again), one past the page', async () => {
    const { sql, bindings } = await rowsSql(`fields=id&per-page=2&cursor=${cursor({ sort: ['id:asc'], direction: 'next', at: ['7'] })}`);
    expect(tail(sql)).to.equal(' from "people" where ("people"."id") >= (?::"integer") order by "people"."id" asc limit ?');
    expect(bindings).to.deep.equal([7, 4]);
  });

  it('a nullable key ascending: past a value, NULLs (last) follow; past NULL, only NULLs with a greater key', async () => {
    const past = await rowsSql(
      `fields=id&sort[name]&cursor=${cursor({ sort: ['name:asc', 'id:asc'], direction: 'next', at: ['b', '3'] })}`,
    );
    expect(past.sql).to.contain(
      ' where ((("people"."name" > ?::"text" OR "people"."name" IS NULL)) ' +
        'OR ("people"."name" = ?::"text" AND "people"."id" >= ?::"integer")) order by',
    );
    expect(past.bindings).to.deep.equal(['b', 'b', 3, 17]);
    const afterNull = await rowsSql(
      `fields=id&sort[name]&cursor=${cursor({ sort: ['name:asc', 'id:asc'], direction: 'next', at: [null, '3'] })}`,
    );
    expect(afterNull.sql).to.contain(' where (("people"."name" IS NULL AND "people"."id" >= ?::"integer")) order by');
  });

  it('mixed directions: the expanded form led by a bound on the first key; a prev page reads the turned order', async () => {
    const token = { sort: ['id:desc'], direction: 'next', at: ['9'] } as const;
    const { sql } = await rowsSql(`fields=id&sort[id]=desc&cursor=${cursor(token)}`);
    expect(tail(sql)).to.equal(' from "people" where ("people"."id") <= (?::"integer") order by "people"."id" desc limit ?');
    const prev = await rowsSql(
      `fields=id&sort[big]=desc&cursor=${cursor({ sort: ['big:desc', 'id:asc'], direction: 'prev', at: ['5', '2'] })}`,
    );
    expect(prev.sql).to.contain(' order by "people"."big" asc, "people"."id" desc limit ?');
    expect(prev.sql).to.contain('("people"."big" > ?::"bigint" OR "people"."big" IS NULL)');
    expect(prev.bindings).to.deep.equal(['5', '5', 2, 17]);
  });

  it('mixed directions on a key never NULL: a bound on it, the disjunction behind it a filter (IS TRUE)', async () => {
    const created = people.columns.get('created_at') as Column;
    const columns = new Map(people.columns).set('created_at', { ...created, nullable: false });
    const strict: CollectionCatalog = { ...people, columns };
    const token = { sort: ['created_at:desc', 'id:asc'], direction: 'next', at: ['2025-01-02T03:04:05.000006Z', '9'] } as const;
    const query = compileQuery(
      validateQuery(describeQuery(parseQueryString(`fields=id&sort[created_at]=desc&cursor=${cursor(token)}`)), strict, limits),
    );
    const { sql, bindings } = (await planQueries(query, knex)).rows.toSQL();
    const at = '?::"timestamptz"';
    expect(tail(sql)).to.equal(
      ` from "people" where ("people"."created_at" <= ${at} AND (("people"."created_at" < ${at}) ` +
        `OR ("people"."created_at" = ${at} AND "people"."id" >= ?::"integer")) IS TRUE) ` +
        'order by "people"."created_at" desc, "people"."id" asc limit ?',
    );
    expect(bindings.map(String)).to.deep.equal([
      '2025-01-02T03:04:05.000006Z',
      '2025-01-02T03:04:05.000006Z',
      '2025-01-02T03:04:05.000006Z',
      '9',
      '17',
    ]);
  });

  it('the probe asks for one row on the other side of the boundary, the boundary row included, bounded by the first key', async () => {
    const planned = await planQueries(compiled(`fields=id&cursor=${cursor({ sort: ['id:asc'], direction: 'next', at: ['7'] })}`), knex);
    expect(planned.probe?.toSQL()).to.deep.equal({
      sql: 'select 1 as "found" from "people" where ("people"."id" <= ?::"integer" AND (("people"."id") > (?::"integer")) IS NOT TRUE) limit ?',
      bindings: [7, 7, 1],
    });
    // Read backwards along a descending key, the other side lies above the boundary.
    const back = await planQueries(
      compiled(`fields=id&sort[id]=desc&cursor=${cursor({ sort: ['id:desc'], direction: 'prev', at: ['7'] })}`),
      knex,
    );
    expect(back.probe?.toSQL().sql).to.contain(' where ("people"."id" <= ?::"integer" AND (("people"."id") > (?::"integer")) IS NOT TRUE)');
    // A first key that may be NULL has no bound: the rows up to the boundary include NULLs on either side of it.
    const nullable = await planQueries(
      compiled(`fields=id&sort[name]&cursor=${cursor({ sort: ['name:asc', 'id:asc'], direction: 'next', at: ['b', '3'] })}`),
      knex,
    );
    expect(nullable.probe?.toSQL().sql).to.match(/ where \(\(\(\("people"\."name" > .* IS NOT TRUE limit \?$/);
    expect((await planQueries(compiled('fields=id&cursor='), knex)).probe).to.equal(undefined);
  });

  it('the page asks no probe: it reads the boundary row first, whose keys tell it apart', async () => {
    const compiledPage = compiled(`fields=id&cursor=${cursor({ sort: ['id:asc'], direction: 'next', at: ['7'] })}`);
    const planned = await planQueries(compiledPage, knex);
    expect(planned.rows.toSQL()).to.deep.equal({
      sql: 'select "people"."id", "people"."id"::text AS "__kqm_k0" from "people" where ("people"."id") >= (?::"integer") order by "people"."id" asc limit ?',
      bindings: [7, 17],
    });
    expect(isBoundary(compiledPage.cursor, { id: 7, __kqm_k0: '7' })).to.equal(true);
    expect(isBoundary(compiledPage.cursor, { id: 8, __kqm_k0: '8' })).to.equal(false);
    expect(isBoundary(compiledPage.cursor, undefined)).to.equal(false);
    // From the start there is no boundary to read again.
    expect(isBoundary(compiled('fields=id&cursor=').cursor, { id: 7, __kqm_k0: '7' })).to.equal(false);
    const nulls = compiled(`fields=id&sort[name]&cursor=${cursor({ sort: ['name:asc', 'id:asc'], direction: 'next', at: [null, '3'] })}`);
    expect(isBoundary(nulls.cursor, { __kqm_k0: null, __kqm_k1: '3' })).to.equal(true);
    expect(isBoundary(nulls.cursor, { __kqm_k0: '', __kqm_k1: '3' })).to.equal(false);
  });

  const queries = [
    'fields=id&per-page=3&cursor=',
    `sort[name]=desc&sort[born]&filter[id]=>2&cursor=${cursor({ sort: ['name:desc', 'born:asc', 'id:asc'], direction: 'prev', at: ['x', null, '4'] })}`,
    `expand[notes]=n&search[name]=a&cursor=${cursor({ sort: ['id:asc'], direction: 'next', at: ['4'] })}`,
  ];
  for (const qs of queries) {
    it(`written directly equals the builder's: "${qs}"`, async () => {
      const direct = await planQueries(compiled(qs), knex);
      const built = await planQueries(compiled(qs), knex, () => Promise.resolve());
      expectSameRows(direct.rows, built.rows, compiled(qs).aggregated !== undefined);
      expect(direct.probe?.toSQL()).to.deep.equal(built.probe?.toSQL());
    });
  }
});
