// What the plugin keeps between requests: the prepared form of each query string (on by default) and,
// when the host turns it on, envelope totals. Neither may change an answer beyond what the docs say:
// page URLs follow each request's own Host, the scope hook still sees every request, and a kept total
// lags writes by at most its time to live.

import { expect } from 'chai';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { queryModifiers, type ModelQuery } from '../../plugin';
import { objectOf, useApp, expectOk } from '../support/app';
import { collections } from '../support/fixture';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function addUser(knex: Knex, name: string): Promise<void> {
  const at = '2025-06-01T00:00:00Z';
  // The fixture sets its ids itself, so the sequence is behind them.
  const result: unknown = await knex('users').select(knex.raw('max(id) + 1 as next'));
  const rows = result as { next: number }[];
  await knex('users').insert({ id: rows[0]?.next, name, email: `${name}@example.com`, password_hash: 'x', created_at: at, updated_at: at });
}

/** Counts the count statements the app sends (`select count(*) ...`). */
function countStatements(knex: Knex): { readonly seen: () => number; readonly stop: () => void } {
  let seen = 0;
  const listener = (event: { sql: string }) => {
    if (event.sql.startsWith('select count(*)')) seen += 1;
  };
  knex.on('query', listener);
  return { seen: () => seen, stop: () => knex.off('query', listener) };
}

