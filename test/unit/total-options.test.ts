// The options of docs/query-language.md, "Totals: total=exact, estimated, none": pagination.total
// (one mode, or per collection name) and pagination.estimateAbove, with their defaults, and the
// mistakes refused at start-up.

import { expect } from 'chai';
import { knex as createKnex } from 'knex';
import { resolveOptions } from '../../plugin/options';
import { defaultTotalMode } from '../../plugin/validate';
import { Post, User } from '../support/fixture';

describe('options: pagination.total and pagination.estimateAbove', function () {
  const knex = createKnex({ client: 'pg' });
  const collections = { users: User, posts: Post };
  after(() => knex.destroy());

  it('default to exact and 10000', function () {
    const options = resolveOptions({ knex, collections });
    expect([options.total, options.estimateAbove]).to.deep.equal(['exact', 10000]);
    expect(defaultTotalMode(options, 'users')).to.equal('exact');
  });

  it('take one mode for every collection, or a mode per collection (the others exact)', function () {
    expect(defaultTotalMode(resolveOptions({ knex, collections, pagination: { total: 'none' } }), 'posts')).to.equal('none');
    const per = resolveOptions({ knex, collections, pagination: { total: { users: 'estimated' }, estimateAbove: 0 } });
    expect([defaultTotalMode(per, 'users'), defaultTotalMode(per, 'posts'), per.estimateAbove]).to.deep.equal(['estimated', 'exact', 0]);
  });

  for (const [what, pagination, pattern] of [
    ['an unknown mode', { total: 'approximate' }, /pagination\.total/],
    ['an unknown mode for one collection', { total: { users: 'fast' } }, /pagination\.total/],
    ['a collection that does not exist', { total: { comments: 'none' } }, /pagination\.total\.comments names no collection/],
    ['a negative estimateAbove', { estimateAbove: -1 }, /pagination\.estimateAbove/],
    ['a fractional estimateAbove', { estimateAbove: 2.5 }, /pagination\.estimateAbove/],
  ] as const) {
    it(`refuses ${what} at start-up, naming the option`, function () {
      expect(() => resolveOptions({ knex, collections, pagination } as never)).to.throw(pattern);
    });
  }
});
