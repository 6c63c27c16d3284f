// Resolves the deep cursor shape (bench/shapes.ts, docs/query-language.md, "Cursors: cursor")
// before a run: follows the plugin's `next_cursor` from `cursor=` until the records skipped equal
// what OFFSET skips at page DEEP_PAGE, so both shapes start at the same record, then the cursors of
// the pages after it, which the run requests in turn. A cursor does not depend on the page size, so
// large pages get there in few requests. On a data set too small for that many records it starts at
// the last page.

import { fetchBody } from './load';
import type { ServerProcess } from './processes';
import { COLLECTION_PATH, CURSOR_PAGE_SIZE, DEEP_PAGE, WALK_PAGES, type Shape } from './shapes';

const STRIDE = 100;

/** `...&per-page=20&cursor=` -> the same query with `per-page` set to `size` and `cursor` to `cursor`. */
function withCursor(query: string, cursor: string, size: number): string {
  return query.replace(/(^|&)per-page=\d+/, `$1per-page=${size}`).replace(/(^|&)cursor=[^&]*/, `$1cursor=${cursor}`);
}

/** The cursor of the record after the first `skip` records of `shape`'s query, by the plugin. */
async function cursorAfter(plugin: ServerProcess, shape: Shape, skip: number, log: (line: string) => void): Promise<string> {
  let cursor = '';
  let skipped = 0;
  while (skipped < skip) {
    const size = Math.min(STRIDE, skip - skipped);
    const response = await fetchBody(plugin, `${COLLECTION_PATH}?${withCursor(shape.query, cursor, size)}`);
    if (response.status !== 200)
      throw new Error(`shape ${shape.id}: following cursors got ${response.status}: ${response.body.slice(0, 300)}`);
    const page = JSON.parse(response.body) as { data: unknown[]; next_cursor: string | null };
    skipped += page.data.length;
    if (page.next_cursor === null) {
      log(`  shape ${shape.id}: only ${skipped} records match, fewer than page ${DEEP_PAGE} needs; it starts at the last page instead`);
      return cursor;
    }
    cursor = page.next_cursor;
  }
  return cursor;
}

/** The query strings of up to WALK_PAGES pages from `cursor` on, each page's from the one before. */
async function walkFrom(plugin: ServerProcess, shape: Shape, cursor: string): Promise<string[]> {
  const walk = [withCursor(shape.query, cursor, CURSOR_PAGE_SIZE)];
  while (walk.length < WALK_PAGES) {
    const response = await fetchBody(plugin, `${COLLECTION_PATH}?${walk[walk.length - 1] as string}`);
    const page = JSON.parse(response.body) as { next_cursor: string | null };
    if (response.status !== 200 || page.next_cursor === null) break;
    walk.push(withCursor(shape.query, page.next_cursor, CURSOR_PAGE_SIZE));
  }
  return walk;
}

/**
 * Shapes with `cursor: 'deep'` get the cursor of the record page DEEP_PAGE starts with, those with
 * `cursor: 'walk'` that and the walk of pages from there; the others are kept.
 */
export async function resolveCursorShapes(plugin: ServerProcess, shapes: readonly Shape[], log: (line: string) => void): Promise<Shape[]> {
  const resolved: Shape[] = [];
  for (const shape of shapes) {
    if (shape.cursor !== 'deep' && shape.cursor !== 'walk') {
      resolved.push(shape);
      continue;
    }
    const cursor = await cursorAfter(plugin, shape, (DEEP_PAGE - 1) * CURSOR_PAGE_SIZE, log);
    if (shape.cursor === 'deep') {
      resolved.push({ ...shape, query: withCursor(shape.query, cursor, CURSOR_PAGE_SIZE) });
      continue;
    }
    const walk = await walkFrom(plugin, shape, cursor);
    resolved.push({ ...shape, query: walk[0] as string, walk });
  }
  return resolved;
}
