// One visibility boundary (docs/configuration.md, "What your model's JSON hides or masks"): a field
// the model's own JSON removes is not projectable, one it changes is shown masked and never
// compared, ordered or searched, through every modifier, dot path, relation condition, count and
// cursor; neither appears in an `allowed` list, `_meta` or the OpenAPI document, and naming one is
// answered exactly as naming a field that does not exist.

import { expect } from 'chai';
import { asRow, asRows, expectOk, objectOf, rowsOf, useApp } from '../support/app';
import { walkForward } from '../support/cursor-walk';
import { expectProblem } from '../support/problems';
import { createTokens, maskEmail, maskTitle, secretCollections, tokenRows } from './visibility-models';

const unknown = 'no_such_field';

describe('visibility: what the model’s own JSON removes or masks', function () {
  const h = useApp({ collections: secretCollections, admin: {} }, { prepare: createTokens });

  /** `field` in `path` is refused with the very body `no_such_field` gets: same detail, same `allowed`. */
  async function refusedAsUnknown(path: string, field: string): Promise<void> {
    const named = new RegExp(`\\b${field}\\b`, 'g');
    const renamed = (value: unknown): unknown =>
      typeof value === 'string'
        ? value.replace(named, unknown)
        : Array.isArray(value)
          ? value.map(renamed)
          : typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, renamed(v)]))
            : value;
    const res = await h.get(path);
    const found = Array.isArray(res.body?.errors) ? (res.body.errors as unknown[]).length : 1;
    expectProblem(res, {
      code: 'FIELD_NOT_ALLOWED',
      errors: Array<{ code: 'FIELD_NOT_ALLOWED' }>(found).fill({ code: 'FIELD_NOT_ALLOWED' }),
    });
    const twin = await h.get(path.replace(named, unknown));
    expect(renamed(res.body), path).to.deep.equal(twin.body);
  }

  it('returns records without the removed field and with the masked one as the model masks it', async function () {
    const [alice] = await h.rows('/api/users?filter[id]=1');
    expect(alice).to.include({ id: 1, name: 'Alice Martin', email: maskEmail('alice@example.com') });
    expect(Object.keys(asRow(alice))).not.to.include('password_hash');
    const [post] = await h.rows('/api/posts?filter[id]=1&fields=id,title');
    expect(post).to.deep.equal({ id: 1, title: maskTitle('Hello World') });
  });

  it('refuses fields and fields! naming the removed field, or a field that does not exist', async function () {
    for (const path of ['/api/users?fields=id,password_hash', '/api/users?fields!=password_hash']) {
      await refusedAsUnknown(path, 'password_hash');
    }
    for (const path of ['/api/users?fields=id,nothing_here', '/api/users?fields!=nothing_here']) {
      expectProblem(await h.get(path), { code: 'FIELD_NOT_ALLOWED' });
    }
  });

  it('refuses every comparison of the removed field: no bisection of the hash', async function () {
    const paths = [
      '/api/users?filter[password_hash]=>=hash-1&filter[and password_hash]=<hash-2',
      '/api/users?filter[password_hash]=hash-1-secret',
      '/api/users?in[password_hash]=hash-1-secret,hash-2-secret',
      '/api/users?between[password_hash]=hash-1,hash-2',
      '/api/users?search[password_hash]=hash',
      '/api/users?search[name,password_hash]=hash',
      '/api/users?sort[password_hash]',
      '/api/users?sort[password_hash]=desc&cursor=',
    ];
    for (const path of paths) await refusedAsUnknown(path, 'password_hash');
  });

  it('shows the masked field but refuses to compare, order or search by it', async function () {
    expect(await h.rows('/api/users?fields=email&filter[id]=2')).to.deep.equal([{ email: maskEmail('bob@example.com') }]);
    const paths = [
      '/api/users?filter[email]=>=b&filter[and email]=<c',
      '/api/users?in[email]=bob@example.com',
      '/api/users?between[email]=a,b',
      '/api/users?search[email]=bob',
      '/api/users?sort[email]',
      '/api/users?sort[email]&cursor=',
      '/api/users?sort[email]&per-page=2',
    ];
    for (const path of paths) await refusedAsUnknown(path, 'email');
  });

  it('refuses them through dot paths, has and count conditions, and alias modifiers', async function () {
    const related: [string, string][] = [
      ['/api/posts?filter[author.password_hash]=>=hash-1', 'password_hash'],
      ['/api/posts?filter[author.email]=>=b', 'email'],
      ['/api/posts?search[title,author.email]=bob', 'email'],
      ['/api/posts?sort[author.email]', 'email'],
      ['/api/posts?sort[author.password_hash]&cursor=', 'password_hash'],
      ['/api/posts?has[author]=a&a_filter[password_hash]=>=hash-1', 'password_hash'],
      ['/api/posts?has![author]=a&a_in[email]=bob@example.com', 'email'],
      ['/api/posts?expand[author]=a&a_fields=id,password_hash', 'password_hash'],
      ['/api/posts?expand[author]=a&a_between[password_hash]=a,b', 'password_hash'],
      ['/api/users?filter[posts.secret_note]=>=secret', 'secret_note'],
      ['/api/users?filter[posts.title]=>=H', 'title'],
      ['/api/users?count[posts]=p&p_filter[secret_note]=>=secret', 'secret_note'],
      ['/api/users?count[posts]=p&p_search[title]=Hello', 'title'],
      ['/api/users?has[posts]=p&p_filter[title]=Hello+World', 'title'],
      ['/api/users?expand[posts]=p&p_sort[title]', 'title'],
      ['/api/users?expand[posts]=p&p_fields!=secret_note', 'secret_note'],
      ['/api/users?expand[posts]=p&p_expand[author]=a&a_sort[email]', 'email'],
    ];
    for (const [path, field] of related) await refusedAsUnknown(path, field);
    // The relation itself still works on what may be compared.
    const counted = await h.rows('/api/users?fields=id&filter[id]=1&count[posts]=p&p_filter[status]=draft&expand[posts]=p&p_fields=title');
    expect(counted).to.deep.equal([{ id: 1, posts_count: 1, posts: [{ title: maskTitle('Second Thoughts') }] }]);
  });

  it('leaves both out of every list of _meta and the removed one out of _meta entirely', async function () {
    const res = await h.get('/api/_meta/users');
    expectOk(res);
    expect(res.text).not.to.include('password_hash').and.not.to.include('secret_note');
    const meta = objectOf(res);
    expect(meta.projectable).to.include('email');
    for (const list of ['sortable', 'filterable', 'searchable']) expect(meta[list], list).to.include('name').and.not.to.include('email');
    const related = asRow(meta.related);
    for (const list of ['filterable', 'searchable']) {
      expect(related[list], list).to.include('posts.status').and.not.to.include('posts.title');
    }
    const [posts] = asRows(meta.relations);
    expect(asRow(posts).projectable).to.include('title');
    expect(asRow(posts).sortable).to.include('status').and.not.to.include('title');
  });

  it('leaves both out of the OpenAPI parameters and the removed one out of the document', async function () {
    const res = await h.get('/api/openapi.json');
    expectOk(res);
    expect(res.text).not.to.include('password_hash').and.not.to.include('secret_note');
    const document = objectOf(res);
    const listed = (at: unknown) => (asRow(at).parameters === undefined ? [] : asRows(asRow(at).parameters));
    const items = Object.values(asRow(document.paths));
    const parameters = items.flatMap((item) => [...listed(item), ...(asRow(item).get === undefined ? [] : listed(asRow(item).get))]);
    const names = parameters.flatMap((p) => (typeof p.name === 'string' ? [p.name] : []));
    expect(names).to.include('sort').and.to.include('fields');
    // Each bracketed family is one deepObject parameter whose properties are the keys it allows.
    const keysOf = (p: Record<string, unknown>): string[] => Object.keys(asRow(asRow(p.schema ?? {}).properties ?? {}));
    const familyKeys = parameters.flatMap((p) => keysOf(p).map((key) => `${String(p.name)}[${key}]`));
    expect(familyKeys).to.include('sort[name]').and.to.include('filter[name]');
    expect(familyKeys.filter((n) => /\[(email|title|author\.email|posts\.title)\]/.test(n))).to.deep.equal([]);
    const aliasLists = JSON.stringify(parameters.map((p) => p['x-alias-modifiers'] ?? {}));
    expect(aliasLists).to.match(/"sort":\[[^\]]*"status"/);
    expect(aliasLists).not.to.match(/"(sort|filter|in|between|search)":\[[^\]]*"(title|email)"/);
  });

  describe('a uuid key the model removes', function () {
    const nOf = (rows: readonly Record<string, unknown>[]): unknown[] => rows.map((r) => r.n);

    it('breaks ties in the sort, and pages by cursor, without ever being shown', async function () {
      const res = await h.get('/api/tokens?sort[label]');
      expectOk(res);
      expect(rowsOf(res)).to.deep.equal([5, 3, 1, 4, 2].map((n) => ({ label: n % 2 === 0 ? 'b' : 'a', n })));
      expect(nOf(await h.rows('/api/tokens'))).to.deep.equal([4, 2, 5, 3, 1]);
      const walk = await walkForward((path) => h.get(path), '/api/tokens?sort[label]&per-page=2&cursor=');
      expect(nOf(walk.records)).to.deep.equal([5, 3, 1, 4, 2]);
      const texts = [res.text, ...walk.pages.map((page) => JSON.stringify(page.data))];
      for (const { id } of tokenRows) for (const text of texts) expect(text).not.to.include(id);
    });

    it('is refused by every modifier, as a field that does not exist', async function () {
      for (const path of ['/api/tokens?fields=id', '/api/tokens?sort[id]', '/api/tokens?filter[id]=00000000-0000-4000-8000-000000000001']) {
        await refusedAsUnknown(path, 'id');
      }
      const meta = await h.get('/api/_meta/tokens');
      expect(objectOf(meta).projectable).to.deep.equal(['label', 'n']);
    });
  });
});
