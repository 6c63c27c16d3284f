// The query parameters of one collection's operation. Each bracketed modifier is one parameter per
// family (`filter`, `in`, `between`, `search`, `sort`, `expand`, `has`, `has!`, `count`) in the
// `deepObject` style, so generic tools read `filter[status]=active` as the property `status` of
// `filter`: one property per allowed key, each with its value's schema, an accepted example and the
// rules in words, and `patternProperties` for the forms built by the client (logical prefixes).

import type { ResolvedOptions } from '../options';
import type { Column, ScopeCatalog } from '../schema';
import { sortWordList } from '../syntax';
import { cursorParameter } from './cursors';
import { betweenPattern, escapeRegExp, filterPattern, inPattern, isRanged, searchPattern, valueForm, type JsonSchema } from './value-forms';

export type Parameter = JsonSchema;

/** One key of a family: `status` of `filter[status]`, its value's schema, the rules in words and a value the API accepts. */
export interface KeyEntry {
  readonly key: string;
  readonly description: string;
  readonly schema: JsonSchema;
  readonly example: string;
}

export function column(scope: ScopeCatalog, name: string): Column {
  return scope.columns.get(name) ?? { name, column: name, table: scope.table, type: 'other', nullable: true, udt: '', orderable: false };
}

function typeWords(col: Column): string {
  const type = col.type === 'array' ? `${col.elementType ?? 'other'}[]` : col.type;
  return `\`${type}\`${col.nullable ? ', nullable' : ''}`;
}

/** What the operators mean for this field: arrays test membership, JSON has no order (docs/query-language.md). */
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
 * `status`"; a field of the collection itself -> "`status`".
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

export function filterKey(scope: ScopeCatalog, field: string, subject: Subject = own(field)): KeyEntry {
  const col = column(scope, field);
  const form = valueForm(col);
  const plainExample = form.shape === undefined || col.type === 'boolean' || !isRanged(col);
  return {
    key: subject.key,
    description:
      `Compare ${subject.words} (${typeWords(col)}) with a value written \`[operator]value\`. ${operatorWords(col)} The value is ` +
      `${form.words}; \`null\` with \`=\` or \`<>\` tests for NULL; a value in double quotes is taken literally.${subject.note}`,
    schema: stringSchema(filterPattern(col)),
    example: plainExample ? form.example : `>=${form.example}`,
  };
}

export function inKey(scope: ScopeCatalog, field: string, subject: Subject = own(field)): KeyEntry {
  const col = column(scope, field);
  const form = valueForm(col);
  const what = col.type === 'array' ? 'contains at least one' : 'equals one';
  return {
    key: subject.key,
    description:
      `Keep records whose ${subject.words} (${typeWords(col)}) ${what} of a comma-separated list of items, each ${form.words}; ` +
      `an item may be double-quoted to contain commas; a bare \`null\` item matches NULL.${subject.note}`,
    schema: stringSchema(inPattern(col)),
    example: `${form.example},${form.example}`,
  };
}

export function betweenKey(scope: ScopeCatalog, field: string, subject: Subject = own(field)): KeyEntry {
  const col = column(scope, field);
  const form = valueForm(col);
  return {
    key: subject.key,
    description:
      `Keep records whose ${subject.words} (${typeWords(col)}) lies between two comma-separated bounds, both included; each bound is ` +
      `${form.words}.${subject.note}`,
    schema: stringSchema(betweenPattern(col)),
    example: `${form.example},${form.example}`,
  };
}

export function searchKey(fields: readonly string[], note = ''): KeyEntry {
  return {
    key: fields.join(','),
    description:
      `Case-insensitive search in ${fields.map((f) => `\`${f}\``).join(' or ')}. A \`*\` at the start or end anchors the term ` +
      '(`term*` starts with, `*term` ends with, no star: contains); `%`, `_` and inner `*` are literal.' +
      note,
    schema: { type: 'string', pattern: searchPattern },
    example: 'a',
  };
}

/** `desc` -> `[Dd][Ee][Ss][Cc]`: any case of an ASCII word, in a pattern every JSON Schema tool reads (no `(?i)`). */
function anyCase(word: string): string {
  return word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
}

