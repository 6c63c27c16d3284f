// expand[...]: every relation kind (docs/query-language.md, "Where the related records appear"),
// every alias modifier (docs/query-language.md, "Aliases and alias modifiers"), join keys never
// leaked (docs/query-language.md, "Keys are not leaked"), parents never removed, hidden columns of
// related models stay hidden, errors.

import { expect } from 'chai';
import { asRow, asRows, idsOf, objectOf, relatedIds, Row, useApp, expectOk } from '../support/app';
import { POST_FIELDS, USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

const enc = encodeURIComponent;

const POSTS: Record<number, Row> = {
  1: { id: 1, user_id: 1, title: 'Hello World', status: 'published', created_at: '2025-04-02T10:00:00.000000Z' },
  2: { id: 2, user_id: 1, title: 'Second Thoughts', status: 'draft', created_at: '2025-04-03T10:00:00.000000Z' },
  3: { id: 3, user_id: 1, title: 'Kubernetes Tips', status: 'published', created_at: '2025-04-17T08:00:00.000000Z' },
  4: { id: 4, user_id: 2, title: "Bob's Recipes", status: 'published', created_at: '2025-04-06T10:00:00.000000Z' },
  5: { id: 5, user_id: 2, title: 'Draft Ideas', status: 'draft', created_at: '2025-04-17T23:59:59.999999Z' },
  6: { id: 6, user_id: 3, title: "John's Journal", status: 'archived', created_at: '2025-04-11T10:00:00.000000Z' },
  7: { id: 7, user_id: 6, title: 'Irish Stew', status: 'published', created_at: '2025-04-18T00:00:00.000000Z' },
  8: { id: 8, user_id: 6, title: 'Hello Again', status: 'published', created_at: '2025-04-19T10:00:00.000000Z' },
  9: { id: 9, user_id: 8, title: 'Underscore_Title', status: 'draft', created_at: '2025-04-18T12:00:00.000000Z' },
  10: { id: 10, user_id: 11, title: 'Moscow Nights', status: 'published', created_at: '2025-04-26T10:00:00.000000Z' },
  11: { id: 11, user_id: 1, title: 'Zebra Notes', status: 'published', created_at: '2025-04-16T10:00:00.000000Z' },
};

const ROLES: Record<number, Row> = {
  1: { id: 1, name: 'admin', level: 10 },
  2: { id: 2, name: 'editor', level: 5 },
  3: { id: 3, name: 'viewer', level: 1 },
  4: { id: 4, name: 'auditor', level: 3 },
};

/** A map of all 23 users to [], overridden by `nonEmpty`. */
function everyUser(nonEmpty: Record<number, number[]>): Record<number, number[]> {
  const out: Record<number, number[]> = {};
  for (let id = 1; id <= 23; id += 1) out[id] = nonEmpty[id] ?? [];
  return out;
}

function byId(rows: readonly Row[]): Map<number, Row> {
  return new Map(rows.map((row) => [Number(row.id), row]));
}

describe('expand', function () {
  const h = useApp();

  describe('relation kinds', function () {
    it('has-many: an array under the relation name, in primary-key order', async function () {
      const rows = await h.rows('/api/users?expand[posts]');
      expect(idsOf(rows)).to.have.length(23);
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [1, 2, 3, 11], 2: [4, 5], 3: [6], 6: [7, 8], 8: [9], 11: [10] }));
      expect(byId(rows).get(1)?.posts).to.deep.equal([POSTS[1], POSTS[2], POSTS[3], POSTS[11]]);
      expect(byId(rows).get(4)?.posts).to.deep.equal([]);
    });

    it('expand[posts]= with an empty value is the same as no alias', async function () {
      const rows = await h.rows('/api/users?expand[posts]=&filter[id]=2');
      expect(rows).to.have.length(1);
      expect(asRow(rows[0]).posts).to.deep.equal([POSTS[4], POSTS[5]]);
    });

    it('the alias never names the key', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&filter[id]=6');
      expect(asRow(rows[0]).posts).to.deep.equal([POSTS[7], POSTS[8]]);
      expect(asRow(rows[0])).to.not.have.property('p');
    });

    it('has-one: an object or null, holding only the projectable fields of the relation', async function () {
      const rows = await h.rows('/api/users?expand[phone]&filter[id]=<4');
      expect(rows.map((r) => r.phone)).to.deep.equal([{ id: 1, number: '+1-555-0100' }, { id: 2, number: '+1-555-0200' }, null]);
      for (const row of rows) expect(row).to.have.property('phone');
      const six = await h.rows('/api/users?expand[phone]&filter[id]=6');
      expect(asRow(six[0]).phone).to.deep.equal({ id: 3, number: '+353-1-555' });
    });

    it('many-to-many: an array of related records without pivot columns', async function () {
      const rows = await h.rows('/api/users?expand[roles]');
      expect(relatedIds(rows, 'roles')).to.deep.equal(everyUser({ 1: [1, 2], 2: [2], 3: [3], 6: [1, 4], 8: [2, 3] }));
      const users = byId(rows);
      expect(users.get(1)?.roles).to.deep.equal([ROLES[1], ROLES[2]]);
      expect(users.get(6)?.roles).to.deep.equal([ROLES[1], ROLES[4]]);
    });

    it('belongs-to: an object holding the owner, hidden columns stay hidden', async function () {
      const rows = await h.rows('/api/posts?expand[author]');
      expect(rows).to.have.length(11);
      const authorIds = rows.map((r) => asRow(r.author).id);
      expect(authorIds).to.deep.equal([1, 1, 1, 2, 2, 3, 6, 6, 8, 11, 1]);
      for (const row of rows) expect(Object.keys(asRow(row.author))).to.have.members([...USER_FIELDS]);
      expect(asRow(rows[0]).author).to.deep.equal({
        id: 1,
        name: 'Alice Martin',
        email: 'alice@example.com',
        status: 'active',
        role: 'admin',
        score: '95.50',
        active: true,
        birthday: '1990-01-15',
        visits: 120,
        email_verified_at: '2025-04-17T01:19:49.123456Z',
        created_at: '2025-04-01T08:00:00.000000Z',
        updated_at: '2025-05-10T12:34:56.654321Z',
      });
    });

    it('several relations at once', async function () {
      const rows = await h.rows('/api/users?expand[posts]&expand[phone]&expand[roles]&filter[id]=2');
      expect(rows).to.deep.equal([
        {
          id: 2,
          name: 'Bob Stone',
          email: 'bob@example.com',
          status: 'active',
          role: 'editor',
          score: '72.25',
          active: true,
          birthday: '1985-06-30',
          visits: 45,
          email_verified_at: null,
          created_at: '2025-04-05T12:00:00.000000Z',
          updated_at: '2025-05-10T00:00:00.000000Z',
          posts: [POSTS[4], POSTS[5]],
          phone: { id: 2, number: '+1-555-0200' },
          roles: [ROLES[2]],
        },
      ]);
    });

    it('expansion in a paginated envelope', async function () {
      const res = await h.get('/api/users?expand[posts]&per-page=2&page=1');
      expectOk(res);
      const data = asRows(objectOf(res).data);
      expect(relatedIds(data, 'posts')).to.deep.equal({ 1: [1, 2, 3, 11], 2: [4, 5] });
    });
  });

  describe('alias modifiers', function () {
    it('p_fields: exactly the listed fields, in request order', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_fields=title,id&filter[id]=1');
      const posts = asRows(asRow(rows[0]).posts);
      expect(posts).to.deep.equal([
        { title: 'Hello World', id: 1 },
        { title: 'Second Thoughts', id: 2 },
        { title: 'Kubernetes Tips', id: 3 },
        { title: 'Zebra Notes', id: 11 },
      ]);
      for (const post of posts) expect(Object.keys(post)).to.deep.equal(['title', 'id']);
    });

    it('p_fields!: the other fields in declaration order', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_fields!=created_at,user_id&filter[id]=2');
      const posts = asRows(asRow(rows[0]).posts);
      expect(posts).to.deep.equal([
        { id: 4, title: "Bob's Recipes", status: 'published' },
        { id: 5, title: 'Draft Ideas', status: 'draft' },
      ]);
      for (const post of posts) expect(Object.keys(post)).to.deep.equal(['id', 'title', 'status']);
    });

    it('p_sort', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_sort[title]=desc');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [11, 2, 3, 1], 2: [5, 4], 3: [6], 6: [7, 8], 8: [9], 11: [10] }));
    });

    it('p_sort on a timestamp, and several keys', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_sort[created_at]=desc&filter[id]=<3');
      expect(relatedIds(rows, 'posts')).to.deep.equal({ 1: [3, 11, 2, 1], 2: [5, 4] });
      const two = await h.rows('/api/users?expand[posts]=p&p_sort[status]&p_sort[title]=desc&filter[id]=1');
      expect(relatedIds(two, 'posts')).to.deep.equal({ 1: [2, 11, 3, 1] });
    });

    it('p_search', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_search[title]=hello');
      expect(rows).to.have.length(23);
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [1], 6: [8] }));
    });

    it('p_search with a wildcard', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_search[title]=*s');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [2, 3, 11], 2: [4, 5], 11: [10] }));
    });

    it('p_filter', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_filter[status]=published');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [1, 3, 11], 2: [4], 6: [7, 8], 11: [10] }));
    });

    it('p_filter with or', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_filter[status]=draft&p_filter[or id]=1');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [1, 2], 2: [5], 8: [9] }));
    });

    it('p_filter with and!', async function () {
      const rows = await h.rows(`/api/users?expand[posts]=p&p_filter[status]=published&p_filter[and! title]=${enc('Hello World')}`);
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [3, 11], 2: [4], 6: [7, 8], 11: [10] }));
    });

    it('p_filter with every relational operator', async function () {
      const cases: [string, Record<number, number[]>][] = [
        ['=5', { 2: [5] }],
        ['<>5', { 1: [1, 2, 3, 11], 2: [4], 3: [6], 6: [7, 8], 8: [9], 11: [10] }],
        ['<3', { 1: [1, 2] }],
        ['<=3', { 1: [1, 2, 3] }],
        ['>9', { 1: [11], 11: [10] }],
        ['>=9', { 1: [11], 8: [9], 11: [10] }],
      ];
      for (const [value, expected] of cases) {
        const rows = await h.rows(`/api/users?expand[posts]=p&p_filter[id]=${enc(value)}`);
        expect(relatedIds(rows, 'posts'), value).to.deep.equal(everyUser(expected));
      }
    });

    it('p_filter with a date-only value on a timestamp', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_filter[created_at]=2025-04-17');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [3], 2: [5] }));
    });

    it('p_in', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_in[id]=1,4,7');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [1], 2: [4], 6: [7] }));
    });

    it('p_in with or!', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_in[status]=draft,archived&p_in[or! user_id]=1,2,3,6,8');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [2], 2: [5], 3: [6], 8: [9], 11: [10] }));
    });

    it('p_between', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_between[created_at]=2025-04-17,2025-04-18');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [3], 2: [5], 6: [7], 8: [9] }));
    });

    it('p_between with and!', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_between[id]=1,5&p_between[and! id]=2,3');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({ 1: [1], 2: [4, 5] }));
    });

    it('alias filters and the root filter are independent', async function () {
      const rows = await h.rows('/api/users?filter[id]=<3&expand[posts]=p&p_filter[status]=draft');
      expect(relatedIds(rows, 'posts')).to.deep.equal({ 1: [2], 2: [5] });
    });

    it('modifiers on a many-to-many relation', async function () {
      const filtered = await h.rows(`/api/users?expand[roles]=r&r_filter[level]=${enc('>=5')}`);
      expect(relatedIds(filtered, 'roles')).to.deep.equal(everyUser({ 1: [1, 2], 2: [2], 6: [1], 8: [2] }));
      const sorted = await h.rows('/api/users?expand[roles]=r&r_sort[name]=desc');
      expect(relatedIds(sorted, 'roles')).to.deep.equal(everyUser({ 1: [2, 1], 2: [2], 3: [3], 6: [4, 1], 8: [3, 2] }));
      const searched = await h.rows('/api/users?expand[roles]=r&r_search[name]=ad');
      expect(relatedIds(searched, 'roles')).to.deep.equal(everyUser({ 1: [1], 6: [1] }));
      const listed = await h.rows('/api/users?expand[roles]=r&r_in[name]=viewer,auditor');
      expect(relatedIds(listed, 'roles')).to.deep.equal(everyUser({ 3: [3], 6: [4], 8: [3] }));
      const ranged = await h.rows('/api/users?expand[roles]=r&r_between[level]=3,5');
      expect(relatedIds(ranged, 'roles')).to.deep.equal(everyUser({ 1: [2], 2: [2], 6: [4], 8: [2] }));
    });

    it('alias modifiers on a has-one relation', async function () {
      const rows = await h.rows('/api/users?expand[phone]=ph&ph_fields=number&filter[id]=<4');
      expect(rows.map((r) => r.phone)).to.deep.equal([{ number: '+1-555-0100' }, { number: '+1-555-0200' }, null]);
    });

    it('a filtered belongs-to relation gives null, and keeps the parent', async function () {
      const rows = await h.rows('/api/posts?expand[author]=a&a_filter[status]=active&a_fields=id');
      expect(rows.map((r) => r.author)).to.deep.equal([
        { id: 1 },
        { id: 1 },
        { id: 1 },
        { id: 2 },
        { id: 2 },
        null,
        { id: 6 },
        { id: 6 },
        { id: 8 },
        { id: 11 },
        { id: 1 },
      ]);
    });
  });

  describe('parents are never removed', function () {
    it('a filter matching no related record', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_filter[id]=999');
      expect(relatedIds(rows, 'posts')).to.deep.equal(everyUser({}));
    });

    it('a search matching no related record on a many-to-many', async function () {
      const rows = await h.rows('/api/users?expand[roles]=r&r_search[name]=nobody');
      expect(relatedIds(rows, 'roles')).to.deep.equal(everyUser({}));
    });
  });

  describe('join keys appear only when asked for', function () {
    it('fields=name still returns the posts, and no id', async function () {
      const rows = await h.rows('/api/users?fields=name&expand[posts]=p&p_fields=title&filter[id]=<5');
      expect(rows).to.deep.equal([
        {
          name: 'Alice Martin',
          posts: [{ title: 'Hello World' }, { title: 'Second Thoughts' }, { title: 'Kubernetes Tips' }, { title: 'Zebra Notes' }],
        },
        { name: 'Bob Stone', posts: [{ title: "Bob's Recipes" }, { title: 'Draft Ideas' }] },
        { name: 'Smith, John', posts: [{ title: "John's Journal" }] },
        { name: 'Jane "JJ" Doe', posts: [] },
      ]);
    });

    it('p_fields=id,title returns exactly id and title (no user_id)', async function () {
      const rows = await h.rows('/api/users?expand[posts]=p&p_fields=id,title&filter[id]=6');
      expect(asRow(rows[0]).posts).to.deep.equal([
        { id: 7, title: 'Irish Stew' },
        { id: 8, title: 'Hello Again' },
      ]);
    });

    it('has-one with fields that leave out the key', async function () {
      const rows = await h.rows('/api/users?fields=name&expand[phone]&filter[id]=<3');
      expect(rows).to.deep.equal([
        { name: 'Alice Martin', phone: { id: 1, number: '+1-555-0100' } },
        { name: 'Bob Stone', phone: { id: 2, number: '+1-555-0200' } },
      ]);
    });

    it('many-to-many with fields that leave out both keys', async function () {
      const rows = await h.rows('/api/users?fields=name&expand[roles]=r&r_fields=name&filter[id]=1');
      expect(rows).to.deep.equal([{ name: 'Alice Martin', roles: [{ name: 'admin' }, { name: 'editor' }] }]);
    });

    it('belongs-to with fields that leave out the foreign key', async function () {
      const rows = await h.rows('/api/posts?fields=title&expand[author]=a&a_fields=name&filter[id]=<3');
      expect(rows).to.deep.equal([
        { title: 'Hello World', author: { name: 'Alice Martin' } },
        { title: 'Second Thoughts', author: { name: 'Alice Martin' } },
      ]);
    });

    it('fields! leaving out the key', async function () {
      const rows = await h.rows('/api/users?fields!=id&expand[posts]=p&p_fields!=id,user_id&filter[id]=3');
      expect(asRow(rows[0])).to.not.have.property('id');
      expect(asRow(rows[0]).posts).to.deep.equal([
        { title: "John's Journal", status: 'archived', created_at: '2025-04-11T10:00:00.000000Z' },
      ]);
    });
  });

  describe('capabilities of the relation', function () {
    it('a hidden column of the related model is not projectable through the relation', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_fields=id,secret_note'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'p_fields',
        allowed: POST_FIELDS,
      });
      expectProblem(await h.get('/api/posts?expand[author]=a&a_fields=password_hash'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'a_fields',
        allowed: USER_FIELDS,
      });
    });

    it('nor filterable', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_filter[secret_note]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'p_filter[secret_note]',
        allowed: POST_FIELDS,
      });
    });

    it('a field outside the relation searchable list', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_search[status]=x'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'p_search[status]',
        allowed: ['title'],
      });
    });

    it('a field outside the relation projectable list', async function () {
      expectProblem(await h.get('/api/users?expand[phone]=ph&ph_fields=kind'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'ph_fields',
        allowed: ['id', 'number'],
      });
    });

    it('an absent options list allows nothing for that modifier', async function () {
      expectProblem(await h.get('/api/users?expand[phone]=ph&ph_sort[number]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'ph_sort[number]',
        allowed: [],
      });
      expectProblem(await h.get('/api/users?expand[phone]=ph&ph_filter[id]=1'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'ph_filter[id]',
        allowed: [],
      });
      expectProblem(await h.get('/api/posts?expand[author]=a&a_sort[name]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'a_sort[name]',
        allowed: [],
      });
    });

    it('the relation list, not the root list, decides', async function () {
      // roles are sortable by name and level only, although id is projectable
      expectProblem(await h.get('/api/users?expand[roles]=r&r_sort[id]'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'r_sort[id]',
        allowed: ['name', 'level'],
      });
    });
  });

  describe('errors', function () {
    it('an undeclared relation is UNKNOWN_RELATION listing the expandable ones', async function () {
      expectProblem(await h.get('/api/users?expand[comments]'), {
        code: 'UNKNOWN_RELATION',
        parameter: 'expand[comments]',
        allowed: ['posts', 'phone', 'roles'],
      });
    });

    it('a relation the model defines, on a model that declares none, is UNKNOWN_RELATION', async function () {
      expectProblem(await h.get('/api/roles?expand[users]=u'), { code: 'UNKNOWN_RELATION', parameter: 'expand[users]', allowed: [] });
    });

    it("another model's relation is UNKNOWN_RELATION listing this model's", async function () {
      expectProblem(await h.get('/api/posts?expand[phone]'), {
        code: 'UNKNOWN_RELATION',
        parameter: 'expand[phone]',
        allowed: ['author', 'comments'],
      });
    });

    it('an alias-prefixed key without its expand is UNKNOWN_ALIAS', async function () {
      expectProblem(await h.get('/api/users?p_fields=id'), { code: 'UNKNOWN_ALIAS', parameter: 'p_fields' });
      expectProblem(await h.get('/api/users?expand[posts]=p&q_sort[id]=asc'), { code: 'UNKNOWN_ALIAS', parameter: 'q_sort[id]' });
      expectProblem(await h.get('/api/users?expand[posts]&p_filter[id]=1'), { code: 'UNKNOWN_ALIAS', parameter: 'p_filter[id]' });
    });

    it('every alias-prefixed shape is checked', async function () {
      for (const key of [
        'x_fields=id',
        'x_fields!=id',
        'x_sort[id]',
        'x_search[title]=a',
        'x_filter[id]=1',
        'x_in[id]=1',
        'x_between[id]=1,2',
      ]) {
        const res = await h.get(`/api/users?${key}`);
        expectProblem(res, { code: 'UNKNOWN_ALIAS', parameter: key.split('=')[0] });
      }
    });

    it('one alias for two relations is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=x&expand[roles]=x'), { code: 'DUPLICATE_PARAMETER', parameter: 'expand[roles]' });
    });

    it('the same relation twice is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&expand[posts]=q'), { code: 'DUPLICATE_PARAMETER', parameter: 'expand[posts]' });
    });

    for (const alias of ['1p', 'p_q', 'p-q', 'p q', 'ä']) {
      it(`alias "${alias}" is MALFORMED_PARAMETER`, async function () {
        expectProblem(await h.get(`/api/users?expand[posts]=${enc(alias)}`), { code: 'MALFORMED_PARAMETER', parameter: 'expand[posts]' });
      });
    }

    it('expand=posts and expand[] are MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?expand=posts'), { code: 'MALFORMED_PARAMETER', parameter: 'expand' });
      expectProblem(await h.get('/api/users?expand[]=p'), { code: 'MALFORMED_PARAMETER', parameter: 'expand[]' });
    });

    it('an alias modifier error names the alias key', async function () {
      expectProblem(await h.get('/api/users?expand[posts]=p&p_sort[title]=sideways'), {
        code: 'MALFORMED_PARAMETER',
        parameter: 'p_sort[title]',
      });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_filter[id]=abc'), { code: 'INVALID_VALUE', parameter: 'p_filter[id]' });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_between[id]=1'), { code: 'MALFORMED_PARAMETER', parameter: 'p_between[id]' });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_fields=id&p_fields=title'), {
        code: 'DUPLICATE_PARAMETER',
        parameter: 'p_fields',
      });
      expectProblem(await h.get('/api/users?expand[posts]=p&p_fields=id&p_fields!=title'), { code: 'CONFLICTING_PARAMETERS' });
    });

    it('a key of another shape that merely contains _ is ignored', async function () {
      expect(await h.userIds('utm_source=x&expand[posts]=p&q_page=1&filter[id]=1')).to.deep.equal([1]);
      expect(await h.userIds('p_page=2&expand[posts]&filter[id]=1')).to.deep.equal([1]);
    });

    it('a key that starts with a declared alias but names no alias modifier is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?p_page=2&expand[posts]=p&p_bogus[x]=1'), {
        code: 'MALFORMED_PARAMETER',
        parameter: 'p_page',
        errors: [
          { code: 'MALFORMED_PARAMETER', parameter: 'p_page' },
          { code: 'MALFORMED_PARAMETER', parameter: 'p_bogus[x]' },
        ],
      });
    });
  });
});
