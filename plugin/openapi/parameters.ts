// The query parameters of one collection's operation: one parameter per allowed field and modifier
// (`filter[id]`, `sort[name]`, ...), each with its schema, an accepted example and the rules in words.

import type { ResolvedOptions } from '../options';
import type { Column, CollectionCatalog, RelationCatalog, ScopeCatalog } from '../schema';
import { sortWordList } from '../syntax';
import { cursorParameter } from './cursors';
import { betweenPattern, filterPattern, inPattern, isRanged, searchPattern, valueForm, type JsonSchema } from './value-forms';

export type Parameter = JsonSchema;

const prefixWords =
  'Prefix the field with a logical word and one space (`+` or `%20` in a URL) to join this clause to the clauses ' +
  'before it: `and`, `or`, `and!` (AND NOT), `or!` (OR NOT), case-insensitive, e.g. KEY_OR. ' +
  'Repeat the key to add clauses; clauses of one family group in query-string order with NOT before AND before OR.';

export function column(scope: ScopeCatalog, name: string): Column {
  return scope.columns.get(name) ?? { name, column: name, table: scope.table, type: 'other', nullable: true, udt: '', orderable: false };
}

function typeWords(col: Column): string {
  const type = col.type === 'array' ? `${col.elementType ?? 'other'}[]` : col.type;
  return `\`${type}\`${col.nullable ? ', nullable' : ''}`;
}

/** What the operators mean for this field: arrays test membership, JSON has no order (decisions.md 35). */
function operatorWords(col: Column): string {
  if (col.type === 'array') {
    return 'Operators: `=` (the default: the array contains the value), `<>` (does not contain it; also true for NULL).';
  }
  if (!isRanged(col)) return 'Operators: `=` (the default, equal as JSON), `<>` (also true for NULL).';
  return 'Operators: `=` (the default), `<>` (also true for NULL), `>`, `>=`, `<`, `<=`.';
}

function stringSchema(pattern: string | undefined): JsonSchema {
  return pattern === undefined ? { type: 'string' } : { type: 'string', pattern };
}

export function query(name: string, description: string, schema: JsonSchema, example: unknown, extra: JsonSchema = {}): Parameter {
  return { name, in: 'query', required: false, description, schema, example, ...extra };
}

/**
 * How a dot path reads in a description: `posts.status` -> "at least one related `posts` record's
 * `status`" (decisions.md 36); a field of the collection itself -> "`status`".
 */
export interface Subject {
  /** The key's field: `status` or `posts.status`. */
  readonly key: string;
  /** `\`status\``, or the words for a related record's field. */
  readonly words: string;
  /** Appended to the description: what a negated clause means for a relation. */
  readonly note: string;
}

const own = (field: string): Subject => ({ key: field, words: `\`${field}\``, note: '' });

export function filterParameter(scope: ScopeCatalog, field: string, subject: Subject = own(field)): Parameter {
  const col = column(scope, field);
  const form = valueForm(col);
  const logical = prefixWords.replace('KEY_OR', `\`filter[or ${subject.key}]\``);
  const plainExample = form.shape === undefined || col.type === 'boolean' || !isRanged(col);
  return query(
    `filter[${subject.key}]`,
    `Compare ${subject.words} (${typeWords(col)}) with a value written \`[operator]value\`. ${operatorWords(col)} The value is ` +
      `${form.words}; \`null\` with \`=\` or \`<>\` tests for NULL; a value in double quotes is taken literally. ${logical}${subject.note}`,
    stringSchema(filterPattern(col)),
    plainExample ? form.example : `>=${form.example}`,
  );
}

export function inParameter(scope: ScopeCatalog, field: string, subject: Subject = own(field)): Parameter {
  const col = column(scope, field);
  const form = valueForm(col);
  const what = col.type === 'array' ? 'contains at least one' : 'equals one';
  return query(
    `in[${subject.key}]`,
    `Keep records whose ${subject.words} (${typeWords(col)}) ${what} of a comma-separated list of items, each ${form.words}; ` +
      'an item may be double-quoted to contain commas; a bare `null` item matches NULL. ' +
      prefixWords.replace('KEY_OR', `\`in[or ${subject.key}]\``) +
      subject.note,
    stringSchema(inPattern(col)),
    `${form.example},${form.example}`,
  );
}

