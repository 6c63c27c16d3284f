// The admin UI's choice of totals (docs/query-language.md, "Totals: total=exact, estimated, none")
// in a real browser: the Total control in page mode offers the collection's default and each mode,
// an estimated total is shown as an estimate, and the simple envelope of total=none navigates with
// Previous and Next.

import { expect } from 'chai';
import { useAdminBrowser, type ServedApp } from './admin-harness';
import { serveDemo, type SeededDemoServer } from '../support/demo-server';

/** The demo app with estimated totals past 50 records, so the demo's users get the planner's estimate. */
async function estimatingApp(server: SeededDemoServer): Promise<ServedApp> {
  await server.knex.raw('analyze users');
  return serveDemo(server.knex, { explain: true, plugin: { pagination: { estimateAbove: 50 } } });
}

describe('admin UI: totals (browser)', function () {
  this.timeout(120000);
  const h = useAdminBrowser({ serve: estimatingApp });

  async function pages(size: string): Promise<void> {
    await h.admin.open();
    await h.page.getByLabel('Pages', { exact: true }).check();
    await h.page.getByLabel(/^Page size/).fill(size);
  }

  it("offers the collection's default and each mode, and shows an estimated total as an estimate", async function () {
    await pages('5');
    const total = h.page.getByLabel('Total', { exact: true });
    expect(await total.locator('option').allTextContents()).to.deep.equal([
      'Default: exact (count every record)',
      'exact (count every record)',
      'estimated (planner estimate on large results)',
      'none (previous and next only)',
    ]);
    await total.selectOption('estimated');
    const url = `${h.origin}/api/users?per-page=5&total=estimated`;
    expect(await h.admin.requestUrl()).to.equal(url);
    await h.admin.run();
    const body = (await (await fetch(url)).json()) as { total: number; last_page: number; total_is_estimate: boolean };
    expect(body.total_is_estimate).to.equal(true);
    const nav = h.page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.locator('.page-summary').textContent()).to.equal(
      `Records 1–5 of about ${body.total} · page 1 of about ${body.last_page} (the total is an estimate)`,
    );

    // Under the threshold the total is exact and shown as such.
    const filter = await h.admin.addRow('root-filter', 'Add filter');
    await filter.getByLabel('Field', { exact: true }).selectOption('role');
    await filter.getByLabel('Value', { exact: true }).fill('admin');
    await h.admin.run();
    expect(await nav.locator('.page-summary').textContent()).to.equal('Records 1–5 of 22 · page 1 of 5');
  });

  it('moves through the simple envelope of total=none with Previous and Next', async function () {
    await pages('5');
    await h.page.getByLabel('Total', { exact: true }).selectOption('none');
    const url = `${h.origin}/api/users?per-page=5&total=none`;
    expect(await h.admin.requestUrl()).to.equal(url);
    await h.admin.run();
    const nav = h.page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.locator('.page-summary').textContent()).to.equal('Records 1–5 · page 1 (no total counted)');
    expect(await nav.getByRole('button', { name: 'Previous page' }).isDisabled()).to.equal(true);
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Next page' }));
    // The form writes its own order: page before total.
    expect(await h.admin.requestUrl()).to.equal(`${h.origin}/api/users?per-page=5&page=2&total=none`);
    expect(await h.page.getByLabel('Total', { exact: true }).inputValue()).to.equal('none');
    const second = (await (await fetch(`${url}&page=2`)).json()) as { data: { id: number }[] };
    expect(await h.admin.column('id')).to.deep.equal(second.data.map((r) => String(r.id)));
    expect(await nav.locator('.page-summary').textContent()).to.equal('Records 6–10 · page 2 (no total counted)');
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Previous page' }));
    expect(await h.admin.requestUrl()).to.equal(`${h.origin}/api/users?per-page=5&page=1&total=none`);
  });
});
