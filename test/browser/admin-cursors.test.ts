// The admin UI's cursor pagination (docs/query-language.md, "Cursors: cursor") in a real browser:
// the Cursor mode beside Pages, its request (`cursor=` with the page size), and Next, Previous and
// First moving through the cursor pages exactly as the API's links lead; an edit of the form starts
// again from the first page.

import { expect } from 'chai';
import { useAdminBrowser } from './admin-harness';

interface CursorBody {
  data: { id: number }[];
  next_cursor: string | null;
  prev_cursor: string | null;
}

describe('admin UI: cursor pages (browser)', function () {
  this.timeout(120000);
  const h = useAdminBrowser();

  const api = async (query: string): Promise<CursorBody> =>
    (await (await fetch(`${h.server.origin}/api/users?${query}`)).json()) as CursorBody;
  const ids = (body: CursorBody): string[] => body.data.map((r) => String(r.id));

  it('moves through cursor pages with Next, Previous and First', async function () {
    await h.admin.open();
    await h.page.getByLabel(/^Cursor/).check();
    await h.page.getByLabel(/^Page size/).fill('4');
    const sort = await h.admin.addRow('root-sort', 'Add sort');
    await sort.getByLabel('Sort by', { exact: true }).selectOption('created_at');
    await sort.getByLabel('Direction', { exact: true }).selectOption('desc');
    const query = 'sort[created_at]=desc&per-page=4';
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}&cursor=`);
    await h.admin.run();
    const first = await api(`${query}&cursor=`);
    expect(await h.admin.column('id')).to.deep.equal(ids(first));
    const nav = h.page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.locator('.page-summary').textContent()).to.equal('4 records on this page (cursor pages: no total counted)');
    expect(await nav.getByRole('button', { name: 'Previous page' }).isDisabled()).to.equal(true);
    expect(await nav.getByRole('button', { name: 'First page' }).isDisabled()).to.equal(true);

    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Next page' }));
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}&cursor=${first.next_cursor ?? ''}`);
    const second = await api(`${query}&cursor=${first.next_cursor ?? ''}`);
    expect(await h.admin.column('id')).to.deep.equal(ids(second));
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Next page' }));
    const third = await api(`${query}&cursor=${second.next_cursor ?? ''}`);
    expect(await h.admin.column('id')).to.deep.equal(ids(third));

    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Previous page' }));
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}&cursor=${third.prev_cursor ?? ''}`);
    expect(await h.admin.column('id')).to.deep.equal(ids(second));
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'First page' }));
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}&cursor=`);
    expect(await h.admin.column('id')).to.deep.equal(ids(first));
  });

  it('an edit of the form starts again from the first page, so the cursor never meets another sort', async function () {
    await h.admin.open('#users?fields=id,name&per-page=3&cursor=');
    await h.admin.run();
    const nav = h.page.getByRole('navigation', { name: 'Result pages' });
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Next page' }));
    expect(await h.admin.requestUrl()).to.match(/cursor=[A-Za-z0-9_-]+$/);
    const sort = await h.admin.addRow('root-sort', 'Add sort');
    await sort.getByLabel('Sort by', { exact: true }).selectOption('name');
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?fields=id,name&sort[name]=asc&per-page=3&cursor=`);
    await h.admin.run();
    const first = await api('fields=id,name&sort[name]=asc&per-page=3&cursor=');
    expect(await h.admin.column('id')).to.deep.equal(ids(first));
  });
});
