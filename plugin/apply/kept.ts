// Text and values kept between requests by the plan cache, held in as little memory as they need.

import type { Fragment } from './types';

/**
 * A flat copy of a condition's text. Text put together from pieces (`(${a}) IS NOT TRUE`) is kept
 * by V8 as a tree of them, 32 bytes a piece beyond its characters; kept for long, a copy is cheaper.
 */
export const flat = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/**
 * A fragment that holds its text and values in as little memory as they need: slice() copies the
 * values into a list of their exact length (a list built by pushing has room to spare). The list
 * is readonly by type but not frozen: every request copies it into its statement, and V8 reads a
 * frozen array more slowly.
 */
export const keptFragment = (fragment: Fragment): Fragment =>
  Object.freeze({ sql: flat(fragment.sql), bindings: fragment.bindings.slice() });
