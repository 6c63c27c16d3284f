// Owns the contract between the form builders and the page: a value changed (refresh the previews)
// or the form's shape changed (render it again, then focus a control).

import type { ValueHints } from './value-hints';

export interface FormContext {
  /** A value changed: recompute the URL, the curl command and the condition. */
  changed(): void;
  /** Rows were added, removed or moved: render the form again and focus `focusId` when given. */
  rebuild(focusId?: string): void;
  /** The operators the API accepts (`_meta` `operators`). */
  readonly operators: readonly string[];
  /** The count fields the form adds (`posts_count`): integer fields of the root for filters and sorts. */
  readonly counted: readonly string[];
  /** The values and ranges of the collection's fields, asked of the API (facets and stats). */
  readonly hints?: ValueHints;
}
