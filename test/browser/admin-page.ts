// Owns driving the admin page the way a person would (labels, buttons, keyboard) for the browser
// tests: adding rows, reading the request URL, running and reading the table.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../support/repo-root';

export const screenshotDir = join(repoRoot, 'test-results');

export class AdminPage {
  constructor(
    readonly page: Page,
    readonly origin: string,
    readonly adminPath = '/admin',
  ) {}

  /**
   * Opens the admin page (optionally with a #hash) and waits for the first load to finish: in the
   * developer view (the builder, the request and raw answers), or with `{editor: true}` on the
   * editor's face as an editor first sees it.
   */
  async open(hash = '', options: { editor?: boolean } = {}): Promise<void> {
    const developer = options.editor !== true;
    await this.page.addInitScript({ content: `localStorage.setItem('koa-query-modifiers.admin.developer', '${String(developer)}');` });
    await this.page.goto(`${this.origin}${this.adminPath}/${hash}`);
    await this.page.waitForSelector('body[data-ready="true"]');
  }

  section(id: string): Locator {
    return this.page.locator(`#${id}`);
  }

  /** Clicks the section's add button and returns the new (last) row of that section. */
  async addRow(sectionId: string, buttonName: string): Promise<Locator> {
    const section = this.section(sectionId);
    await section.getByRole('button', { name: buttonName, exact: true }).click();
    return section.locator(':scope > .row').last();
  }

  async requestUrl(): Promise<string> {
    return (await this.section('request-url').textContent()) ?? '';
  }

  async condition(): Promise<string> {
    return (await this.section('condition').textContent()) ?? '';
  }

  private async finishedCount(): Promise<number> {
    return Number((await this.page.locator('body').getAttribute('data-finished')) ?? '0');
  }

  /** Clicks a button that runs or explains, and waits until its results are on the page. */
  async clickAndWait(target: Locator): Promise<void> {
    const before = await this.finishedCount();
    await target.click();
    await this.page.waitForSelector(`body[data-finished="${before + 1}"]`);
  }

  async run(): Promise<void> {
    await this.clickAndWait(this.page.getByRole('button', { name: 'Show records', exact: true }));
  }

  /** The records table's header texts. */
  async columns(): Promise<string[]> {
    return this.page.locator('#panel-table .table-scroll > table > thead > tr > th').allTextContents();
  }

  /** The text of one column in every row of the records table. */
  async column(name: string): Promise<string[]> {
    const index = (await this.columns()).indexOf(name);
    if (index === -1) throw new Error(`the records table has no column ${name}`);
    return this.page.locator(`#panel-table .table-scroll > table > tbody > tr > td:nth-child(${index + 1})`).allTextContents();
  }

  /** The cells of one nested column of row `row` (0-based) after opening its <details>. */
  async nested(row: number, relation: string, field: string): Promise<string[]> {
    const index = (await this.columns()).indexOf(relation);
    const cell = this.page
      .locator('#panel-table .table-scroll > table > tbody > tr')
      .nth(row)
      .locator(`> td:nth-child(${index + 1})`);
    await cell.locator('summary').first().click();
    const headers = await cell.locator('table > thead > tr > th').allTextContents();
    const at = headers.indexOf(field);
    if (at === -1) throw new Error(`the nested ${relation} table has no column ${field}: ${headers.join(', ')}`);
    return cell.locator(`table > tbody > tr > td:nth-child(${at + 1})`).allTextContents();
  }

  async screenshot(name: string, fullPage = false): Promise<string> {
    mkdirSync(screenshotDir, { recursive: true });
    const file = join(screenshotDir, `${name}.png`);
    await this.page.screenshot({ path: file, fullPage });
    return file;
  }
}