describe('kept between requests', function () {
  describe('prepared queries (planCache, on by default)', function () {
    const h = useApp();

    it('page URLs follow the Host of each request, not of the first one', async function () {
      const query = '/api/users?fields=id&per-page=5';
      const first = objectOf(await h.get(query).set('Host', 'one.example'));
      const second = objectOf(await h.get(query).set('Host', 'two.example'));
      expect(first.next_page_url).to.equal('http://one.example/api/users?fields=id&per-page=5&page=2');
      expect(second.next_page_url).to.equal('http://two.example/api/users?fields=id&per-page=5&page=2');
    });

    it('page links replace `page` where it stands, from the query string as sent, also when it is kept', async function () {
      for (let i = 0; i < 2; i += 1) {
        const body = objectOf(await h.get('/api/users?page=2&&per-page=3&fields=id'));
        expect(body.next_page_url).to.match(/\/api\/users\?page=3&per-page=3&fields=id$/);
        expect(body.prev_page_url).to.match(/\/api\/users\?page=1&per-page=3&fields=id$/);
      }
    });

    it('a repeated mistake gets the same 400 every time', async function () {
      for (let i = 0; i < 3; i += 1) {
        const res = await h.get('/api/users?filter[nope]=1');
        expect(res.status).to.equal(400);
        expect(res.body.code).to.equal('FIELD_NOT_ALLOWED');
      }
    });

    it('the same query string on two collections is two queries', async function () {
      const users = await h.rows('/api/users?fields=id&limit=2');
      const posts = await h.rows('/api/posts?fields=id&limit=2&sort[id]=desc');
      expect(users).to.deep.equal([{ id: 1 }, { id: 2 }]);
      expect(posts.map((p) => p.id))
        .to.have.length(2)
        .and.not.deep.equal([1, 2]);
    });

    it('totals are counted on every request (no totalsCache), so a new record shows at once', async function () {
      const before = objectOf(await h.get('/api/users?per-page=5&page=2'));
      await addUser(h.db.knex, 'zed');
      const after = objectOf(await h.get('/api/users?per-page=5&page=2'));
      expect(after.total).to.equal(Number(before.total) + 1);
    });

    for (const [what, options] of [
      ['a negative planCache', { planCache: -1 }],
      ['a planCache object without maxBytes', { planCache: { maxEntries: 10 } }],
      ['a totalsCache without ttlSeconds', { totalsCache: {} }],
      ['a zero time to live', { totalsCache: { ttlSeconds: 0 } }],
      ['an unknown totalsCache key', { totalsCache: { ttlSeconds: 5, ttl: 5 } }],
    ] as const) {
      it(`rejects ${what} at start-up, naming the option`, async function () {
        const started = queryModifiers({ knex: h.db.knex, collections, ...(options as object) });
        const error = await started.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(Error);
        expect((error as Error).message)
          .to.match(/invalid options/)
          .and.match(/planCache|totalsCache/);
      });
    }
  });

  describe('a cache of one entry', function () {
    const h = useApp({ planCache: 1 });

    it('alternating queries still get their own answers', async function () {
      for (let i = 0; i < 3; i += 1) {
        expect(await h.userIds('fields=id&limit=2')).to.deep.equal([1, 2]);
        expect(await h.userIds('fields=id&limit=2&sort[id]=desc')).to.deep.equal([23, 22]);
      }
    });
  });

  describe('a cache bounded by bytes', function () {
    const h = useApp({ planCache: { maxBytes: 16 * 1024 } });

    it('long distinct query strings that push each other out still get their own answers', async function () {
      // Each one weighs several kilobytes, so only a few fit; every answer is its own.
      const longIn = (first: number) => `fields=id&sort[id]=desc&in[id]=${Array.from({ length: 400 }, (_, k) => first + k * 23).join(',')}`;
      for (let round = 0; round < 2; round += 1) {
        for (let first = 1; first <= 6; first += 1) {
          expect(await h.userIds(longIn(first))).to.deep.equal([first]);
        }
      }
    });
  });

  describe('with a scope hook', function () {
    const scope = (ctx: Context, collection: string, query: ModelQuery): void => {
      if (collection === 'users') query.where('users.id', '<=', Number(ctx.get('x-max-id') || 23));
    };
    const h = useApp({ scope, totalsCache: { ttlSeconds: 60 } });

    it('the hook restricts every request, also when the query string repeats', async function () {
      const query = '/api/users?fields=id&per-page=2&page=2';
      const three = objectOf(await h.get(query).set('x-max-id', '3'));
      const ten = objectOf(await h.get(query).set('x-max-id', '10'));
      expect(three.data).to.deep.equal([{ id: 3 }]);
      expect(three.total).to.equal(3);
      expect(ten.data).to.deep.equal([{ id: 3 }, { id: 4 }]);
      // Kept totals belong to the restricted count, so one request's total is never another's.
      expect(ten.total).to.equal(10);
      expect(objectOf(await h.get(query).set('x-max-id', '3')).total).to.equal(3);
    });
  });

  describe('totals kept for a while (totalsCache)', function () {
    const h = useApp({ totalsCache: { ttlSeconds: 0.5 } });

    it('lag a write by at most the time to live', async function () {
      const path = '/api/users?fields=id&per-page=5&page=2';
      const before = Number(objectOf(await h.get(path)).total);
      await addUser(h.db.knex, 'yara');
      expect(objectOf(await h.get(path)).total).to.equal(before);
      await sleep(600);
      const later = objectOf(await h.get(path));
      expect(later.total).to.equal(before + 1);
      expect(later.last_page).to.equal(Math.ceil((before + 1) / 5));
    });

    it('are kept per filter', async function () {
      const active = objectOf(await h.get('/api/users?filter[status]=active&per-page=1'));
      const banned = objectOf(await h.get('/api/users?filter[status]=banned&per-page=1'));
      expect(active.total).to.not.equal(banned.total);
    });

    it('requests that need the same total at once share one count', async function () {
      // A filter no earlier test used: totals are kept per filter, whatever the page or fields.
      const counting = countStatements(h.db.knex);
      try {
        const answers = await Promise.all(Array.from({ length: 8 }, () => h.get('/api/users?fields=id&filter[id]=>=2&per-page=3&page=4')));
        for (const res of answers) expectOk(res);
        expect(new Set(answers.map((res) => res.body.total as unknown)).size).to.equal(1);
        expect(counting.seen()).to.equal(1);
      } finally {
        counting.stop();
      }
    });
  });
});