export function betweenParameter(scope: ScopeCatalog, field: string, subject: Subject = own(field)): Parameter {
  const col = column(scope, field);
  const form = valueForm(col);
  return query(
    `between[${subject.key}]`,
    `Keep records whose ${subject.words} (${typeWords(col)}) lies between two comma-separated bounds, both included; each bound is ` +
      `${form.words}. ${prefixWords.replace('KEY_OR', `\`between[or ${subject.key}]\``)}${subject.note}`,
    stringSchema(betweenPattern(col)),
    `${form.example},${form.example}`,
  );
}

export function searchParameter(fields: readonly string[], note = ''): Parameter {
  const list = fields.join(',');
  return query(
    `search[${list}]`,
    `Case-insensitive search in ${fields.map((f) => `\`${f}\``).join(' or ')}. A \`*\` at the start or end anchors the term ` +
      '(`term*` starts with, `*term` ends with, no star: contains); `%`, `_` and inner `*` are literal. ' +
      'Several fields may be listed in one key (`search[a,b]`: any of them matches); several `search` keys are ANDed.' +
      note,
    { type: 'string', pattern: searchPattern },
    'a',
  );
}

export function sortParameter(field: string, note = ''): Parameter {
  return query(
    `sort[${field}]`,
    `Order by \`${field}\`: empty or \`a\`/\`asc\`/\`ascending\` ascending, \`-\`/\`d\`/\`des\`/\`desc\`/\`descending\` descending ` +
      `(case-insensitive). Several sort keys apply in query-string order; the primary key is the final tie-breaker.${note}`,
    { type: 'string', enum: ['', ...sortWordList] },
    'desc',
    { allowEmptyValue: true },
  );
}

function fieldsParameters(scope: ScopeCatalog): Parameter[] {
  const items = { type: 'string', enum: [...scope.projectable] };
  const listed = scope.projectable.map((f) => `\`${f}\``).join(', ');
  const list = (maxItems: number) => ({ type: 'array', items, minItems: 1, maxItems, uniqueItems: true });
  const fields = query(
    'fields',
    `Return only these fields, in this order (comma-separated, each once). Allowed: ${listed}.`,
    list(scope.projectable.length),
    [scope.projectable[0]],
    { style: 'form', explode: false },
  );
  // `fields!` must leave at least one field, so a collection with a single field has none.
  if (scope.projectable.length < 2) return [fields];
  return [
    fields,
    query(
      'fields!',
      `Return every field except these, in declaration order (comma-separated). Allowed: ${listed}.`,
      list(scope.projectable.length - 1),
      [scope.projectable[scope.projectable.length - 1]],
      { style: 'form', explode: false },
    ),
  ];
}

const quoteList = (names: readonly string[]): string => (names.length === 0 ? 'none' : names.map((n) => `\`${n}\``).join(', '));

/**
 * What an alias of `relation` takes, as lists of fields per modifier, whether it takes a per-parent
 * window (`limit`/`offset`, to-many only) and, while the depth cap allows, the relations its
 * `<alias>_expand[...]` may name with theirs (decisions.md 40-41).
 */
function aliasModifiers(relation: RelationCatalog, levelsLeft: number): Parameter {
  const s = relation.scope;
  const nested = levelsLeft > 1 ? [...relation.relations.values()] : [];
  return {
    fields: [...s.projectable],
    sort: [...s.sortable],
    search: [...s.searchable],
    filter: [...s.filterable],
    in: [...s.filterable],
    between: s.filterable.filter((f) => isRanged(column(s, f))),
    window: relation.cardinality === 'many',
    expand: Object.fromEntries(nested.map((r) => [r.name, aliasModifiers(r, levelsLeft - 1)])),
  };
}

