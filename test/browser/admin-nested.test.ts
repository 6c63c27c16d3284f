// The admin UI builds nested expansions (docs/query-language.md, "Nested expansion") with their own
// alias modifiers and per-record windows in a real browser, shows the nested records in the results
// table, and rebuilds such a form from a pasted URL.

import { expect } from 'chai';
import type { Locator } from 'playwright-core';
import { useAdminBrowser } from './admin-harness';

type Row = Record<string, unknown>;

async function apiData(url: string): Promise<Row[]> {
  const response = await fetch(url);
  expect(response.status, `GET ${url}`).to.equal(200);
  const body = (await response.json()) as { data?: Row[] };
  return body.data ?? expect.fail('expected an envelope');
}

/** The cells of `field` in the table inside `cell` (opening its <details> first). */
async function nestedColumn(cell: Locator, field: string): Promise<string[]> {
  await cell.locator(':scope > details > summary').click();
  const table = cell.locator(':scope > details > table');
  const headers = await table.locator(':scope > thead > tr > th').allTextContents();
  const at = headers.indexOf(field);
  if (at === -1) throw new Error(`no column ${field} in ${headers.join(', ')}`);
  return table.locator(`:scope > tbody > tr > td:nth-child(${at + 1})`).allTextContents();
}

describe('admin UI: nested expansions (browser)', function () {
  this.timeout(120000);
  const h = useAdminBrowser({ height: 900 });

  it('builds posts -> comments -> author with windows, and shows the nested records', async function () {
    await h.admin.open();
    await h.page.getByRole('button', { name: 'Add expansion' }).click();
    const posts = h.page.locator('#expand .expansion').nth(0);
    expect(await posts.getByLabel('Relation', { exact: true }).inputValue()).to.equal('posts');
    await posts.getByLabel('Limit per record', { exact: true }).fill('2');
    await posts.getByRole('button', { name: 'Add sort', exact: true }).click();
    const sort = posts.locator('[id$="-sort"] > .row').last();
    await sort.getByLabel('Sort by', { exact: true }).selectOption('created_at');
    await sort.getByLabel('Direction', { exact: true }).selectOption('desc');

    await posts.getByRole('button', { name: 'Add nested expansion' }).click();
    const comments = h.page.locator('#expand .expansion').nth(1);
    await comments.getByLabel('Relation', { exact: true }).first().selectOption('comments');
    expect(await comments.getByLabel('Alias', { exact: true }).first().inputValue()).to.equal('c');
    await comments.getByLabel('Limit per record', { exact: true }).first().fill('1');
    await comments.getByLabel('Only these', { exact: true }).first().check();
    await comments.getByLabel('body', { exact: true }).first().check();

    await comments.getByRole('button', { name: 'Add nested expansion' }).click();
    const author = h.page.locator('#expand .expansion').nth(2);
    expect(await author.getByLabel('Relation', { exact: true }).inputValue()).to.equal('author');
    // A comment has one author: no window is offered for it.
    expect(await author.getByLabel('Limit per record', { exact: true }).count()).to.equal(0);
    await author.getByLabel('Only these', { exact: true }).check();
    await author.getByLabel('name', { exact: true }).check();
    // The depth cap (3) offers no fourth level.
    expect(await author.getByRole('button', { name: 'Add nested expansion' }).count()).to.equal(0);

    await h.page.getByLabel('Pages', { exact: true }).check();
    await h.page.getByLabel(/^Page size/).fill('5');
    const expected =
      `${h.server.origin}/api/users?expand[posts]=p&p_sort[created_at]=desc&p_limit=2` +
      '&p_expand[comments]=c&c_fields=body&c_limit=1&c_expand[author]=a&a_fields=name&per-page=5';
    expect(await h.admin.requestUrl()).to.equal(expected);

    await h.admin.run();
    const records = await apiData(expected);
    const withPosts = records.findIndex((r) => (r.posts as Row[]).some((p) => (p.comments as Row[]).length > 0));
    expect(withPosts, 'a user whose posts have comments on the first page').to.be.at.least(0);
    const apiPosts = records[withPosts]?.posts as Row[];
    const columns = await h.admin.columns();
    const postsCell = h.page
      .locator('#panel-table .table-scroll > table > tbody > tr')
      .nth(withPosts)
      .locator(`:scope > td:nth-child(${columns.indexOf('posts') + 1})`);
    expect(await nestedColumn(postsCell, 'id')).to.deep.equal(apiPosts.map((p) => String(p.id)));
    const at = apiPosts.findIndex((p) => (p.comments as Row[]).length > 0);
    const postHeaders = await postsCell.locator(':scope > details > table > thead > tr > th').allTextContents();
    const commentsCell = postsCell
      .locator(':scope > details > table > tbody > tr')
      .nth(at)
      .locator(`:scope > td:nth-child(${postHeaders.indexOf('comments') + 1})`);
    const apiComment = (apiPosts[at]?.comments as Row[])[0] as Row;
    expect(await nestedColumn(commentsCell, 'body')).to.deep.equal([apiComment.body]);
    const commentHeaders = await commentsCell.locator(':scope > details > table > thead > tr > th').allTextContents();
    const authorCell = commentsCell
      .locator(':scope > details > table > tbody > tr')
      .nth(0)
      .locator(`:scope > td:nth-child(${commentHeaders.indexOf('author') + 1})`);
    expect(await nestedColumn(authorCell, 'name')).to.deep.equal([(apiComment.author as Row).name]);
    await h.admin.screenshot('admin-ui-nested');
  });

  it('rebuilds nested expansions and windows from a pasted URL, and gives the same URL back', async function () {
    await h.admin.open();
    const query =
      'fields=id,name&expand[posts]=p&p_fields=id,title&p_limit=3&p_offset=1&p_expand[comments]=c&c_sort[created_at]=desc' +
      '&c_limit=2&c_expand[author]=a&a_fields=name&expand[roles]=r&r_limit=1&limit=10';
    const url = `${h.server.origin}/api/users?${query}`;
    await h.page.getByLabel('Paste a URL to edit it here').fill(url);
    await h.page.getByRole('button', { name: 'Load URL' }).click();
    await h.page.waitForFunction(`document.querySelector('#request-url').textContent.includes('r_limit=1')`);
    expect(await h.admin.requestUrl()).to.equal(url);
    const boxes = h.page.locator('#expand .expansion');
    expect(await boxes.count()).to.equal(4);
    expect(await boxes.nth(0).getByLabel('Offset per record', { exact: true }).first().inputValue()).to.equal('1');
    expect(await boxes.nth(1).getByLabel('Relation', { exact: true }).first().inputValue()).to.equal('comments');
    expect(await boxes.nth(1).getByLabel('Limit per record', { exact: true }).first().inputValue()).to.equal('2');
    expect(await boxes.nth(2).getByLabel('Alias', { exact: true }).inputValue()).to.equal('a');
    expect(await boxes.nth(3).getByLabel('Relation', { exact: true }).inputValue()).to.equal('roles');
    await h.admin.run();
    expect(await h.page.locator('#result-status').textContent()).to.match(/^HTTP 200 · 10 records · \d+ ms$/);
  });
});