/** Any case of each direction word, as the server reads them. */
const sortPattern = `^(?:${['', ...sortWordList].map(anyCase).join('|')})$`;

export function sortKey(field: string, note = ''): KeyEntry {
  return {
    key: field,
    description:
      `Order by \`${field}\`: empty or \`a\`/\`asc\`/\`ascending\` ascending, \`-\`/\`d\`/\`des\`/\`desc\`/\`descending\` descending ` +
      `(any case: \`DESC\` too).${note}`,
    schema: { type: 'string', pattern: sortPattern },
    example: 'desc',
  };
}

export const aliasSchema = { type: 'string', pattern: '^(?:[A-Za-z][A-Za-z0-9]*)?$' };

/** `a.b` -> `a\.b`, for a key inside a pattern. */
export const keyPattern = (keys: readonly string[]): string => `(?:${keys.map(escapeRegExp).join('|')})`;

/** The keys of a clause family: each key as is or after a logical prefix (`status`, `or status`, `AND! posts.title`). */
export function clauseKeys(keys: readonly string[]): string {
  return `^(?:(?:[Aa][Nn][Dd]|[Oo][Rr])!? )?${keyPattern(keys)}$`;
}

/**
 * One family as a `deepObject` parameter: `family('filter', ...)` describes `filter[<key>]=<value>`,
 * one property per key with its schema and example. `names` is the pattern of every key the API
 * takes (by default the properties' names); it includes keys the client builds itself, such as
 * logical prefixes, whose values follow the property they prefix. A pattern, not
 * `patternProperties`: generated types then keep exactly the listed keys instead of any string.
 */
export function family(
  name: string,
  description: string,
  entries: readonly KeyEntry[],
  names = `^${keyPattern(entries.map((e) => e.key))}$`,
  extra: JsonSchema = {},
): Parameter | undefined {
  const first = entries[0];
  if (first === undefined) return undefined;
  const properties = Object.fromEntries(
    entries.map((entry) => [entry.key, { ...entry.schema, description: entry.description, examples: [entry.example] }]),
  );
  const schema = { type: 'object', properties, propertyNames: { pattern: names } };
  return query(name, description, schema, { [first.key]: first.example }, { style: 'deepObject', explode: true, ...extra });
}

/** `ranks`: `_relevance` and `_similarity`, which `fields` may name (with `match`, `similar`) and `fields!` never excludes. */
export function fieldsParameters(scope: ScopeCatalog, ranks: readonly string[] = []): Parameter[] {
  const items = { type: 'string', enum: [...scope.projectable] };
  const listed = scope.projectable.map((f) => `\`${f}\``).join(', ');
  const list = (maxItems: number) => ({ type: 'array', items, minItems: 1, maxItems, uniqueItems: true });
  const ranked = ranks.length === 0 ? '' : ` With \`match\` or \`similar\`, also ${ranks.map((f) => `\`${f}\``).join(', ')}.`;
  const fields = query(
    'fields',
    `Return only these fields, in this order (comma-separated, each once). Allowed: ${listed}.${ranked}`,
    ranks.length === 0
      ? list(scope.projectable.length)
      : { ...list(scope.projectable.length + ranks.length), items: { type: 'string', enum: [...scope.projectable, ...ranks] } },
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

/** The parameters every collection shares: paging, and `format` (docs/query-language.md, "Export as CSV"). */
const pagingNames = ['page', 'per-page', 'page-size', 'limit', 'offset', 'cursor', 'format'] as const;

/** `$ref`s to the shared paging parameters and `format`. */
export const pagingReferences: readonly Parameter[] = pagingNames.map((name) => ({ $ref: `#/components/parameters/${name}` }));

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
    format: query(
      'format',
      'Answer with the records as CSV (`text/csv`, as `Accept: text/csv` does) instead of JSON: a header row, one line per record. ' +
        `With page parameters or \`limit\`, that page; without them every matching record (at most ${options.maxExportRows}, streamed). ` +
        'Not with expansions, facets, stats, `total` or `cursor`.',
      { type: 'string', enum: ['csv'] },
      'csv',
    ),
  };
}
