// The admin UI mounted by a host under its own paths (API at /cms/v2, admin page at /tools/query,
// beside the host's own routes) finds its API without being told: it reads the prefix the plugin
// writes into the page, lists the collections, runs and explains requests there.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { knex as createKnex, type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { queryModifiers } from '../../plugin';
import { Post, User } from '../../server/demo/models';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { AdminPage } from './admin-page';
import { browserUnavailable, launchChromium } from './browser';

const PREFIX = '/cms/v2';
const ADMIN_PATH = '/tools/query';

/** A host app: its own `/cms/v2/me` and the plugin under /cms/v2 with the admin page at /tools/query. */
async function hostApp(knex: Knex): Promise<Koa> {
  const plugin = await queryModifiers({
    knex,
    collections: { users: User, posts: Post },
    prefix: PREFIX,
    admin: { path: ADMIN_PATH, explain: true },
  });
  const host = new Router();
  host.get(`${PREFIX}/me`, (ctx) => {
    ctx.body = { user: 'host' };
  });
  const app = new Koa();
  app.silent = true;
  app.use(host.routes()).use(host.allowedMethods()).use(plugin.routes()).use(plugin.allowedMethods());
  return app;
}

describe('admin UI under a custom prefix and path (browser)', function () {
  this.timeout(120000);
  let knex: Knex | undefined;
  let server: Server | undefined;
  let origin = '';
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let admin: AdminPage;
  const pageErrors: string[] = [];

  before(async function () {
    const missing = browserUnavailable();
    if (missing !== undefined) {
      console.log(`  browser tests skipped: ${missing}`);
      this.skip();
    }
    knex = createKnex({ client: ClientPgLite, connection: { filename: 'memory://' } });
    await prepareDemoDatabase(knex);
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers every error itself (ctx.onerror): its promise never rejects
    const listening = createServer((await hostApp(knex)).callback());
    server = listening;
    await new Promise<void>((done) => listening.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())));
    await knex?.destroy();
  });

  beforeEach(async function () {
    if (browser === undefined) return this.skip();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    admin = new AdminPage(page, origin, ADMIN_PATH);
  });

  afterEach(async function () {
    await context?.close();
    expect(pageErrors.splice(0), 'uncaught errors in the page').to.deep.equal([]);
  });

  it('starts at the API the plugin serves, lists its collections and runs a request there', async function () {
    await admin.open();
    expect(await page.locator('#page-message').textContent()).to.equal('');
    expect(await page.getByLabel('API prefix').inputValue()).to.equal(PREFIX);
    expect(await page.getByLabel('Collection').locator('option').allTextContents()).to.deep.equal(['users', 'posts']);
    expect(await page.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href')).to.equal(`${PREFIX}/openapi.json`);

    await page.getByLabel('Pages', { exact: true }).check();
    await page.getByLabel(/^Page size/).fill('3');
    const url = `${origin}${PREFIX}/users?per-page=3`;
    expect(await admin.requestUrl()).to.equal(url);
    await admin.run();
    const response = await fetch(url);
    expect(response.status).to.equal(200);
    const records = ((await response.json()) as { data: { id: number }[] }).data;
    expect(await admin.column('id')).to.deep.equal(records.map((record) => String(record.id)));
    expect(await page.locator('#result-status').textContent()).to.match(/^HTTP 200 · 3 records · \d+ ms$/);
  });

  it('explains a request through the same prefix', async function () {
    await admin.open('#posts?per-page=2');
    expect(await admin.requestUrl()).to.equal(`${origin}${PREFIX}/posts?per-page=2`);
    await admin.clickAndWait(page.getByRole('button', { name: 'Explain: SQL and plan' }));
    const sql = (await page.locator('#panel-sql pre.sql').allTextContents()).join('\n');
    expect(sql).to.match(/from "posts"/i);
  });
});