function expandParameter(relation: RelationCatalog, maxExpandDepth: number): Parameter {
  const s = relation.scope;
  const shape = relation.cardinality === 'many' ? 'an array (possibly empty)' : 'an object or null';
  const window =
    relation.cardinality === 'many'
      ? "`<alias>_limit` and `<alias>_offset` (non-negative integers) pick each record's related records, in `<alias>_sort` order. "
      : '';
  const nested = [...relation.relations.keys()];
  const deeper =
    maxExpandDepth > 1 && nested.length > 0
      ? `\`<alias>_expand[<relation>]=<alias2>\` (${quoteList(nested)}) expands their relations in turn, with the same alias modifiers, ` +
        `at most ${maxExpandDepth} levels deep; \`x-alias-modifiers.expand\` lists what each level allows. `
      : '';
  return query(
    `expand[${relation.name}]`,
    `Embed the ${relation.kind} relation \`${relation.name}\` in each record under \`${relation.name}\` (${shape}). ` +
      'The optional value is an alias (`[A-Za-z][A-Za-z0-9]*`) that enables alias modifiers for this relation: ' +
      `\`<alias>_fields\` / \`<alias>_fields!\` (fields: ${quoteList(s.projectable)}), ` +
      `\`<alias>_sort[<field>]\` (${quoteList(s.sortable)}), \`<alias>_search[<field>]\` (${quoteList(s.searchable)}), ` +
      `\`<alias>_filter[<field>]\`, \`<alias>_in[<field>]\`, \`<alias>_between[<field>]\` (${quoteList(s.filterable)}). ` +
      window +
      deeper +
      'They follow the rules of the root modifiers and never remove parent records.',
    { type: 'string', pattern: '^(?:[A-Za-z][A-Za-z0-9]*)?$' },
    'r',
    {
      allowEmptyValue: true,
      'x-alias-modifiers': aliasModifiers(relation, maxExpandDepth),
    },
  );
}

const pagingNames = ['page', 'per-page', 'page-size', 'limit', 'offset', 'cursor'] as const;

/** The shared paging parameters, for `components.parameters`. */
export function pagingParameters(options: ResolvedOptions): Record<string, Parameter> {
  const pageSize = (name: string): Parameter =>
    query(
      name,
      `Records per page (default ${options.defaultPageSize}, at most ${options.maxPageSize}); the response is the page envelope. ` +
        '`per-page` and `page-size` are synonyms.',
      { type: 'integer', minimum: 1, maximum: options.maxPageSize },
      Math.min(10, options.maxPageSize),
    );
  return {
    page: query('page', 'Page number, from 1; the response is the page envelope.', { type: 'integer', minimum: 1 }, 1),
    'per-page': pageSize('per-page'),
    'page-size': pageSize('page-size'),
    limit: query(
      'limit',
      `Return at most this many records as a bare array (capped at ${options.maxRows}). Not with page parameters.`,
      { type: 'integer', minimum: 0 },
      10,
    ),
    offset: query('offset', 'Skip this many records (bare array). Not with page parameters.', { type: 'integer', minimum: 0 }, 0),
    cursor: cursorParameter,
  };
}

/** Every parameter of `GET <prefix>/<collection>`, in a stable order. */
export function collectionParameters(collection: CollectionCatalog, maxExpandDepth: number): Parameter[] {
  const params: Parameter[] = [...fieldsParameters(collection)];
  for (const field of collection.sortable) params.push(sortParameter(field));
  for (const field of collection.filterable) params.push(filterParameter(collection, field));
  for (const field of collection.filterable) params.push(inParameter(collection, field));
  // Arrays and JSON have no range (decisions.md 35): `between` on them is always refused.
  for (const field of collection.filterable) {
    if (isRanged(column(collection, field))) params.push(betweenParameter(collection, field));
  }
  for (const field of collection.searchable) params.push(searchParameter([field]));
  if (collection.searchable.length > 1) params.push(searchParameter(collection.searchable));
  for (const relation of collection.relations.values()) params.push(expandParameter(relation, maxExpandDepth));
  for (const name of pagingNames) params.push({ $ref: `#/components/parameters/${name}` });
  return params;
}
