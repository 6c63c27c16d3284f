// A cursor walk is one query to the plan cache, not one per page: every page's `cursor=` differs, and
// keyed by the whole string each page would be compiled again and push repeating queries out. The
// kept query must still answer each request for its own cursor, and refuse a bad one exactly as an
// uncached request does.

import { expect } from 'chai';
import { LruMap } from '../../plugin/caches';
import { QueryError } from '../../plugin/errors';
import { prepareQuery, type PreparedQuery } from '../../plugin/prepared';
import type { CursorToken } from '../../plugin/syntax';
import { limits, people, sealed } from './catalog-stub';

const SORT = ['name:desc', 'id:asc'];
const QUERY = 'fields=id,name&sort[name]=desc&per-page=5';

const cursor = (token: Partial<CursorToken> & { at: CursorToken['at'] }): string => sealed({ sort: SORT, direction: 'next', ...token });

const newMap = (): LruMap<string, PreparedQuery> => new LruMap({ maxBytes: Number.POSITIVE_INFINITY }, (_, prepared) => prepared.bytes);

/** The problems a query string's QueryError lists, or [] when it prepares. */
function problemsOf(queryString: string, map?: LruMap<string, PreparedQuery>): unknown[] {
  try {
    prepareQuery(people, limits, queryString, map);
    return [];
  } catch (error) {
    if (error instanceof QueryError) return [...error.problems];
    throw error;
  }
}

describe('cursor pages in the plan cache', function () {
  it('a walk of 40 pages is kept once, and each page seeks past its own boundary', function () {
    const map = newMap();
    for (let i = 1; i <= 40; i++) {
      const prepared = prepareQuery(people, limits, `${QUERY}&cursor=${cursor({ at: [`name ${i}`, String(i)] })}`, map);
      expect(prepared.compiled.cursor?.boundary).to.deep.equal([`name ${i}`, String(i)]);
      expect(prepared.compiled.cursor?.seek?.bindings).to.include(`name ${i}`).and.include(i);
      expect(prepared.compiled.paging).to.include({ kind: 'cursor', pageSize: 5 });
    }
    expect(map.size).to.equal(1);
  });

  it('keeps backward pages, the first page and another query apart', function () {
    const map = newMap();
    const backward = prepareQuery(people, limits, `${QUERY}&cursor=${cursor({ direction: 'prev', at: ['b', '2'] })}`, map);
    prepareQuery(people, limits, `${QUERY}&cursor=${cursor({ at: ['a', '1'] })}`, map);
    prepareQuery(people, limits, `${QUERY}&cursor=`, map);
    prepareQuery(people, limits, `${QUERY}&filter[id]=3&cursor=${cursor({ at: ['a', '1'] })}`, map);
    expect(map.size).to.equal(4);
    const again = prepareQuery(people, limits, `${QUERY}&cursor=${cursor({ direction: 'prev', at: ['c', '3'] })}`, map);
    expect(again.compiled.cursor?.order)
      .to.equal(backward.compiled.cursor?.order)
      .and.match(/"name" asc/);
    expect(again.compiled.cursor?.boundary).to.deep.equal(['c', '3']);
    // A NULL among the values changes the seek's form, written for each request.
    const nulls = prepareQuery(people, limits, `${QUERY}&cursor=${cursor({ at: [null, '4'] })}`, map);
    expect(nulls.compiled.cursor?.seek?.sql).to.include('IS NULL');
    expect(map.size).to.equal(4);
  });

  for (const [what, token] of [
    ['made for another sort', { sort: ['id:asc'], at: ['7'] }],
    ['with a value that does not fit its key', { at: ['a', 'seven'] }],
    ['with one value too few', { at: ['a'] }],
  ] as const) {
    it(`a cursor ${what} on a kept query gets the 400 an uncached request gets`, function () {
      const map = newMap();
      prepareQuery(people, limits, `${QUERY}&cursor=${cursor({ at: ['a', '1'] })}`, map);
      const bad = `${QUERY}&cursor=${cursor(token)}`;
      const kept = problemsOf(bad, map);
      expect(kept).to.have.length(1);
      expect(kept).to.deep.equal(problemsOf(bad));
      expect((kept[0] as { code: string }).code).to.equal('INVALID_CURSOR');
      expect(map.size).to.equal(1);
    });
  }
});
