// Owns what the editor-face browser tests share: adding a condition the way an editor does (labels
// and lists only), reading the labelled table, the page's width, axe-core's accessibility check run
// in the page, console errors, and reading a downloaded CSV file.

import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';

/** Clicks "Add a condition" and sets its field, condition and value through their labelled controls. */
export async function addCondition(page: Page, field: string, condition: string, value?: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Add a condition', exact: true }).click();
  const row = page.locator('#ed-conditions > .row').last();
  await row.getByLabel('Field', { exact: true }).selectOption({ label: field });
  await row.getByLabel('Condition', { exact: true }).selectOption({ label: condition });
  if (value !== undefined) {
    const box = row.getByLabel(/^(Value|Date|From)$/);
    if ((await row.locator('select[id$="-value"]').count()) > 0) await box.selectOption(value);
    else await box.fill(value);
  }
  return row;
}

/** The header texts of the records table (the fields' labels on the editor's face). */
export async function headers(page: Page): Promise<string[]> {
  return (await page.locator('#panel-table .table-scroll > table > thead > tr > th').allTextContents()).map((t) => t.replace(/ [▲▼]$/, ''));
}

/** The texts of one labelled column in every row of the records table. */
export async function columnOf(page: Page, label: string): Promise<string[]> {
  const index = (await headers(page)).indexOf(label);
  if (index === -1) throw new Error(`the records table has no column ${label}: ${(await headers(page)).join(', ')}`);
  return page.locator(`#panel-table .table-scroll > table > tbody > tr > td:nth-child(${index + 1})`).allTextContents();
}

/** How much wider than the window the page is (0 when it never scrolls sideways). */
export async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** Runs axe-core in the page; returns the serious and critical violations as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((r) => r.violations)');
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact ?? ''} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/** Collects the page's console errors from now on. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** RFC 4180 text -> rows of fields (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text.charAt(i);
    if (quoted) {
      if (ch === '"' && text.charAt(i + 1) === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text.charAt(i + 1) === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Clicks "Export CSV" and returns the downloaded file's name and its rows as objects by header. */
export async function exportCsv(page: Page): Promise<{ name: string; records: Record<string, string>[] }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  const path = await download.path();
  const [head = [], ...rows] = parseCsv(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  expect(head.length, 'the CSV has a header row').to.be.greaterThan(0);
  return { name: download.suggestedFilename(), records: rows.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i] ?? '']))) };
}
