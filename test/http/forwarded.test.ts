// Page URLs behind a reverse proxy (docs/installing.md): the forwarded scheme and host are used only
// when the host app trusts its proxy (`app.proxy = true`), exactly as Koa's ctx.protocol and
// ctx.host read them; otherwise the URLs name the address the request came to.

import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { queryModifiers } from '../../plugin';
import { collections } from '../support/fixture';
import { expectOk, listen, objectOf, useApp, type Row, type TestApp } from '../support/app';

const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' };

/** Every page URL of an envelope (page, simple or cursor), the nulls left out. */
function pageUrls(body: Row): string[] {
  const urls = ['path', 'first_page_url', 'last_page_url', 'next_page_url', 'prev_page_url'].map((key) => body[key]);
  const links = Array.isArray(body.links) ? (body.links as Row[]).map((link) => link.url) : [];
  return [...urls, ...links].filter((url): url is string => typeof url === 'string');
}

/** The queries whose envelopes hold page URLs: a page envelope, the simple one, a cursor page after the first. */
const queries = ['sort[id]&per-page=5&page=2', 'sort[id]&per-page=5&page=2&total=none', 'sort[id]&per-page=5&cursor='];

describe('page URLs behind a proxy: X-Forwarded-Proto and X-Forwarded-Host only with app.proxy', function () {
  const harness = useApp();
  const servers = new Map<boolean, TestApp>();

  before(async function () {
    for (const proxy of [true, false]) {
      const router = await queryModifiers({ knex: harness.db.knex, collections });
      const app = new Koa();
      app.proxy = proxy;
      app.use(router.routes());
      servers.set(proxy, await listen(app));
    }
  });

  after(async function () {
    for (const server of servers.values()) await server.close();
  });

  /** The page URLs of each query's envelope, and of the cursor page that follows the first. */
  async function urlsFor(proxy: boolean, headers: Record<string, string>): Promise<string[]> {
    const origin = (servers.get(proxy) as TestApp).origin;
    const get = async (path: string) => {
      const res = await supertest(origin).get(path).set(headers);
      expectOk(res, path);
      return objectOf(res);
    };
    const urls: string[] = [];
    for (const query of queries) {
      const body = await get(`/api/users?${query}`);
      urls.push(...pageUrls(body));
      if (typeof body.next_cursor === 'string')
        urls.push(...pageUrls(await get(`/api/users?sort[id]&per-page=5&cursor=${body.next_cursor}`)));
    }
    expect(urls.length).to.be.above(10);
    return urls;
  }

  it('with app.proxy = true, every page URL uses the forwarded scheme and host', async function () {
    for (const url of await urlsFor(true, forwarded)) expect(url).to.match(/^https:\/\/api\.example\.com\/api\/users(\?|$)/);
  });

  it('with app.proxy = true and a chain of proxies, the first value of each header (the client-facing one), as Koa reads it', async function () {
    const chain = { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'www.example.org, internal:8080' };
    for (const url of await urlsFor(true, chain)) expect(url).to.match(/^https:\/\/www\.example\.org\/api\/users(\?|$)/);
  });

  it('with app.proxy = true and no forwarded headers, the Host the request came with over http', async function () {
    const origin = (servers.get(true) as TestApp).origin;
    for (const url of await urlsFor(true, {})) expect(url.startsWith(`${origin}/api/users`), url).to.equal(true);
  });

  it('without app.proxy, forwarded headers are ignored: a client cannot make the links point elsewhere', async function () {
    const origin = (servers.get(false) as TestApp).origin;
    for (const url of await urlsFor(false, forwarded)) expect(url.startsWith(`${origin}/api/users`), url).to.equal(true);
  });
});
