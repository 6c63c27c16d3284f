// The scope hook (docs/configuration.md, "scopeModel and scope"): its restriction applies to the
// root query, to every expansion (called with `<collection>.<relation>`) and to the count, and
// client clauses cannot widen it (an OR in the client's group stays inside its parentheses).

import { expect } from 'chai';
import { Context } from 'koa';
import { ModelQuery } from '../../plugin';
import { asRow, asRows, idsOf, objectOf, range, relatedIds, useApp, expectOk } from '../support/app';

describe('scope hook', function () {
  const calls: string[] = [];
  const scope = (ctx: Context, collection: string, query: ModelQuery): void => {
    calls.push(collection);
    switch (collection) {
      case 'users':
        query.where('users.id', '<=', Number(ctx.get('x-max-id') || 12));
        break;
      case 'users.posts':
        query.where('posts.status', 'published');
        break;
      case 'users.roles':
        query.where('roles.level', '>=', 5);
        break;
      case 'users.phone':
        query.where('phones.kind', 'mobile');
        break;
      case 'posts':
        query.whereNot('posts.user_id', 6);
        break;
      case 'posts.author':
        query.where('users.status', 'active');
        break;
      default:
        break;
    }
  };
  const h = useApp({ scope });

  beforeEach(function () {
    calls.length = 0;
  });

  describe('root', function () {
    it('restricts the records', async function () {
      expect(await h.userIds('')).to.deep.equal(range(1, 12));
      expect(calls).to.include('users');
    });

    it('receives the request context', async function () {
      const res = await h.get('/api/users?fields=id').set('x-max-id', '3');
      expectOk(res);
      expect(res.body).to.deep.equal([{ id: 1 }, { id: 2 }, { id: 3 }]);
    });

    it('restricts the count of a paginated response', async function () {
      // A full page that is not the last: only the count query can tell the total (a partial page
      // would tell it without counting), so 23 here would mean the count ignored the scope.
      const res = await h.get('/api/users?per-page=5&page=2');
      expectOk(res);
      const body = objectOf(res);
      expect(idsOf(asRows(body.data))).to.deep.equal([6, 7, 8, 9, 10]);
      expect(body.total).to.equal(12);
      expect(body.last_page).to.equal(3);
    });

    it('restricts what a cursor page finds before its boundary, in the page statement and on its own', async function () {
      const page = async (query: string, maxId: number) => {
        const res = await h.get(`/api/users?fields=id&sort[id]=desc&per-page=2&${query}`).set('x-max-id', String(maxId));
        expectOk(res);
        return objectOf(res);
      };
      const first = await page('cursor=', 12);
      expect(idsOf(asRows(first.data))).to.deep.equal([12, 11]);
      const next = `cursor=${String(first.next_cursor)}`;
      expect(idsOf(asRows((await page(next, 12)).data))).to.deep.equal([10, 9]);
      expect((await page(next, 12)).prev_cursor, '11 and 12 are visible').to.be.a('string');
      // Users 11 to 23 exist, but the hook hides them: nothing visible lies before the page.
      const hidden = await page(next, 10);
      expect(idsOf(asRows(hidden.data))).to.deep.equal([10, 9]);
      expect(hidden.prev_cursor).to.equal(null);
      // An empty page asks on its own, with the hook too.
      const empty = await page(next, 0);
      expect(empty.data).to.deep.equal([]);
      expect(empty.prev_cursor).to.equal(null);
      expect((await page(`filter[id]=>20&${next}`, 23)).prev_cursor, 'the page is empty, 21 to 23 lie before it').to.be.a('string');
    });

    it('an OR among client filters cannot widen it', async function () {
      expect(await h.userIds('filter[id]=1&filter[or id]=20')).to.deep.equal([1]);
      expect(await h.userIds('filter[or! id]=1')).to.deep.equal(range(2, 12));
      expect(await h.userIds('in[id]=2&in[or id]=21,22')).to.deep.equal([2]);
      expect(await h.userIds('between[id]=1,1&between[or id]=20,23')).to.deep.equal([1]);
      expect(await h.userIds('search[name,email]=walter')).to.deep.equal([]);
      expect(await h.userIds('search[name,email]=ivan')).to.deep.equal([11]);
    });

    it('applies on another collection with its own name', async function () {
      expect(idsOf(await h.rows('/api/posts'))).to.deep.equal([1, 2, 3, 4, 5, 6, 9, 10, 11]);
      expect(calls).to.include('posts');
      expect(calls).to.not.include('users');
    });

    it('a collection the hook leaves alone is not restricted', async function () {
      expect(idsOf(await h.rows('/api/roles'))).to.deep.equal([1, 2, 3, 4]);
      expect(calls).to.include('roles');
    });
  });

  describe('expansions', function () {
    it('has-many: called with users.posts', async function () {
      const rows = await h.rows('/api/users?expand[posts]');
      expect(relatedIds(rows, 'posts')).to.deep.equal({
        1: [1, 3, 11],
        2: [4],
        3: [],
        4: [],
        5: [],
        6: [7, 8],
        7: [],
        8: [],
        9: [],
        10: [],
        11: [10],
        12: [],
      });
      expect(calls).to.include.members(['users', 'users.posts']);
    });

    it('alias filters are ANDed with it, an OR cannot widen it', async function () {
      const drafts = await h.rows('/api/users?expand[posts]=p&p_filter[status]=draft&filter[id]=%3C3');
      expect(relatedIds(drafts, 'posts')).to.deep.equal({ 1: [], 2: [] });
      const widened = await h.rows('/api/users?expand[posts]=p&p_filter[status]=draft&p_filter[or id]=1&p_filter[or id]=2&filter[id]=%3C3');
      expect(relatedIds(widened, 'posts')).to.deep.equal({ 1: [1], 2: [] });
    });

    it('many-to-many: called with users.roles', async function () {
      const rows = await h.rows('/api/users?expand[roles]&filter[id]=%3C9');
      expect(relatedIds(rows, 'roles')).to.deep.equal({ 1: [1, 2], 2: [2], 3: [], 4: [], 5: [], 6: [1], 7: [], 8: [2] });
      expect(calls).to.include('users.roles');
    });

    it('has-one: called with users.phone', async function () {
      const rows = await h.rows('/api/users?expand[phone]&filter[id]=%3C7&fields=id');
      expect(rows.map((r) => r.phone)).to.deep.equal([
        { id: 1, number: '+1-555-0100' },
        null,
        null,
        null,
        null,
        { id: 3, number: '+353-1-555' },
      ]);
      expect(calls).to.include('users.phone');
    });

    it('belongs-to: called with posts.author; parents stay', async function () {
      const rows = await h.rows('/api/posts?expand[author]=a&a_fields=id');
      expect(rows.map((r) => [r.id, r.author])).to.deep.equal([
        [1, { id: 1 }],
        [2, { id: 1 }],
        [3, { id: 1 }],
        [4, { id: 2 }],
        [5, { id: 2 }],
        [6, null],
        [9, { id: 8 }],
        [10, { id: 11 }],
        [11, { id: 1 }],
      ]);
      expect(calls).to.include.members(['posts', 'posts.author']);
    });

    it('the hook is not called for relations that are not expanded', async function () {
      await h.rows('/api/users?expand[phone]');
      expect(calls).to.not.include('users.posts');
      expect(calls).to.not.include('users.roles');
    });

    it('nothing leaks through the root record either', async function () {
      const rows = await h.rows('/api/users?filter[id]=20&expand[posts]');
      expect(rows).to.deep.equal([]);
      const one = await h.rows('/api/users?filter[id]=2&expand[posts]=p&p_fields=id');
      expect(asRow(one[0]).posts).to.deep.equal([{ id: 4 }]);
    });
  });
});
