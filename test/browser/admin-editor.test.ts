// The admin UI's editor face in a real browser (Debian's Chromium through playwright-core), driven
// by clicks and keys only as an editor would, against the demo app: the task "active editors whose
// name starts with A, newest first, with their 3 latest posts, 10 per page, then take the list to a
// spreadsheet", and three more of an editor's tasks. Each asserts what the editor sees (rows, page
// count, the downloaded CSV), that the page never scrolls sideways at 1366 px and 390 px, that the
// console stays clean, and that axe-core finds no serious or critical violation.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { useAdminBrowser } from './admin-harness';
import { repoRoot } from '../support/repo-root';
import { addCondition, columnOf, consoleErrors, exportCsv, headers, seriousViolations, sidewaysScroll } from './editor-steps';

type Row = Record<string, unknown>;

async function api(origin: string, query: string): Promise<{ data: Row[]; total: number; last_page: number }> {
  const response = await fetch(`${origin}/api/users?${query}`);
  expect(response.status, query).to.equal(200);
  return (await response.json()) as { data: Row[]; total: number; last_page: number };
}

/** A timestamp as the page's locale writes it (what the editor reads in the table). */
function localTime(page: Page, iso: string): Promise<string> {
  return page.evaluate<string>(
    `new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(${JSON.stringify(iso)}))`,
  );
}

/** Keeps a screenshot as a picture of docs/admin-ui.md when UPDATE_DOCS_SCREENSHOT=1. */
function toDocs(file: string, name: string): void {
  if (process.env.UPDATE_DOCS_SCREENSHOT === '1') copyFileSync(file, join(repoRoot, 'docs', 'images', name));
}

async function showRecords(page: Page): Promise<void> {
  const before = Number((await page.locator('body').getAttribute('data-finished')) ?? '0');
  await page.getByRole('button', { name: 'Show records', exact: true }).click();
  await page.waitForSelector(`body[data-finished="${before + 1}"]`);
}

