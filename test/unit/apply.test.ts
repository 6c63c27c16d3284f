// Unit tests of the apply stage: the SQL and bindings a validated query becomes (no connection).

import { expect } from 'chai';
import knexFactory from 'knex';
import { planQueries } from '../../plugin/apply';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { validateQuery } from '../../plugin/validate';
import { limits, people } from './catalog-stub';

const knex = knexFactory({ client: 'pg' });

function sqlOf(qs: string): { sql: string; bindings: readonly unknown[] } {
  const validated = validateQuery(describeQuery(parseQueryString(qs)), people, limits);
  const { sql, bindings } = planQueries(validated, knex, () => undefined).rows.toKnexQuery().toSQL();
  return { sql, bindings };
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
    expect(whereOf('filter[name]=<>a&filter[and born]=null').where)
      .to.equal('(("people"."name" IS DISTINCT FROM ? AND "people"."born" IS NULL))');
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

  it('selects timestamps, dates, numerics and bigints in exact text form and orders by qualified columns', () => {
    const { sql } = sqlOf('fields=created_at,born,score,big&sort[created_at]=desc');
    expect(sql).to.include(`to_char("people"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "created_at"`);
    expect(sql).to.include(`to_char("people"."born", 'YYYY-MM-DD') AS "born"`);
    expect(sql).to.include('"people"."score"::text AS "score"');
    expect(sql).to.include('order by "people"."created_at" desc, "people"."id" asc');
  });

  it('fetches one row past maxRows to detect truncation, and pages with limit/offset', () => {
    expect(sqlOf('fields=id').bindings).to.deep.equal([1001]);
    expect(sqlOf('fields=id&per-page=10&page=3').bindings).to.deep.equal([10, 20]);
  });
});
