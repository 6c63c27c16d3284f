// Owns "Export CSV": the current view's request with every page (its page parameters dropped) as
// `format=csv`, downloaded as the file the API names (docs/admin-ui.md, "Taking a list to a
// spreadsheet"). A view with related records cannot be exported: the button says so and is off.
import type { Param } from '../query/encode';
import type { CollectionMeta } from '../meta';
import type { FormState } from '../state';

/** The parameters that choose a page; the export asks for every matching record instead. */
const pageKeys = new Set(['page', 'per-page', 'cursor', 'limit', 'offset', 'total']);

/** `[filter[role]=editor, per-page=10, page=2]` -> `[filter[role]=editor, format=csv]`. */
export function exportParams(params: readonly Param[]): Param[] {
  return [...params.filter((p) => !pageKeys.has(p.key)), { key: 'format', value: 'csv', control: 'export-csv' }];
}

/** What the export button's note says: why the view cannot be exported, or how many records it may hold. */
export function exportBlocked(state: FormState, meta: CollectionMeta): string {
  if (meta.export?.formats.includes('csv') !== true) return 'This server cannot export lists.';
  if (state.expands.length === 0) return `Up to ${meta.export.maxExportRows.toLocaleString()} records.`;
  return 'Related records do not fit in a spreadsheet: remove them under “Include related records” to export this list.';
}

/** `attachment; filename="users.csv"` -> `users.csv`; else `<collection>.csv`. */
export function fileName(disposition: string | null, collection: string): string {
  const found = /filename="([^"]+)"/.exec(disposition ?? '')?.[1];
  return found ?? `${collection}.csv`;
}

/** Hands the browser a file to save, as a download of `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

/** Whether the button may export the view: the server exports CSV and the view has no related records. */
export function exportable(state: FormState, meta: CollectionMeta): boolean {
  return meta.export?.formats.includes('csv') === true && state.expands.length === 0;
}