describe('admin UI: the editor face (browser)', function () {
  this.timeout(180000);
  const h = useAdminBrowser({ clipboard: true });
  let errors: string[] = [];

  beforeEach(async function () {
    errors = consoleErrors(h.page);
    await h.page.setViewportSize({ width: 1366, height: 768 });
  });

  afterEach(function () {
    expect(errors, 'console errors').to.deep.equal([]);
  });

  it('lists the active editors whose name starts with A, newest first, with their 3 latest posts, 10 per page, and readies the export', async function () {
    await h.admin.open('', { editor: true });
    expect(await h.page.locator('#developer').isHidden(), 'the developer view starts closed').to.equal(true);
    for (const word of ['API prefix', 'Bearer', 'curl', 'alias', 'WHERE', 'EXISTS']) {
      expect(await h.page.locator('body').innerText(), `no "${word}" on the editor's face`).not.to.contain(word);
    }

    await addCondition(h.page, 'Status', 'is', 'active');
    const role = await addCondition(h.page, 'Role', 'is');
    // The values are the data's own, with their counts: "Editor" cannot be typed and silently miss.
    const offered = await role.getByLabel('Value', { exact: true }).locator('option').allTextContents();
    expect(offered).to.include.members(['Choose…', 'editor (55)', 'guest (129)']);
    await role.getByLabel('Value', { exact: true }).selectOption('editor');
    await addCondition(h.page, 'Name', 'starts with', 'A');
    await h.page.getByLabel('Order', { exact: true }).selectOption({ label: 'Created at, newest first' });
    await h.page.getByRole('button', { name: 'Add related records' }).click();
    const related = h.page.locator('#ed-related > .row').first();
    expect(await related.getByLabel('With their', { exact: true }).inputValue()).to.equal('latest');
    expect(await related.getByLabel('How many', { exact: true }).inputValue()).to.equal('3');
    expect(await related.getByLabel('Related records', { exact: true }).inputValue()).to.equal('posts');
    await h.page.getByLabel('Records per page', { exact: true }).selectOption({ label: '10 per page' });
    expect(await h.page.locator('#summary').textContent()).to.equal(
      'Users whose status is “active”, role is “editor” and name starts with “A”, newest first, with their 3 latest posts, 10 per page.',
    );

    await showRecords(h.page);
    const query =
      'filter[status]=active&filter[role]=editor&search[name]=A*&sort[created_at]=desc&expand[posts]=p&p_sort[created_at]=desc&p_limit=3&per-page=10&page=1';
    const expected = await api(h.origin, query);
    expect(expected.total).to.be.greaterThan(0);
    expect(await columnOf(h.page, 'Name')).to.deep.equal(expected.data.map((r) => r.name));
    expect(await columnOf(h.page, 'Created at')).to.deep.equal(
      await Promise.all(expected.data.map((r) => localTime(h.page, String(r.created_at)))),
    );
    expect(await columnOf(h.page, 'Administrator'), 'a declared label; booleans as Yes/No').to.satisfy((cells: string[]) =>
      cells.every((c) => c === 'Yes' || c === 'No'),
    );
    expect(await h.page.locator('.page-summary').textContent()).to.equal(
      `Records 1–${expected.data.length} of ${expected.total} · page 1 of ${expected.last_page}`,
    );

    // The 3 latest posts of the first editor open in their own box; the page does not widen.
    const posts = h.page.locator('#panel-table .table-scroll > table > tbody > tr').first().locator('details.nested');
    await posts.locator('summary').click();
    const titles = await posts.locator('table > tbody > tr > td:nth-child(3)').allTextContents();
    const first = expected.data[0]?.posts as Row[];
    expect(titles).to.deep.equal(first.map((p) => p.title));
    expect(await sidewaysScroll(h.page), 'sideways scroll at 1366 px with a nested list open').to.equal(0);
    expect(await seriousViolations(h.page)).to.deep.equal([]);

    // A spreadsheet holds no nested lists: the button says so until the posts are taken out.
    const exportButton = h.page.getByRole('button', { name: 'Export CSV' });
    expect(await exportButton.isDisabled()).to.equal(true);
    expect(await h.page.locator('#export-note').textContent()).to.contain('Related records do not fit in a spreadsheet');
    await related.getByRole('button', { name: 'Remove related records 1' }).click();
    expect(await exportButton.isDisabled()).to.equal(false);

    await h.page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScroll(h.page), 'sideways scroll at 390 px').to.equal(0);
    await h.admin.screenshot('admin-editor-task');
  });

  it('takes the active editors whose name starts with A to a spreadsheet, and page 2 of the banned users as every page', async function () {
    await h.admin.open('', { editor: true });
    await addCondition(h.page, 'Status', 'is', 'active');
    await addCondition(h.page, 'Role', 'is', 'editor');
    await addCondition(h.page, 'Name', 'starts with', 'A');
    await h.page.getByLabel('Order', { exact: true }).selectOption({ label: 'Created at, newest first' });
    await h.page.getByLabel('Records per page', { exact: true }).selectOption({ label: '10 per page' });
    await showRecords(h.page);
    const csv = await exportCsv(h.page);
    expect(csv.name).to.equal('users.csv');
    const all = await api(h.origin, 'filter[status]=active&filter[role]=editor&search[name]=A*&sort[created_at]=desc&per-page=100');
    expect(csv.records.map((r) => r.name)).to.deep.equal(all.data.map((r) => r.name));
    expect(csv.records.map((r) => r.email)).to.deep.equal(all.data.map((r) => r.email));
    expect(csv.records.every((r) => r.status === 'active' && r.role === 'editor')).to.equal(true);

    // From page 2 of a 10-per-page list, the file still holds every matching record.
    await h.admin.open('', { editor: true });
    await addCondition(h.page, 'Status', 'is', 'banned');
    await h.page.getByLabel('Records per page', { exact: true }).selectOption({ label: '10 per page' });
    await showRecords(h.page);
    const before = Number((await h.page.locator('body').getAttribute('data-finished')) ?? '0');
    await h.page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await h.page.waitForSelector(`body[data-finished="${before + 1}"]`);
    const banned = await exportCsv(h.page);
    const everyBanned = await api(h.origin, 'filter[status]=banned&per-page=100');
    expect(banned.records.map((r) => r.id)).to.deep.equal(everyBanned.data.map((r) => String(r.id)));
  });

  it('pages through the banned users sorted by a header click, with the keyboard', async function () {
    await h.admin.open('', { editor: true });
    await addCondition(h.page, 'Status', 'is', 'banned');
    // Some banned users have no posts: "no posts" must stay readable (axe checks its contrast below).
    await h.page.getByRole('button', { name: 'Add related records' }).click();
    await h.page.getByLabel('Records per page', { exact: true }).selectOption({ label: '10 per page' });
    await showRecords(h.page);
    // Sorting from the column header: Enter on its button sorts A→Z (oldest first), again Z→A.
    const header = h.page.locator('#panel-table .table-scroll > table > thead th[data-field="created_at"] button');
    for (const direction of ['ascending', 'descending']) {
      const before = Number((await h.page.locator('body').getAttribute('data-finished')) ?? '0');
      await h.page.locator('#panel-table .table-scroll > table > thead th[data-field="created_at"] button').focus();
      await h.page.keyboard.press('Enter');
      await h.page.waitForSelector(`body[data-finished="${before + 1}"]`);
      expect(
        await h.page.locator('#panel-table .table-scroll > table > thead th[data-field="created_at"]').getAttribute('aria-sort'),
      ).to.equal(direction);
    }
    expect(await header.count()).to.equal(1);
    const before = Number((await h.page.locator('body').getAttribute('data-finished')) ?? '0');
    await h.page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await h.page.waitForSelector(`body[data-finished="${before + 1}"]`);
    const expected = await api(h.origin, 'filter[status]=banned&sort[created_at]=desc&per-page=10&page=2');
    expect(await columnOf(h.page, 'Name')).to.deep.equal(expected.data.map((r) => r.name));
    expect(await h.page.locator('.page-summary').textContent()).to.equal(
      `Records 11–20 of ${expected.total} · page 2 of ${expected.last_page}`,
    );
    expect(await h.page.locator('#panel-table td .null').filter({ hasText: 'no posts' }).count()).to.be.greaterThan(0);
    expect(await h.page.locator('#summary').textContent()).to.equal(
      'Users whose status is “banned”, newest first, with their 3 latest posts, 10 per page.',
    );
    expect(await seriousViolations(h.page)).to.deep.equal([]);
    await h.page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScroll(h.page), 'sideways scroll at 390 px').to.equal(0);
  });

  it('finds who joined in April 2025 without verifying their email, showing only name and email', async function () {
    await h.admin.open('', { editor: true });
    await addCondition(h.page, 'Email verified on', 'is empty');
    const joined = await addCondition(h.page, 'Created at', 'is between', '2025-04-01');
    await joined.getByLabel('To', { exact: true }).fill('2025-04-30');
    await h.page.locator('#ed-columns > summary').click();
    // Unticking with the keyboard: focus a box, Space.
    const keep = ['Name', 'Email'];
    for (const label of await h.page.locator('#ed-columns label.check').allTextContents()) {
      if (keep.includes(label)) continue;
      await h.page.getByLabel(label, { exact: true }).focus();
      await h.page.keyboard.press('Space');
    }
    expect(await h.page.locator('#ed-columns > summary').textContent()).to.equal('Columns (2 of 11)');
    await h.page.getByLabel('Email', { exact: true }).uncheck();
    // The last ticked column cannot be unticked: the request never asks for no field.
    expect(await h.page.getByLabel('Name', { exact: true }).isDisabled()).to.equal(true);
    await h.page.getByLabel('Email', { exact: true }).check();
    // A row still waiting for its value says so and is not sent (no `filter[role]=` for the server to refuse).
    const waiting = await addCondition(h.page, 'Role', 'is');
    expect(await waiting.getByText('Not applied until it has a value.').isVisible()).to.equal(true);
    await showRecords(h.page);
    expect(await h.page.locator('#general-error').isHidden()).to.equal(true);
    const expected = await api(
      h.origin,
      'filter[email_verified_at]=null&between[created_at]=2025-04-01,2025-04-30&fields=name,email&per-page=15',
    );
    expect(await headers(h.page)).to.deep.equal(['Name', 'Email']);
    expect(await columnOf(h.page, 'Name')).to.deep.equal(expected.data.map((r) => r.name));
    expect(await h.page.locator('#summary').textContent()).to.match(
      /^Users whose email verified on is empty and created at is between .+ and .+, 15 per page\.$/,
    );
    expect(await sidewaysScroll(h.page)).to.equal(0);
  });

  it('points at the value the server refuses, in plain words, and finds "editor" whatever its capitals', async function () {
    await h.admin.open('', { editor: true });
    const id = await addCondition(h.page, 'Id', 'is at least', '99999999999');
    await showRecords(h.page);
    const error = id.locator('.inline-error');
    expect(await error.textContent()).to.equal(
      'This value does not fit this field: check it (a number too large, a date that does not exist, …).',
    );
    expect(await h.page.evaluate('document.activeElement.id')).to.equal(await id.getByLabel('Value', { exact: true }).getAttribute('id'));
    expect(await h.page.locator('#general-error > p').first().textContent()).to.equal(
      'The list could not be shown: the marked setting needs a change.',
    );
    // Chromium itself logs the refused request; nothing else may reach the console.
    expect(errors.splice(0)).to.deep.equal(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await id.getByRole('button', { name: 'Remove condition 1' }).click();
    await addCondition(h.page, 'Role', 'contains', 'EDIT');
    await showRecords(h.page);
    expect(await h.page.locator('.page-summary').textContent()).to.match(/ of 55 · /);
    expect(await seriousViolations(h.page)).to.deep.equal([]);
  });

  it('keeps a named view in the browser, opens it again from the list and shares it as a link', async function () {
    await h.admin.open('', { editor: true });
    await addCondition(h.page, 'Status', 'is', 'pending');
    await h.page.getByLabel('Name for this view', { exact: true }).fill('Pending users');
    await h.page.getByRole('button', { name: 'Save view' }).click();
    expect(await h.page.locator('#views-status').textContent()).to.equal('Saved “Pending users” in this browser.');
    await h.page.getByRole('button', { name: 'Copy link to this view' }).click();
    await h.page.getByText('Link copied.').waitFor();
    const link = await h.page.evaluate<string>('navigator.clipboard.readText()');
    expect(link).to.contain('#users?filter[status]=pending');

    await h.admin.open('', { editor: true });
    expect(await h.page.locator('#ed-conditions > .row').count()).to.equal(0);
    const before = Number((await h.page.locator('body').getAttribute('data-finished')) ?? '0');
    await h.page.getByLabel('Saved views', { exact: true }).selectOption({ label: 'Pending users (users)' });
    await h.page.waitForSelector(`body[data-finished="${before + 1}"]`);
    expect(await h.page.locator('#summary').textContent()).to.equal('Users whose status is “pending”, 15 per page.');
    expect(await h.page.locator('.page-summary').textContent()).to.match(/ of 64 · /);

    await h.page.goto(link);
    await h.page.waitForSelector('body[data-ready="true"]');
    expect(await h.page.locator('#summary').textContent()).to.equal('Users whose status is “pending”, 15 per page.');
  });

  it("takes the guide's pictures of the editor's face (docs/images/admin-ui*.png with UPDATE_DOCS_SCREENSHOT=1)", async function () {
    await h.admin.open(
      '#users?filter[status]=active&filter[role]=editor&search[name]=A*&sort[created_at]=desc&expand[posts]=p&p_sort[created_at]=desc&p_limit=3&per-page=10&page=1',
      { editor: true },
    );
    await showRecords(h.page);
    await h.page.locator('#panel-table .table-scroll > table > tbody > tr').first().locator('details.nested > summary').click();
    await h.page.setViewportSize({ width: 1366, height: 1000 });
    await h.page.evaluate('window.scrollTo(0, 0)');
    toDocs(await h.admin.screenshot('admin-ui-editor', true), 'admin-ui.png');
    await h.page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScroll(h.page)).to.equal(0);
    toDocs(await h.admin.screenshot('admin-ui-phone'), 'admin-ui-phone.png');
  });

  it('shows the developer view behind its switch, with SQL only where the server explains', async function () {
    await h.admin.open('', { editor: true });
    await h.page.getByRole('switch', { name: 'Developer view' }).check();
    expect(await h.page.locator('#developer').isVisible()).to.equal(true);
    expect(await h.page.getByRole('tab', { name: 'SQL' }).isVisible(), 'the test server explains').to.equal(true);
    expect(await h.page.getByLabel('API prefix').inputValue()).to.equal('/api');
    expect(await seriousViolations(h.page)).to.deep.equal([]);
    await h.page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysScroll(h.page)).to.equal(0);
  });
});
