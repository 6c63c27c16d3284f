// Walks cursor pages over HTTP (docs/query-language.md, Cursors): forward from `cursor=` by
// `next_page_url`, and back from the last page by `prev_page_url`, checking each envelope's keys and
// links on the way; for the reliability suites, a whole walk both ways compared with what the
// reference says it returns. Also seals cursors with the test apps' secret.

import { expect } from 'chai';
import supertest from 'supertest';
import { createCursorSeal } from '../../plugin/cursor-seal';
import type { CursorToken } from '../../plugin/syntax';
import { rawGet } from '../reliability/http';
import { asRows, expectOk, objectOf, TEST_CURSOR_SECRET, type Row } from './app';
import { CURSOR_ENVELOPE_KEYS } from './envelope-keys';

interface CursorLinks {
  readonly next_cursor: string | null;
  readonly next_page_url: string | null;
  readonly prev_cursor: string | null;
  readonly prev_page_url: string | null;
}

export interface CursorEnvelope extends CursorLinks {
  readonly data: Row[];
  readonly path: string;
  readonly per_page: number;
}

/**
 * The pages one kind of link leads through from `start` (the page at `start` first), failing with
 * `tooMany` before it reads a page past the `max`th.
 */
async function followLinks<P>(
  start: string | null,
  read: (url: string) => Promise<P>,
  link: (page: P) => string | null,
  max: number,
  tooMany: string,
): Promise<P[]> {
  const pages: P[] = [];
  for (let url = start; url !== null;) {
    if (pages.length >= max) expect.fail(tooMany);
    const page = await read(url);
    pages.push(page);
    url = link(page);
  }
  return pages;
}

type Get = (path: string) => supertest.Test;

/** GET a cursor page (a path with its query, or a page URL of an earlier envelope); expects the envelope's keys in order. */
export async function cursorPage(get: Get, pathOrUrl: string): Promise<CursorEnvelope> {
  const path = pathOrUrl.replace(/^https?:\/\/[^/]+/, '');
  const res = await get(path);
  expectOk(res, path);
  const body = objectOf(res);
  expect(Object.keys(body), `keys of ${path}`).to.deep.equal(CURSOR_ENVELOPE_KEYS);
  expect(body.next_page_url === null, 'next_cursor and next_page_url null together').to.equal(body.next_cursor === null);
  expect(body.prev_page_url === null, 'prev_cursor and prev_page_url null together').to.equal(body.prev_cursor === null);
  return { ...(body as unknown as CursorEnvelope), data: asRows(body.data) };
}

export interface Walk {
  /** Every page, first to last. */
  readonly pages: CursorEnvelope[];
  /** The records of every page, in order. */
  readonly records: Row[];
}

/** Every page from `cursor=` on, following `next_page_url` (at most `max` pages). */
export async function walkForward(get: Get, path: string, max = 200): Promise<Walk> {
  const read = (url: string): Promise<CursorEnvelope> => cursorPage(get, url);
  const pages = await followLinks(path, read, (page) => page.next_page_url, max, `more than ${max} pages from ${path}`);
  return { pages, records: pages.flatMap((p) => p.data) };
}

/** Every page before `last`, following `prev_page_url`, with `last` itself: first to last (at most `max` pages). */
export async function walkBack(get: Get, last: CursorEnvelope, max = 200): Promise<Walk> {
  const read = (url: string): Promise<CursorEnvelope> => cursorPage(get, url);
  const earlier = await followLinks(last.prev_page_url, read, (page) => page.prev_page_url, max - 1, `more than ${max} pages back`);
  const pages = [...earlier.reverse(), last];
  return { pages, records: pages.flatMap((p) => p.data) };
}

/** base64url of a JSON value: a cursor in the readable form a client could forge (and cursors once had). */
export function forgedCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

const testSeal = createCursorSeal(TEST_CURSOR_SECRET);

/**
 * A cursor holding `token`, sealed for `collection` with the test apps' secret: what the plugin gives
 * for that position, or (with values it would never write) what only a leaked key could make.
 */
export function sealedCursor(token: CursorToken, collection = 'users'): string {
  return testSeal.seal(collection, token);
}

/** What the reliability reference says a `cursor=` request walks through (its `cursor-walk` answer). */
export interface ExpectedWalk {
  /** Every record, in order, over all pages. */
  readonly records: readonly unknown[];
  readonly perPage: number;
  /** The envelope's `path`. */
  readonly base: string;
}

interface ReferencePage extends CursorLinks {
  readonly data: unknown[];
}

/** The query string as sent, with its `cursor` segment replaced (page URLs keep every other parameter as sent). */
function cursorUrl(base: string, rawQuery: string, cursor: string): string {
  const pairs = rawQuery.split('&');
  const at = pairs.findIndex((p) => p === 'cursor' || p.startsWith('cursor='));
  if (at >= 0) pairs[at] = `cursor=${cursor}`;
  else pairs.push(`cursor=${cursor}`);
  return `${base}?${pairs.join('&')}`;
}

async function referencePage(origin: string, url: string, walk: ExpectedWalk, rawQuery: string): Promise<ReferencePage> {
  const path = url.startsWith(origin) ? url.slice(origin.length) : url;
  const res = await rawGet(origin, path);
  if (res.status !== 200) expect.fail(`GET ${path}: expected 200, got ${res.status}: ${res.text.slice(0, 600)}`);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body), `GET ${path}: cursor envelope keys`).to.deep.equal(CURSOR_ENVELOPE_KEYS);
  expect(body.path, `GET ${path}: path`).to.equal(walk.base);
  expect(body.per_page, `GET ${path}: per_page`).to.equal(walk.perPage);
  const page = body as unknown as ReferencePage;
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

/**
 * Walks `GET path` (a `cursor=` request sent byte for byte as `rawQuery`) both ways: the records of all
 * pages are exactly the reference's, in order; every page but the last is full; the links are null
 * exactly at either end; each page URL is the request with only `cursor` replaced. Returns the raw
 * query of its second page, if any.
 */
export async function expectCursorWalk(origin: string, path: string, rawQuery: string, walk: ExpectedWalk): Promise<string | undefined> {
  const most = walk.records.length + 2;
  const read = (url: string): Promise<ReferencePage> => referencePage(origin, url, walk, rawQuery);
  const pages = await followLinks(path, read, (page) => page.next_page_url, most, `GET ${path}: more than ${most} pages`);
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
  const last = pages[pages.length - 1];
  const back = await followLinks(
    last?.prev_page_url ?? null,
    read,
    (page) => page.prev_page_url,
    most,
    `GET ${path}: more than ${most} pages back`,
  );
  sameJson(
    [...back.reverse(), last].flatMap((p) => p?.data ?? []),
    walk.records,
    `GET ${path}: records walked back`,
  );
  const second = pages[0]?.next_page_url;
  return second === null || second === undefined ? undefined : second.slice(second.indexOf('?') + 1);
}
