// The shared cache across instances (docs/scaling.md, "A cache every instance shares"): two app
// processes on one PostgreSQL and one throw-away redis-server. An answer one instance computed is
// served by the other without the collection's statements; a write committed by another client to
// any table an answer read is seen by the next request, every time; Redis stopping under load, lost
// connections, a missing trigger and callers told apart by cacheKey never give a stale or wrong answer.
// PostgreSQL only (TEST_DB=postgres); needs redis-server: REQUIRE_POSTGRES=1 makes its absence a failure.

import { expect } from 'chai';
import type { Knex } from 'knex';
import { queryModifiers } from '../../plugin';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/db';
import { Comment, Phone, Post, Role, User } from '../support/fixture';
import { Instance, redisMissing, ThrowawayRedis } from '../support/shared-cache-harness';

const WIDE = '/api/users?fields=id,name&expand[posts]=p&p_fields=id,title&expand[roles]=r&r_fields=id,name&sort[id]=asc&per-page=5';
const NEWEST = '/api/users?fields=id,name&sort[id]=desc&per-page=2';
const PHONES = '/api/users?fields=id&expand[phone]=ph&sort[id]=asc&per-page=3';

function databaseUrl(db: TestDatabase): string {
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${db.name as string}`;
  return url.toString();
}

async function installTriggers(knex: Knex): Promise<void> {
  const router = await queryModifiers({
    knex,
    collections: { users: User, posts: Post, comments: Comment, phones: Phone, roles: Role },
    indexAdvice: false,
    cursorSecret: 'the shared cache instances share this cursor secret',
  });
  await router.installChangeTriggers();
}

describe('shared cache across instances (PostgreSQL and Redis)', function () {
  this.timeout(120000);
  let db: TestDatabase;
  let redis: ThrowawayRedis;
  let a: Instance;
  let b: Instance;
  const started: Instance[] = [];
  const pick = () => (Math.random() < 0.5 ? a : b);

  before(async function () {
    if (testDbKind() !== 'postgres') this.skip();
    const missing = redisMissing();
    if (missing !== undefined) {
      if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${missing}`);
      this.skip();
    }
    db = await createTestDatabase();
    await installTriggers(db.knex);
    redis = await ThrowawayRedis.start();
    const env = { DATABASE_URL: databaseUrl(db), REDIS_URL: redis.url };
    [a, b] = await Promise.all([Instance.start(env), Instance.start(env)]);
    started.push(a, b);
  });

  after(async () => {
    for (const instance of started) await instance.stop();
    await redis?.stop();
    await db?.destroy();
  });

  /** An instance with the scope hook on users (X-Status), with or without cacheKey. */
  async function scopedInstance(cacheKey: boolean): Promise<Instance> {
    const env = { DATABASE_URL: databaseUrl(db), REDIS_URL: redis.url, SCOPED: '1', ...(cacheKey ? {} : { NO_CACHE_KEY: '1' }) };
    const instance = await Instance.start(env);
    started.push(instance);
    return instance;
  }

  it('serves an answer one instance computed from the other, 304 included, without its statements', async () => {
    const first = await a.get(WIDE);
    expect(first.status).to.equal(200);
    expect(first.cache).to.equal('miss');
    const before = await b.statements();
    const second = await b.get(WIDE);
    expect(second).to.deep.equal({ ...first, cache: 'hit' });
    expect(await b.revalidate(WIDE, first.etag)).to.equal(304);
    expect(await b.statements()).to.equal(before);
  });

  it('shows every write another client commits, to the root, an expanded or a join table, on the next request to either instance', async () => {
    const firstPost = ((await db.knex('posts').where('user_id', 1).min('id as id').first()) as { id: number }).id;
    let hits = 0;
    const trials = 300;
    for (let i = 0; i < trials; i += 1) {
      const kind = i % 5;
      const url = kind === 2 || kind === 3 ? NEWEST : WIDE;
      // The answer is in the cache before the write: read it twice, the second time from the cache.
      await pick().get(url);
      if ((await pick().get(url)).cache === 'hit') hits += 1;
      let check: (body: string) => boolean;
      if (kind === 0) {
        await db
          .knex('users')
          .where('id', 1)
          .update({ name: `name ${i}` });
        check = (body) => body.includes(`"name":"name ${i}"`);
      } else if (kind === 1) {
        await db
          .knex('posts')
          .where('id', firstPost)
          .update({ title: `title ${i}` });
        check = (body) => body.includes(`"title":"title ${i}"`);
      } else if (kind === 2) {
        const now = new Date();
        await db
          .knex('users')
          .insert({ id: 100000 + i, name: `new ${i}`, email: 'n@x', password_hash: 'x', created_at: now, updated_at: now });
        check = (body) => body.includes(`"id":${100000 + i}`);
      } else if (kind === 3) {
        await db
          .knex('users')
          .where('id', 100000 + i - 1)
          .delete();
        check = (body) => !body.includes(`"id":${100000 + i - 1}`);
      } else {
        const held = await db.knex('role_user').where({ user_id: 1, role_id: 2 }).first<{ user_id: number } | undefined>();
        if (held === undefined) await db.knex('role_user').insert({ user_id: 1, role_id: 2 });
        else await db.knex('role_user').where({ user_id: 1, role_id: 2 }).delete();
        const roles = await db.knex('role_user').where('user_id', 1).orderBy('role_id');
        const count = roles.length;
        check = (body) => {
          const users = (JSON.parse(body) as { data: { id: number; roles: unknown[] }[] }).data;
          return users.find((user) => user.id === 1)?.roles.length === count;
        };
      }
      const after = await pick().get(url);
      expect(after.status).to.equal(200);
      expect(check(after.body), `trial ${i} (write kind ${kind}): ${after.cache} ${after.body.slice(0, 300)}`).to.equal(true);
    }
    // The cache was in play: most second reads before a write came from it.
    expect(hits).to.be.greaterThan(trials / 2);
  });

  it('shows a TRUNCATE of an expanded table on the next request', async () => {
    await a.get(PHONES);
    expect((await b.get(PHONES)).cache).to.equal('hit');
    await db.knex.raw('truncate phones');
    const after = await pick().get(PHONES);
    expect((JSON.parse(after.body) as { data: { phone: unknown }[] }).data.every((user) => user.phone === null)).to.equal(true);
  });

  it('serves nothing from the cache for a table whose trigger was dropped, and everything again once it is back', async () => {
    await db.knex.raw('drop trigger koa_query_modifiers_changes on posts');
    await a.get(WIDE);
    const again = await b.get(WIDE);
    expect(again.cache).to.not.equal('hit');
    await db.knex('posts').update({ title: 'untracked write' }).where('user_id', 1);
    expect((await a.get(WIDE)).body).to.include('untracked write');
    await installTriggers(db.knex);
    await a.get(WIDE);
    expect((await b.get(WIDE)).cache).to.equal('hit');
  });

  it('gives no stale answer after every connection of the instances is terminated', async () => {
    for (let i = 0; i < 20; i += 1) {
      await pick().get(WIDE);
      await db.knex.raw(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      await db
        .knex('users')
        .where('id', 1)
        .update({ name: `after terminate ${i}` });
      // A request on a connection that was just cut may be 503; the next one reconnects.
      let res = await pick().get(WIDE);
      for (let tries = 0; res.status === 503 && tries < 3; tries += 1) res = await pick().get(WIDE);
      expect(res.status).to.equal(200);
      expect(res.body).to.include(`"name":"after terminate ${i}"`);
    }
  });

  it("keeps answers under a scope hook per cacheKey, never giving one caller another caller's rows", async () => {
    const [c, d] = await Promise.all([scopedInstance(true), scopedInstance(true)]);
    const url = '/api/users?fields=id,status&sort[id]=asc&per-page=100';
    let hits = 0;
    for (let i = 0; i < 40; i += 1) {
      const status = i % 3 === 0 ? 'inactive' : 'active';
      const res = await (i % 2 === 0 ? c : d).get(url, { 'X-Status': status });
      if (res.cache === 'hit') hits += 1;
      const rows = (JSON.parse(res.body) as { data: { status: string }[] }).data;
      expect(rows.length).to.be.greaterThan(0);
      expect(
        rows.every((row) => row.status === status),
        res.body.slice(0, 200),
      ).to.equal(true);
    }
    expect(hits).to.be.greaterThan(20);
    const blind = await scopedInstance(false);
    for (const status of ['active', 'active', 'inactive']) expect((await blind.get(url, { 'X-Status': status })).cache).to.equal('none');
  });

  it('answers only 200s while Redis stops under load, and caches again once it is back', async () => {
    const urls = [WIDE, NEWEST, PHONES, '/api/posts?sort[id]=desc&per-page=3', '/api/roles'];
    const statuses = new Map<number, number>();
    let running = true;
    const load = async () => {
      while (running) {
        const res = await pick().get(urls[Math.floor(Math.random() * urls.length)] as string);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const workers = Array.from({ length: 8 }, load);
    await new Promise((wait) => setTimeout(wait, 500));
    await redis.stop();
    await new Promise((wait) => setTimeout(wait, 1500));
    await redis.resume();
    await new Promise((wait) => setTimeout(wait, 500));
    running = false;
    await Promise.all(workers);
    expect([...statuses.keys()]).to.deep.equal([200]);
    // ioredis reconnects on its own; answers are kept and served again.
    let hit = false;
    for (let i = 0; i < 50 && !hit; i += 1) {
      await a.get(WIDE);
      hit = (await b.get(WIDE)).cache === 'hit';
      if (!hit) await new Promise((wait) => setTimeout(wait, 200));
    }
    expect(hit).to.equal(true);
  });
});
