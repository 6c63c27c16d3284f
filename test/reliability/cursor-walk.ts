// Follows the cursors of a generated `cursor=` request (decisions.md 43) and compares the pages with
// the reference: forward by `next_page_url` and back from the last page by `prev_page_url`, the
// records of all pages are exactly the reference's, in order; every page but the last is full; the
// links are null exactly at either end; each page URL is the request with only `cursor` replaced.

import { expect } from 'chai';
import { CURSOR_ENVELOPE_KEYS } from '../support/envelope-keys';
import { rawGet } from './http';
import type { Expected, JsonRecord } from './reference';

type Walk = Extract<Expected, { kind: 'cursor-walk' }>;

interface Page {
  readonly data: JsonRecord[];
  readonly next_cursor: string | null;
  readonly next_page_url: string | null;
  readonly prev_cursor: string | null;
  readonly prev_page_url: string | null;
}

/** The query string as sent, with its `cursor` segment replaced (contract: page URLs keep every other parameter). */
function cursorUrl(base: string, rawQuery: string, cursor: string): string {
  const pairs = rawQuery.split('&');
  const at = pairs.findIndex((p) => p === 'cursor' || p.startsWith('cursor='));
  if (at >= 0) pairs[at] = `cursor=${cursor}`;
  else pairs.push(`cursor=${cursor}`);
  return `${base}?${pairs.join('&')}`;
}

async function fetchPage(origin: string, url: string, walk: Walk, rawQuery: string): Promise<Page> {
  const path = url.startsWith(origin) ? url.slice(origin.length) : url;
  const res = await rawGet(origin, path);
  if (res.status !== 200) expect.fail(`GET ${path}: expected 200, got ${res.status}: ${res.text.slice(0, 600)}`);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body), `GET ${path}: cursor envelope keys`).to.deep.equal(CURSOR_ENVELOPE_KEYS);
  expect(body.path, `GET ${path}: path`).to.equal(walk.base);
  expect(body.per_page, `GET ${path}: per_page`).to.equal(walk.perPage);
  const page = body as unknown as Page;
  for (const [cursor, link] of [
    [page.next_cursor, page.next_page_url],
    [page.prev_cursor, page.prev_page_url],
  ] as const) {
    expect(link, `GET ${path}: page URL of ${String(cursor)}`).to.equal(cursor === null ? null : cursorUrl(walk.base, rawQuery, cursor));
  }
  return page;
}

const sameJson = (actual: unknown, expected: unknown, what: string): void => {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual, what).to.deep.equal(expected);
};

/** Walks `GET path` (a `cursor=` request sent as `rawQuery`) both ways; returns the raw query of its second page, if any. */
export async function expectCursorWalk(origin: string, path: string, rawQuery: string, walk: Walk): Promise<string | undefined> {
  const most = walk.records.length + 2;
  const pages: Page[] = [];
  for (let url: string | null = path; url !== null;) {
    if (pages.length >= most) expect.fail(`GET ${path}: more than ${most} pages`);
    const page: Page = await fetchPage(origin, url, walk, rawQuery);
    pages.push(page);
    url = page.next_page_url;
  }
  const sizes = pages.map((p) => p.data.length);
  const full = Array.from({ length: Math.max(1, Math.ceil(walk.records.length / walk.perPage)) }, (_, i) =>
    Math.min(walk.perPage, walk.records.length - i * walk.perPage),
  );
  expect(sizes, `GET ${path}: page sizes`).to.deep.equal(full);
  sameJson(
    pages.flatMap((p) => p.data),
    walk.records,
    `GET ${path}: records of every page`,
  );
  expect(pages[0]?.prev_cursor, `GET ${path}: prev of the first page`).to.equal(null);
  const back: Page[] = [];
  for (let url = pages[pages.length - 1]?.prev_page_url ?? null; url !== null;) {
    if (back.length >= most) expect.fail(`GET ${path}: more than ${most} pages back`);
    const page: Page = await fetchPage(origin, url, walk, rawQuery);
    back.unshift(page);
    url = page.prev_page_url;
  }
  sameJson(
    [...back, pages[pages.length - 1]].flatMap((p) => p?.data ?? []),
    walk.records,
    `GET ${path}: records walked back`,
  );
  const second = pages[0]?.next_page_url;
  return second === null || second === undefined ? undefined : second.slice(second.indexOf('?') + 1);
}
