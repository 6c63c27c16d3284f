// The admin UI in a real browser (Debian's Chromium through playwright-core) against the demo app:
// building queries with the mouse and keyboard, the URL it copies, the records, the page navigation,
// problems shown at their control, pasting a URL, the SQL view, the token (typed in the page, or the
// browser's sign-in password when the page itself is protected) and a narrow window.

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import type { AppOptions } from '../../server/app';
import { useAdminBrowser } from './admin-harness';
import { AdminPage } from './admin-page';
import { serveDemo } from '../support/demo-server';
import { repoRoot } from '../support/repo-root';

type Row = Record<string, unknown>;

/** The API's own answer for a query, to compare the page with. */
async function apiJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  expect(response.status, `GET ${url}`).to.equal(200);
  return response.json();
}

function envelopeData(body: unknown): Row[] {
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return expect.fail(`expected an envelope, got ${JSON.stringify(body).slice(0, 300)}`);
  return data as Row[];
}

describe('admin UI (browser)', function () {
  this.timeout(120000);
  const h = useAdminBrowser({ clipboard: true });

  it('finds the users created in April 2025 whose name contains "an", newest first, 10 per page, with their posts\' titles', async function () {
    await h.admin.open();
    expect(await h.page.getByLabel('Collection').inputValue()).to.equal('users');
    const openapi = h.page.getByRole('link', { name: 'OpenAPI document' });
    expect(await openapi.getAttribute('href')).to.equal('/api/openapi.json');
    expect(((await apiJson(`${h.server.origin}/api/openapi.json`)) as { openapi?: unknown }).openapi).to.match(/^3\.1\./);

    const between = await h.admin.addRow('root-between', 'Add between');
    await between.getByLabel('Field', { exact: true }).selectOption('created_at');
    await between.getByLabel('From', { exact: true }).fill('2025-04-01');
    await between.getByLabel('To', { exact: true }).fill('2025-04-30');

    const search = await h.admin.addRow('root-search', 'Add search');
    expect(await search.getByLabel('name', { exact: true }).isChecked(), 'search in name by default').to.equal(true);
    await search.getByLabel(/^Contains/).fill('an');

    const sort = await h.admin.addRow('root-sort', 'Add sort');
    await sort.getByLabel('Sort by', { exact: true }).selectOption('created_at');
    await sort.getByLabel('Direction', { exact: true }).selectOption('desc');

    await h.page.getByRole('button', { name: 'Add expansion' }).click();
    const expansion = h.page.locator('#expand .expansion').first();
    expect(await expansion.getByLabel('Relation', { exact: true }).inputValue()).to.equal('posts');
    expect(await expansion.getByLabel('Alias', { exact: true }).inputValue()).to.equal('p');
    await expansion.getByLabel('Only these', { exact: true }).check();
    await expansion.getByLabel('title', { exact: true }).check();

    await h.page.getByLabel('Pages', { exact: true }).check();
    await h.page.getByLabel(/^Page size/).fill('10');

    const expected =
      `${h.server.origin}/api/users?between[created_at]=2025-04-01,2025-04-30&search[name]=an` +
      '&sort[created_at]=desc&expand[posts]=p&p_fields=title&per-page=10';
    expect(await h.admin.requestUrl()).to.equal(expected);
    expect(await h.admin.condition()).to.equal("WHERE (created_at BETWEEN 2025-04-01 AND 2025-04-30)\n  AND (name contains 'an')");

    await h.page.getByRole('button', { name: 'Copy URL' }).click();
    await h.page.getByText('URL copied').waitFor();
    expect(await h.page.evaluate('navigator.clipboard.readText()')).to.equal(expected);

    await h.admin.run();
    const body = await apiJson(expected);
    const records = envelopeData(body);
    expect(records).to.have.length(10);
    expect(await h.admin.column('name')).to.deep.equal(records.map((r) => r.name));
    for (const name of await h.admin.column('name')) expect(name.toLowerCase()).to.contain('an');
    const created = await h.admin.column('created_at');
    expect(
      created.every((t) => t.startsWith('2025-04-')),
      created.join(' '),
    ).to.equal(true);
    expect([...created].sort().reverse()).to.deep.equal(created);
    expect(await h.page.locator('#result-status').textContent()).to.match(/^HTTP 200 · 10 records · \d+ ms$/);
    await h.admin.screenshot('admin-ui-april-users');
    const firstPosts = (records[0]?.posts ?? []) as Row[];
    expect(firstPosts.length).to.be.greaterThan(0);
    expect(await h.admin.nested(0, 'posts', 'title')).to.deep.equal(firstPosts.map((p) => p.title));

    // The envelope's navigation: « Previous is disabled on page 1, Next » loads page 2.
    const nav = h.page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.getByRole('button', { name: '« Previous' }).isDisabled()).to.equal(true);
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Next »' }));
    expect(await h.admin.requestUrl()).to.equal(`${expected}&page=2`);
    const second = envelopeData(await apiJson(`${expected}&page=2`));
    expect(await h.admin.column('name')).to.deep.equal(second.map((r) => r.name));
    expect(await nav.getByRole('button', { name: 'Page 2', exact: true }).getAttribute('aria-current')).to.equal('page');
  });

  it('builds a filtered, sorted, expanded, paginated query and moves between pages', async function () {
    await h.admin.open();
    const first = await h.admin.addRow('root-filter', 'Add filter');
    await first.getByLabel('Field', { exact: true }).selectOption('status');
    await first.getByLabel('Value', { exact: true }).fill('active');
    const second = await h.admin.addRow('root-filter', 'Add filter');
    await second.getByLabel('Join', { exact: true }).selectOption('or');
    await second.getByLabel('Field', { exact: true }).selectOption('role');
    await second.getByLabel('Value', { exact: true }).fill('admin');
    const third = await h.admin.addRow('root-filter', 'Add filter');
    await third.getByLabel('Join', { exact: true }).selectOption('and!');
    await third.getByLabel('Field', { exact: true }).selectOption('id');
    await third.getByLabel('Operator', { exact: true }).selectOption('>');
    await third.getByLabel('Value', { exact: true }).fill('250');

    await h.page.getByLabel('Only these', { exact: true }).first().check();
    for (const field of ['id', 'name', 'status', 'role']) await h.page.locator('#root-fields').getByLabel(field, { exact: true }).check();
    const sort = await h.admin.addRow('root-sort', 'Add sort');
    await sort.getByLabel('Sort by', { exact: true }).selectOption('name');

    await h.page.getByRole('button', { name: 'Add expansion' }).click();
    const expansion = h.page.locator('#expand .expansion').first();
    const postFilter = expansion.locator('.section', { has: h.page.getByText('Filter', { exact: true }) }).first();
    await postFilter.getByRole('button', { name: 'Add filter' }).click();
    const postRow = postFilter.locator(':scope > .row').last();
    await postRow.getByLabel('Field', { exact: true }).selectOption('status');
    await postRow.getByLabel('Value', { exact: true }).fill('published');
    await h.page.getByLabel('Pages', { exact: true }).check();
    await h.page.getByLabel(/^Page size/).fill('5');
    await h.page.getByLabel('Page', { exact: true }).fill('2');

    const query =
      'filter[status]=active&filter[or+role]=admin&filter[and!+id]=%3E250&fields=id,name,status,role' +
      '&sort[name]=asc&expand[posts]=p&p_filter[status]=published&per-page=5&page=2';
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}`);
    expect(await h.admin.condition()).to.equal(
      "WHERE (status = 'active' OR (role = 'admin' AND NOT (id > 250)))\n\nposts (alias p): only related records\nWHERE (status = 'published')",
    );

    await h.admin.run();
    const body = await apiJson(`${h.server.origin}/api/users?${query}`);
    const records = envelopeData(body);
    expect(await h.admin.columns()).to.deep.equal(['id', 'name', 'status', 'role', 'posts']);
    expect(await h.admin.column('id')).to.deep.equal(records.map((r) => String(r.id)));
    const lastPage = (body as { last_page: number }).last_page;
    expect(lastPage).to.be.greaterThan(3);

    const nav = h.page.getByRole('navigation', { name: 'Result pages' });
    expect(await nav.locator('.page-summary').textContent()).to.contain(`page 2 of ${lastPage}`);
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Page 3', exact: true }));
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query.replace('page=2', 'page=3')}`);
    expect(await h.page.getByLabel('Page', { exact: true }).inputValue()).to.equal('3');
    const third3 = envelopeData(await apiJson(`${h.server.origin}/api/users?${query.replace('page=2', 'page=3')}`));
    expect(await h.admin.column('id')).to.deep.equal(third3.map((r) => String(r.id)));
    await h.admin.clickAndWait(nav.getByRole('button', { name: '« Previous' }));
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}`);
    await h.admin.clickAndWait(nav.getByRole('button', { name: 'Last page' }));
    expect(await h.admin.requestUrl()).to.contain(`page=${lastPage}`);
    expect(await nav.getByRole('button', { name: 'Next »' }).isDisabled()).to.equal(true);
    await h.admin.screenshot('admin-ui-navigation');
  });

  it('filters users by their related records (a relation, then its field; the condition says EXISTS) and sorts by a to-one relation', async function () {
    await h.admin.open();
    const draft = await h.admin.addRow('root-filter', 'Add filter');
    expect(await draft.getByLabel('Of', { exact: true }).inputValue()).to.equal('');
    await draft.getByLabel('Of', { exact: true }).selectOption('posts');
    expect(await draft.getByLabel('Field', { exact: true }).inputValue()).to.equal('posts.id');
    await draft.getByLabel('Field', { exact: true }).selectOption('posts.status');
    await draft.getByLabel('Value', { exact: true }).fill('draft');
    const admins = await h.admin.addRow('root-filter', 'Add filter');
    await admins.getByLabel('Join', { exact: true }).selectOption('and!');
    await admins.getByLabel('Of', { exact: true }).selectOption('roles');
    await admins.getByLabel('Field', { exact: true }).selectOption('roles.name');
    await admins.getByLabel('Value', { exact: true }).fill('admin');
    const search = await h.admin.addRow('root-search', 'Add search');
    await search.getByLabel('posts.title', { exact: true }).check();
    await search.getByLabel(/^Contains/).fill('the');
    await h.page.getByLabel('Only these', { exact: true }).first().check();
    for (const field of ['id', 'name']) await h.page.locator('#root-fields').getByLabel(field, { exact: true }).check();
    const sort = await h.admin.addRow('root-sort', 'Add sort');
    await sort.getByLabel('Sort by', { exact: true }).selectOption('phone.kind');
    await sort.getByLabel('Direction', { exact: true }).selectOption('desc');

    const query =
      'filter[posts.status]=draft&filter[and!+roles.name]=admin&search[name,posts.title]=the&fields=id,name&sort[phone.kind]=desc';
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}`);
    expect(await h.admin.condition()).to.equal(
      "WHERE (EXISTS a posts record with status = 'draft' AND NOT EXISTS a roles record with name = 'admin')\n" +
        "  AND (name contains 'the' OR EXISTS a posts record with title contains 'the')",
    );
    await h.admin.run();
    const records = (await apiJson(`${h.server.origin}/api/users?${query}`)) as Row[];
    expect(records.length).to.be.greaterThan(0);
    expect(await h.admin.column('id')).to.deep.equal(records.map((r) => String(r.id)));

    // A pasted URL comes back with the relation chosen in its row.
    await h.page.getByLabel('Paste a URL to edit it here').fill('/api/users?in[or!+roles.name]=admin,editor');
    await h.page.getByRole('button', { name: 'Load URL' }).click();
    await h.page.waitForFunction(`document.querySelector('#request-url').textContent.includes('roles.name')`);
    const pasted = h.page.locator('#root-in > .row').first();
    expect(await pasted.getByLabel('Of', { exact: true }).inputValue()).to.equal('roles');
    expect(await pasted.getByLabel('Field', { exact: true }).inputValue()).to.equal('roles.name');
    expect(await h.admin.condition()).to.equal("WHERE (NOT EXISTS a roles record with name IN ('admin', 'editor'))");
  });

  it('keeps users that have a related record matching all conditions, or none; the condition says EXISTS', async function () {
    await h.admin.open();
    await h.page.getByRole('button', { name: 'Add has' }).click();
    const box = h.page.locator('#has .expansion').first();
    expect(await box.getByLabel('Related', { exact: true }).inputValue()).to.equal('posts');
    const filter = box.locator('.section', { has: h.page.getByText('Filter', { exact: true }) }).first();
    await filter.getByRole('button', { name: 'Add filter' }).click();
    const status = filter.locator(':scope > .row').last();
    await status.getByLabel('Field', { exact: true }).selectOption('status');
    await status.getByLabel('Value', { exact: true }).fill('published');
    await filter.getByRole('button', { name: 'Add filter' }).click();
    const views = filter.locator(':scope > .row').last();
    await views.getByLabel('Field', { exact: true }).selectOption('views');
    await views.getByLabel('Operator', { exact: true }).selectOption('>');
    await views.getByLabel('Value', { exact: true }).fill('4900');

    await h.page.getByRole('button', { name: 'Add has' }).click();
    const none = h.page.locator('#has .expansion').nth(1);
    await none.getByLabel('Keep records that', { exact: true }).selectOption('has!');
    await none.getByLabel('Related', { exact: true }).selectOption('phone');
    await h.page.getByLabel('Only these', { exact: true }).first().check();
    await h.page.locator('#root-fields').getByLabel('id', { exact: true }).check();

    const query = 'fields=id&has[posts]=p&p_filter[status]=published&p_filter[views]=%3E4900&has![phone]';
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}`);
    expect(await h.admin.condition()).to.equal(
      "WHERE (EXISTS a posts record with (status = 'published' AND views > 4900))\n  AND (NOT EXISTS a phone record)",
    );
    await h.admin.run();
    const records = (await apiJson(`${h.server.origin}/api/users?${query}`)) as Row[];
    expect(records.length).to.be.greaterThan(0);
    expect(await h.admin.column('id')).to.deep.equal(records.map((r) => String(r.id)));

    // A pasted URL whose has shares its alias with expand keeps one set of conditions.
    const shared = 'has[posts]=p&expand[posts]=p&p_filter[status]=draft';
    await h.page.getByLabel('Paste a URL to edit it here').fill(`/api/users?${shared}`);
    await h.page.getByRole('button', { name: 'Load URL' }).click();
    await h.page.waitForFunction(`document.querySelector('#request-url').textContent.includes('has[posts]')`);
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${shared}`);
    expect(await h.admin.condition()).to.equal(
      "WHERE (EXISTS a posts record with (status = 'draft'))\n\n" + "posts (alias p): only related records\nWHERE (status = 'draft')",
    );
  });

  it('adds a count column, filters and sorts by it', async function () {
    await h.admin.open();
    await h.page.getByRole('button', { name: 'Add count' }).click();
    const box = h.page.locator('#count .expansion').first();
    expect(await box.getByLabel('Count related', { exact: true }).inputValue()).to.equal('posts');
    const filter = box.locator('.section', { has: h.page.getByText('Filter', { exact: true }) }).first();
    await filter.getByRole('button', { name: 'Add filter' }).click();
    const status = filter.locator(':scope > .row').last();
    await status.getByLabel('Field', { exact: true }).selectOption('status');
    await status.getByLabel('Value', { exact: true }).fill('published');
    const rootFilter = await h.admin.addRow('root-filter', 'Add filter');
    await rootFilter.getByLabel('Field', { exact: true }).selectOption('posts_count');
    await rootFilter.getByLabel('Operator', { exact: true }).selectOption('>=');
    await rootFilter.getByLabel('Value', { exact: true }).fill('2');
    const sort = await h.admin.addRow('root-sort', 'Add sort');
    await sort.getByLabel('Sort by', { exact: true }).selectOption('posts_count');
    await sort.getByLabel('Direction', { exact: true }).selectOption('desc');
    await h.page.getByLabel('Only these', { exact: true }).first().check();
    for (const field of ['id', 'name']) await h.page.locator('#root-fields').getByLabel(field, { exact: true }).check();
    await h.page.getByLabel('Pages', { exact: true }).check();
    await h.page.getByLabel(/^Page size/).fill('5');

    const query = 'filter[posts_count]=%3E%3D2&fields=id,name&sort[posts_count]=desc&count[posts]=p&p_filter[status]=published&per-page=5';
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?${query}`);
    expect(await h.admin.condition()).to.equal('WHERE (posts_count >= 2)');
    await h.admin.run();
    const records = envelopeData(await apiJson(`${h.server.origin}/api/users?${query}`));
    expect(await h.admin.columns()).to.deep.equal(['id', 'name', 'posts_count']);
    expect(await h.admin.column('posts_count')).to.deep.equal(records.map((r) => String(r.posts_count)));
    expect(await h.admin.column('id')).to.deep.equal(records.map((r) => String(r.id)));
  });

  it('shows each problem next to the control that caused it', async function () {
    await h.admin.open();
    const row = await h.admin.addRow('root-filter', 'Add filter');
    await row.getByLabel('Field', { exact: true }).selectOption('id');
    await row.getByLabel('Value', { exact: true }).fill('abc');
    await h.page.getByLabel('Pages', { exact: true }).check();
    await h.page.getByLabel(/^Page size/).fill('500');
    await h.admin.run();

    const valueError = row.locator('.inline-error');
    expect(await valueError.getAttribute('data-parameter')).to.equal('filter[id]');
    expect(await valueError.getAttribute('data-code')).to.equal('INVALID_VALUE');
    expect(await row.getByLabel('Value', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    const sizeError = h.page.locator('#paging-per-page .inline-error');
    expect(await sizeError.getAttribute('data-parameter')).to.equal('per-page');
    expect(await sizeError.getAttribute('data-code')).to.equal('PAGE_SIZE_TOO_LARGE');
    expect(await sizeError.textContent()).to.contain('100');
    expect(await h.page.locator('#general-error').textContent()).to.match(/^HTTP 400/);
    expect(await h.page.locator('.inline-error').count()).to.equal(2);
    await h.admin.screenshot('admin-ui-errors');

    // Fixing the value and running again clears the messages.
    await row.getByLabel('Value', { exact: true }).fill('5');
    await h.page.getByLabel(/^Page size/).fill('10');
    await h.admin.run();
    expect(await h.page.locator('.inline-error').count()).to.equal(0);
    expect(await h.admin.column('id')).to.deep.equal(['5']);
  });

  it('rebuilds the form from a pasted URL, and gives the same URL back', async function () {
    await h.admin.open();
    const query =
      'filter[id]=%3E%3D5&filter[or!+status]=banned&filter[email]=x%2By@example.com&in[name]=%22Smith,+John%22,Jane' +
      '&between[birthday]=1990-01-01,1999-12-31&search[name,email]=*son&fields!=updated_at,email_verified_at' +
      '&sort[name]=desc&sort[id]=asc&expand[posts]=p&p_fields=id,title&p_sort[views]=desc&expand[phone]&limit=20&offset=5';
    const url = `${h.server.origin}/api/users?${query}`;
    await h.page.getByLabel('Paste a URL to edit it here').fill(url);
    await h.page.getByRole('button', { name: 'Load URL' }).click();
    await h.page.waitForFunction(`document.querySelector('#request-url').textContent.includes('limit=20')`);
    expect(await h.admin.requestUrl()).to.equal(url);

    const filters = h.page.locator('#root-filter > .row');
    expect(await filters.count()).to.equal(3);
    expect(await filters.nth(0).getByLabel('Field', { exact: true }).inputValue()).to.equal('id');
    expect(await filters.nth(0).getByLabel('Operator', { exact: true }).inputValue()).to.equal('>=');
    expect(await filters.nth(0).getByLabel('Value', { exact: true }).inputValue()).to.equal('5');
    expect(await filters.nth(1).getByLabel('Join', { exact: true }).inputValue()).to.equal('or!');
    expect(await filters.nth(1).getByLabel('Value', { exact: true }).inputValue()).to.equal('banned');
    expect(await filters.nth(2).getByLabel('Value', { exact: true }).inputValue()).to.equal('x+y@example.com');
    expect(
      await h.page
        .locator('#root-in > .row')
        .getByLabel(/^Values/)
        .inputValue(),
    ).to.equal('"Smith, John",Jane');
    const between = h.page.locator('#root-between > .row');
    expect(await between.getByLabel('From', { exact: true }).inputValue()).to.equal('1990-01-01');
    expect(await between.getByLabel('To', { exact: true }).inputValue()).to.equal('1999-12-31');
    const search = h.page.locator('#root-search > .row');
    expect(await search.getByLabel('email', { exact: true }).isChecked()).to.equal(true);
    expect(await search.getByLabel(/^Contains/).inputValue()).to.equal('*son');
    expect(await h.page.getByLabel('All except these', { exact: true }).first().isChecked()).to.equal(true);
    const sorts = h.page.locator('#root-sort > .row');
    expect(await sorts.nth(0).getByLabel('Direction', { exact: true }).inputValue()).to.equal('desc');
    expect(await sorts.nth(1).getByLabel('Then by', { exact: true }).inputValue()).to.equal('id');
    const expansions = h.page.locator('#expand .expansion');
    expect(await expansions.count()).to.equal(2);
    expect(await expansions.nth(0).getByLabel('Alias', { exact: true }).inputValue()).to.equal('p');
    expect(await expansions.nth(1).getByLabel('Relation', { exact: true }).inputValue()).to.equal('phone');
    expect(await h.page.getByLabel('Limit', { exact: true }).inputValue()).to.equal('20');
    expect(await h.page.getByLabel('Offset', { exact: true }).inputValue()).to.equal('5');
    expect(await h.admin.condition()).to.equal(
      [
        "WHERE (id >= 5 OR (NOT (status = 'banned') AND email = 'x+y@example.com'))",
        "  AND (name IN ('Smith, John', 'Jane'))",
        '  AND (birthday BETWEEN 1990-01-01 AND 1999-12-31)',
        "  AND (name ends with 'son' OR email ends with 'son')",
      ].join('\n'),
    );

    // The page's own address keeps the query, so a reload shows the same form.
    await h.page.reload();
    await h.page.waitForSelector('body[data-ready="true"]');
    expect(await h.admin.requestUrl()).to.equal(url);
    const ownAddress = h.page.url();

    // A pasted URL that is not written the form's way is rebuilt into the form's spelling.
    await h.page.getByLabel('Paste a URL to edit it here').fill('/api/posts?sort[views]=-&filter[views]=>=100&utm_source=mail');
    await h.page.getByRole('button', { name: 'Load URL' }).click();
    await h.page.waitForFunction(`document.querySelector('#request-url').textContent.includes('/api/posts')`);
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/posts?filter[views]=%3E%3D100&sort[views]=desc`);
    expect(await h.page.getByLabel('Collection').inputValue()).to.equal('posts');
    expect(await h.page.locator('#paste-message').textContent()).to.contain('utm_source');

    // The page's own address (a bookmark of a query) can be pasted too.
    await h.page.getByLabel('Paste a URL to edit it here').fill(ownAddress);
    await h.page.getByRole('button', { name: 'Load URL' }).click();
    await h.page.waitForFunction(`document.querySelector('#request-url').textContent.includes('/api/users')`);
    expect(await h.admin.requestUrl()).to.equal(url);
    expect(await h.page.getByLabel('API prefix').inputValue()).to.equal('/api');
  });

  it('shows the SQL statements, their bindings and the plan', async function () {
    await h.admin.open('#users?filter[status]=active&expand[posts]=p&p_filter[status]=published&per-page=5');
    await h.admin.clickAndWait(h.page.getByRole('button', { name: 'Explain: SQL and plan' }));
    expect(await h.page.getByRole('tab', { name: 'SQL' }).getAttribute('aria-selected')).to.equal('true');
    const statements = h.page.locator('#panel-sql .statement');
    expect(await statements.count()).to.be.greaterThan(1);
    const sql = (await h.page.locator('#panel-sql pre.sql').allTextContents()).join('\n');
    expect(sql).to.match(/from "users"/i);
    expect(sql).to.match(/from "posts"/i);
    const bindings = (await h.page.locator('#panel-sql .bindings').allTextContents()).join('\n');
    expect(bindings).to.contain('"active"');
    expect(bindings).to.contain('"published"');
    expect(await h.page.locator('#panel-sql pre.plan').first().textContent()).to.match(/Scan|Limit|Sort|Aggregate/);
    await h.admin.screenshot('admin-ui-explain', true);
  });

  it('is usable with the keyboard alone', async function () {
    await h.admin.open();
    await h.page.locator('#root-add-filter').focus();
    await h.page.keyboard.press('Enter');
    // The new row's field gets the focus.
    expect(await h.page.evaluate('document.activeElement.closest(".row") !== null && document.activeElement.tagName')).to.equal('SELECT');
    await h.page.keyboard.press('s'); // status
    await h.page.keyboard.press('Tab'); // operator
    await h.page.keyboard.press('Tab'); // value
    await h.page.keyboard.type('pending');
    const before = Number((await h.page.locator('body').getAttribute('data-finished')) ?? '0');
    await h.page.keyboard.press('Enter');
    await h.page.waitForSelector(`body[data-finished="${before + 1}"]`);
    expect(await h.admin.requestUrl()).to.equal(`${h.server.origin}/api/users?filter[status]=pending`);
    const statuses = await h.admin.column('status');
    expect(statuses.length).to.be.greaterThan(0);
    expect(new Set(statuses)).to.deep.equal(new Set(['pending']));
  });

  it('sends the bearer token typed in the page when only the API needs one', async function () {
    // A host whose page is public and whose authorize hook asks for a bearer token on every API read.
    const bearer: NonNullable<AppOptions['plugin']>['authorize'] = (ctx) =>
      ctx.get('Authorization') === 'Bearer sesame' ? true : { status: 401 };
    const guarded = await serveDemo(h.server.knex, { explain: true, plugin: { authorize: bearer } });
    try {
      const guardedAdmin = new AdminPage(h.page, guarded.origin);
      await guardedAdmin.open();
      expect(await h.page.locator('#page-message').textContent()).to.contain('401');
      await h.page.getByLabel(/^Bearer token/).fill('sesame');
      await h.page.getByLabel(/^Bearer token/).press('Enter');
      await h.page.waitForFunction(`document.querySelector('#request-url').textContent.endsWith('/api/users')`);
      expect(await h.page.locator('#curl-command').textContent()).to.contain('Authorization: Bearer $API_TOKEN');
      await guardedAdmin.run();
      expect(await h.page.locator('#result-status').textContent()).to.match(/^HTTP 200/);
      await guardedAdmin.clickAndWait(h.page.getByRole('button', { name: 'Explain: SQL and plan' }));
      expect(await h.page.locator('#panel-sql .statement').count()).to.be.greaterThan(0);
    } finally {
      await guarded.close();
    }
  });

  it('with API_TOKEN the page itself needs the token: a 401 problem, then the browser sends it as its sign-in password', async function () {
    const guarded = await serveDemo(h.server.knex, { explain: true, apiToken: 'sesame' });
    let signedIn: BrowserContext | undefined;
    try {
      // Without credentials the page is refused: the server's 401 (its body is asserted in
      // test/ecosystem/server-auth.test.ts) challenges Basic, and a browser with no one to ask gives up.
      const refused = await h.page.request.get(`${guarded.origin}/admin/`);
      expect(refused.status()).to.equal(401);
      expect(refused.headers()['www-authenticate']).to.match(/^Bearer\b[\s\S]*Basic realm=/);
      const navigation = await h.page.goto(`${guarded.origin}/admin/`).then(
        (response) => String(response?.status()),
        (error: unknown) => (error as Error).message,
      );
      expect(navigation).to.match(/^401$|ERR_INVALID_AUTH_CREDENTIALS/);
      expect(await h.page.locator('#collection').count(), 'no admin UI').to.equal(0);
      // What a person does in the browser's sign-in box: any user name, the token as the password.
      signedIn = await h.browser.newContext({
        viewport: { width: 1280, height: 800 },
        httpCredentials: { username: 'me', password: 'sesame' },
      });
      const signedInPage = await signedIn.newPage();
      signedInPage.on('pageerror', (error) => h.pageErrors.push(error.message));
      const signedInAdmin = new AdminPage(signedInPage, guarded.origin);
      await signedInAdmin.open();
      expect(await signedInPage.locator('#page-message').textContent(), 'no refusal on the page').to.equal('');
      expect(await signedInPage.locator('#collection option').allTextContents()).to.deep.equal(['users', 'posts', 'phones', 'roles']);
      expect(await signedInPage.getByLabel(/^Bearer token/).inputValue(), 'nothing typed in the page').to.equal('');
      await signedInAdmin.run();
      expect(await signedInPage.locator('#result-status').textContent()).to.match(/^HTTP 200/);
      expect((await signedInAdmin.column('id')).length).to.be.greaterThan(0);
      await signedInAdmin.clickAndWait(signedInPage.getByRole('button', { name: 'Explain: SQL and plan' }));
      expect(await signedInPage.locator('#panel-sql .statement').count()).to.be.greaterThan(0);
    } finally {
      await signedIn?.close();
      await guarded.close();
    }
  });

  it('offers no Explain button and no SQL tab when the server does not serve explain', async function () {
    const plain = await serveDemo(h.server.knex, { explain: false });
    try {
      const plainAdmin = new AdminPage(h.page, plain.origin);
      await plainAdmin.open();
      expect(await h.page.locator('#explain').isHidden()).to.equal(true);
      expect(await h.page.getByRole('tab', { name: 'Raw JSON' }).isVisible()).to.equal(true);
      expect(await h.page.getByRole('tab', { name: 'SQL' }).isHidden()).to.equal(true);
      await plainAdmin.run();
      expect(await h.page.locator('#result-status').textContent()).to.match(/^HTTP 200/);
    } finally {
      await plain.close();
    }
  });

  it("takes the guide's picture of the developer view (docs/images/admin-ui-developer.png with UPDATE_DOCS_SCREENSHOT=1)", async function () {
    await h.admin.open(
      '#users?between[created_at]=2025-04-01,2025-04-30&search[name]=an&fields=id,name,created_at' +
        '&sort[created_at]=desc&expand[posts]=p&p_fields=title&per-page=10',
    );
    await h.admin.run();
    const firstRow = h.page.locator('#panel-table .table-scroll > table > tbody > tr').first();
    await firstRow.locator('summary').first().click();
    await h.page.locator('#builder-title').scrollIntoViewIfNeeded();
    await h.page.locator('#developer-title').scrollIntoViewIfNeeded();
    const file = await h.admin.screenshot('admin-ui-developer');
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
      mkdirSync(join(repoRoot, 'docs', 'images'), { recursive: true });
      copyFileSync(file, join(repoRoot, 'docs', 'images', 'admin-ui-developer.png'));
    }
  });

  it('fits a narrow (400px) window without sideways scrolling', async function () {
    await h.page.setViewportSize({ width: 400, height: 800 });
    await h.admin.open(
      '#users?between[created_at]=2025-04-01,2025-04-30&search[name]=an&sort[created_at]=desc&expand[posts]=p&p_fields=title&per-page=10',
    );
    await h.admin.run();
    expect(await h.page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(400);
    await h.admin.screenshot('admin-ui-narrow', true);
  });
});
