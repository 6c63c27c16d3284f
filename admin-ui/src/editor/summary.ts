// Owns the plain-language sentence of what the list shows: "Users whose role is editor and whose
// name starts with “A”, newest first, with their 3 latest posts, 10 per page."
import { fieldType, type CollectionMeta } from '../meta';
import type { FormState } from '../state';
import { editorRows, kindWords, readRow, rowComplete, rowField } from './conditions';
import { formatDate } from './format';
import { collectionLabel, fieldLabel } from './labels';
import { relatedWords } from './related';
import { directionWords } from './view';
import { dateTypes } from './conditions';

function valueWords(value: string, type: ReturnType<typeof fieldType>): string {
  if (type === 'boolean') return value === 'true' ? 'Yes' : 'No';
  if (dateTypes.has(type)) return formatDate(value);
  return `“${value}”`;
}

function joinWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}

/** The conditions in words: `role is “editor”`, `created at is between 1 Apr 2025 and 30 Apr 2025`. */
function conditionWords(state: FormState, meta: CollectionMeta): string[] {
  return editorRows(state.root, meta).rows.flatMap((row) => {
    const field = rowField(row);
    const type = fieldType(meta, field);
    const { kind, value, max } = readRow(row, type);
    if (!rowComplete(kind, value, max)) return [];
    const label = fieldLabel(meta, field).toLowerCase();
    if (kind === 'isEmpty' || kind === 'isNotEmpty') return [`${label} ${kindWords[kind]}`];
    const upper = kind === 'between' ? ` and ${valueWords(max, type)}` : '';
    return [`${label} ${kindWords[kind]} ${valueWords(value, type)}${upper}`];
  });
}

/** The whole sentence; `others` is how many conditions only the developer view shows. */
export function summaryText(state: FormState, meta: CollectionMeta): string {
  const { others } = editorRows(state.root, meta);
  const conditions = conditionWords(state, meta);
  const parts = [`${collectionLabel(meta.name)}${conditions.length === 0 ? '' : ` whose ${joinWords(conditions)}`}`];
  if (others > 0) parts.push(`with ${others} more condition${others === 1 ? '' : 's'} from the developer view`);
  const sort = state.root.sort[0];
  if (sort !== undefined) {
    const words = directionWords(fieldType(meta, sort.field), sort.direction);
    parts.push(
      dateTypes.has(fieldType(meta, sort.field)) && sort.field === 'created_at'
        ? words
        : `by ${fieldLabel(meta, sort.field).toLowerCase()}, ${words}`,
    );
  }
  if (state.expands.length > 0) parts.push(`with ${joinWords(state.expands.map((e) => relatedWords(e, meta)))}`);
  const paging = state.paging;
  if (paging.mode === 'pages') parts.push(`${paging.perPage || meta.pagination.defaultPageSize} per page`);
  else if (paging.mode === 'none') parts.push('all on one page');
  return `${parts.join(', ')}.`;
}
