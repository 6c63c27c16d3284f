// The admin UI's choice of totals (decisions.md 44) in a real browser: the Total control in page
// mode offers the collection's default and each mode, an estimated total is shown as an estimate,
// and the simple envelope of total=none navigates with Previous and Next.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApp } from '../../server/app';
import { createLogger } from '../../server/logging';
import { AdminPage } from './admin-page';
import { browserUnavailable, launchChromium } from './browser';
import { startDemoServer, type DemoServer } from './demo-server';

/** The demo app with estimated totals past 50 records, so the demo's users get the planner's estimate. */
async function estimatingApp(server: DemoServer): Promise<{ origin: string; close(): Promise<void> }> {
  const app = await createApp({
    knex: server.knex,
    logger: createLogger({ LOG_LEVEL: 'silent' }),
    plugin: { pagination: { estimateAbove: 50 } },
  });
  app.silent = true;
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers every error itself (ctx.onerror): its promise never rejects
  const http: Server = createServer(app.callback());
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}

describe('admin UI: totals (browser)', function () {
  this.timeout(120000);
  let server: DemoServer;
  let app: { origin: string; close(): Promise<void> };
  let browser: Browser;
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
    server = await startDemoServer();
    await server.knex.raw('analyze users');
    app = await estimatingApp(server);
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  beforeEach(async function () {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    admin = new AdminPage(page, app.origin);
  });

  afterEach(async function () {
    await context?.close();
    expect(pageErrors.splice(0), 'uncaught errors in the page').to.deep.equal([]);
  });

  async function pages(size: string): Promise<void> {
    await admin.open();
    await page.getByLabel('Pages', { exact: true }).check();
    await page.getByLabel(/^Page size/).fill(size);
  }

  it("offers the collection's default and each mode, and shows an estimated total as an estimate", async function () {
    await pages('5');
    const total = page.getByLabel('Total', { exact: true });
    expect(await total.locator('option').allTextContents()).to.deep.equal([
      'Default: exact (count every record)',
      'exact (count every record)',
      'estimated (planner estimate on large results)',
      'none (previous and next only)',
    ]);
    await total.selectOption('estimated');
    const url = `${app.origin}/api/users?per-page=5&total=estimated`;
    expect(await admin.requestUrl()).to.equal(url);
    await admin.run();
    const body = (await (await fetch(url)).json()) as { total: number; last_page: number; total_is_estimate: boolean };
    expect(body.total_is_estimate).to.equal(true);
    const nav = page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.locator('.page-summary').textContent()).to.equal(
      `Records 1–5 of about ${body.total} · page 1 of about ${body.last_page} (the total is an estimate)`,
    );

    // Under the threshold the total is exact and shown as such.
    const filter = await admin.addRow('root-filter', 'Add filter');
    await filter.getByLabel('Field', { exact: true }).selectOption('role');
    await filter.getByLabel('Value', { exact: true }).fill('admin');
    await admin.run();
    expect(await nav.locator('.page-summary').textContent()).to.equal('Records 1–5 of 22 · page 1 of 5');
  });

  it('moves through the simple envelope of total=none with Previous and Next', async function () {
    await pages('5');
    await page.getByLabel('Total', { exact: true }).selectOption('none');
    const url = `${app.origin}/api/users?per-page=5&total=none`;
    expect(await admin.requestUrl()).to.equal(url);
    await admin.run();
    const nav = page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.locator('.page-summary').textContent()).to.equal('Records 1–5 · page 1 (no total counted)');
    expect(await nav.getByRole('button', { name: 'Previous page' }).isDisabled()).to.equal(true);
    await admin.clickAndWait(nav.getByRole('button', { name: 'Next page' }));
    // The form writes its own order: page before total.
    expect(await admin.requestUrl()).to.equal(`${app.origin}/api/users?per-page=5&page=2&total=none`);
    expect(await page.getByLabel('Total', { exact: true }).inputValue()).to.equal('none');
    const second = (await (await fetch(`${url}&page=2`)).json()) as { data: { id: number }[] };
    expect(await admin.column('id')).to.deep.equal(second.data.map((r) => String(r.id)));
    expect(await nav.locator('.page-summary').textContent()).to.equal('Records 6–10 · page 2 (no total counted)');
    await admin.clickAndWait(nav.getByRole('button', { name: 'Previous page' }));
    expect(await admin.requestUrl()).to.equal(`${app.origin}/api/users?per-page=5&page=1&total=none`);
  });
});
