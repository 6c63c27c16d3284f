// Walks cursor pages (decisions.md 43) over HTTP: forward from `cursor=` by `next_page_url`, and back
// from the last page by `prev_page_url`, checking each envelope's keys and links on the way.

import { expect } from 'chai';
import supertest from 'supertest';
import { createCursorSeal } from '../../plugin/cursor-seal';
import type { CursorToken } from '../../plugin/syntax';
import { asRows, expectOk, objectOf, TEST_CURSOR_SECRET, type Row } from './app';
import { CURSOR_ENVELOPE_KEYS } from './envelope-keys';

export interface CursorEnvelope {
  readonly data: Row[];
  readonly path: string;
  readonly per_page: number;
  readonly next_cursor: string | null;
  readonly next_page_url: string | null;
  readonly prev_cursor: string | null;
  readonly prev_page_url: string | null;
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
  const pages: CursorEnvelope[] = [];
  let next: string | null = path;
  while (next !== null) {
    if (pages.length >= max) expect.fail(`more than ${max} pages from ${path}`);
    const page = await cursorPage(get, next);
    pages.push(page);
    next = page.next_page_url;
  }
  return { pages, records: pages.flatMap((p) => p.data) };
}

/** Every page before `last`, following `prev_page_url`, with `last` itself: first to last. */
export async function walkBack(get: Get, last: CursorEnvelope, max = 200): Promise<Walk> {
  const pages: CursorEnvelope[] = [last];
  let prev = last.prev_page_url;
  while (prev !== null) {
    if (pages.length >= max) expect.fail(`more than ${max} pages back`);
    const page = await cursorPage(get, prev);
    pages.unshift(page);
    prev = page.prev_page_url;
  }
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
