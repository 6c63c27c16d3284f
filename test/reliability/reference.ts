// The reference evaluator: the expected answer to a QuerySpec over the fixture rows held in
// memory, written from the documented behaviour alone (docs/query-language.md: conditions,
// search, fields and sort, expansion, pagination and limits, enums and arrays, relations in
// conditions, nested expansion and per-parent windows, cursors, totals; the fields a model's own
// JSON hides or masks: reference-refusals.ts). It shares no code with plugin/.

import { Dataset, FieldSpec, fieldOf, RelationSpec, ScopeSpec, StoredRow } from './model';
import {
  ClauseSpec,
  CountSpec,
  ExpandSpec,
  HasSpec,
  Literal,
  Operator,
  Paging,
  ScopeQuery,
  SearchSpec,
  SortSpec,
  QuerySpec,
  WindowSpec,
} from './query';
import { refusals, type ExpectedRefusal } from './reference-refusals';
import { expectedSummary, type ExpectedSummary } from './reference-summary';
import { arrayContains, compareField, JsonValue, outputField, parseDay, parseInstant } from './values';

export type JsonRecord = { [key: string]: JsonValue };

export interface ReferenceOptions {
  readonly origin: string;
  readonly prefix: string;
  readonly maxRows: number;
  readonly defaultPageSize: number;
}

export interface ExpectedPage {
  readonly current_page: number;
  readonly data: JsonRecord[];
  readonly first_page_url: string;
  readonly from: number | null;
  readonly last_page: number;
  readonly last_page_url: string;
  readonly next_page_url: string | null;
  readonly path: string;
  readonly per_page: number;
  readonly prev_page_url: string | null;
  readonly to: number | null;
  readonly total: number;
  /** With `total=estimated` only; the fixture is far below the threshold, so always false. */
  readonly total_is_estimate?: boolean;
}

/** Laravel's simple paginator (`total=none`). */
export interface ExpectedSimplePage {
  readonly current_page: number;
  readonly data: JsonRecord[];
  readonly first_page_url: string;
  readonly from: number | null;
  readonly next_page_url: string | null;
  readonly path: string;
  readonly per_page: number;
  readonly prev_page_url: string | null;
  readonly to: number | null;
}

export type Expected =
  | { readonly kind: 'array'; readonly records: JsonRecord[]; readonly truncated: boolean }
  | { readonly kind: 'page'; readonly envelope: ExpectedPage; readonly summary?: ExpectedSummary }
  | { readonly kind: 'simple-page'; readonly envelope: ExpectedSimplePage; readonly summary?: ExpectedSummary }
  /** `cursor=`: every record, in order, over the pages the cursors lead through (test/support/cursor-walk.ts follows them). */
  | { readonly kind: 'cursor-walk'; readonly records: JsonRecord[]; readonly perPage: number; readonly base: string }
  /** A field named outside its modifier's list, the model's JSON hiding or masking it included (docs/errors.md, "FIELD_NOT_ALLOWED"; docs/configuration.md, "What your model's JSON hides or masks"). */
  | { readonly kind: 'refused'; readonly problems: readonly ExpectedRefusal[] };

// ---- conditions -----------------------------------------------------------------------------

/**
 * One clause against one row, in two-valued form: SQL's unknown (a NULL compared) counts as false.
 * That is exact here because NOT only ever wraps a whole clause as `(clause) IS NOT TRUE`
 * (docs/query-language.md, "Negation includes missing values"), so everything above the clauses is monotone AND/OR.
 */
function compareOne(field: FieldSpec, stored: string | null, operator: Operator, literal: Literal): boolean {
  if (literal.isNull) return operator === '=' ? stored === null : stored !== null;
  if (field.type === 'array') {
    // `=` is "contains", `<>` "does not contain", true for a NULL array (docs/query-language.md, "Enums, arrays and JSON").
    const contains = stored !== null && arrayContains(field, stored, literal.text);
    return operator === '<>' ? !contains : contains;
  }
  if (field.type === 'timestamptz') {
    const day = parseDay(literal.text);
    if (day) {
      if (stored === null) return operator === '<>';
      const x = parseInstant(stored) as bigint;
      switch (operator) {
        case '=':
          return x >= day.start && x < day.end;
        case '<>':
          return !(x >= day.start && x < day.end);
        case '>':
          return x >= day.end;
        case '>=':
          return x >= day.start;
        case '<':
          return x < day.start;
        case '<=':
          return x < day.end;
      }
    }
  }
  // `<>` is IS DISTINCT FROM: a NULL field differs from every value.
  if (stored === null) return operator === '<>';
  const c = compareField(field, stored, literal.text);
  switch (operator) {
    case '=':
      return c === 0;
    case '<>':
      return c !== 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
  }
}

/** What a scope's conditions may reach besides its own fields: the root's relations (docs/query-language.md, "Relations in conditions"). */
interface Reach {
  readonly data: Dataset;
  readonly relations: readonly RelationSpec[];
  /** The counts of the request: `<relation>_count` is an integer field (docs/query-language.md, "Counting related records"). */
  readonly counts: readonly CountSpec[];
}

const NOWHERE: Reach = { data: { rows: new Map(), types: new Map(), collections: new Map() }, relations: [], counts: [] };

const COUNT_FIELD: Omit<FieldSpec, 'name'> = { type: 'integer', nullable: false };

/** How many related records satisfy the count's alias conditions. */
function countOf(row: StoredRow, count: CountSpec, reach: Reach): number {
  const relation = reach.relations.find((r) => r.name === count.relation);
  if (!relation) throw new Error(`reference: no relation ${count.relation}`);
  return relation.related(row, reach.data).filter((r) => matches(relation.scope, count.scope, r, NOWHERE)).length;
}

/** `posts_count` of the request -> its field and the row's value as text; anything else -> undefined. */
function countField(name: string, reach: Reach): { field: FieldSpec; value: (row: StoredRow) => string } | undefined {
  const count = reach.counts.find((c) => `${c.relation}_count` === name);
  if (!count) return undefined;
  return { field: { ...COUNT_FIELD, name }, value: (row) => String(countOf(row, count, reach)) };
}

/** `posts.status` -> the posts relation and `status`; a plain field -> undefined. */
function throughRelation(reach: Reach, name: string): { relation: RelationSpec; field: string } | undefined {
  const dot = name.indexOf('.');
  if (dot === -1) return undefined;
  const relation = reach.relations.find((r) => r.name === name.slice(0, dot));
  if (!relation) throw new Error(`reference: no relation in ${name}`);
  return { relation, field: name.slice(dot + 1) };
}

/** A clause on a relation's field holds when at least one related record satisfies it (docs/query-language.md, "Relations in conditions"). */
function holds(scope: ScopeSpec, row: StoredRow, clause: ClauseSpec, reach: Reach): boolean {
  const counted = countField(clause.field, reach);
  if (counted) return holdsOn(counted.field, counted.value(row), clause);
  const path = throughRelation(reach, clause.field);
  if (path) {
    const bare = { ...clause, field: path.field };
    return path.relation.related(row, reach.data).some((r) => holds(path.relation.scope, r, bare, NOWHERE));
  }
  return holdsOn(fieldOf(scope, clause.field), row[clause.field] ?? null, clause);
}

function holdsOn(field: FieldSpec, stored: string | null, clause: ClauseSpec): boolean {
  const [first, second] = clause.values as [Literal, Literal];
  switch (clause.family) {
    case 'filter':
      return compareOne(field, stored, clause.operator, first);
    case 'in':
      return clause.values.some((item) => compareOne(field, stored, '=', item));
    case 'between':
      return compareOne(field, stored, '>=', first) && compareOne(field, stored, '<=', second);
  }
}

interface Term {
  readonly or: boolean;
  readonly negated: boolean;
  readonly clause: ClauseSpec;
}

function term(clause: ClauseSpec, index: number): Term {
  const word = (clause.prefix ?? '').toLowerCase();
  // The word on a group's first clause is ignored; its `!` is not (docs/query-language.md, "Logical prefixes and how clauses group").
  return { or: index > 0 && word.startsWith('or'), negated: word.endsWith('!'), clause };
}

/** A family's clauses in query order with NOT > AND > OR (docs/query-language.md, "Grouping"); an empty group is true. */
function groupHolds(scope: ScopeSpec, row: StoredRow, clauses: readonly ClauseSpec[], reach: Reach): boolean {
  const alternatives: Term[][] = [];
  clauses.map(term).forEach((t) => {
    const last = alternatives[alternatives.length - 1];
    if (t.or || !last) alternatives.push([t]);
    else last.push(t);
  });
  if (alternatives.length === 0) return true;
  return alternatives.some((all) => all.every((t) => holds(scope, row, t.clause, reach) !== t.negated));
}

/** The text PostgreSQL compares for a search: the value itself, or the column cast to text. */
function textMatches(stored: string | null | undefined, search: SearchSpec): boolean {
  if (stored === null || stored === undefined) return false;
  const term = search.term.toLowerCase();
  const text = stored.toLowerCase();
  switch (search.mode) {
    case 'contains':
    case 'both':
      return text.includes(term);
    case 'start':
      return text.startsWith(term);
    case 'end':
      return text.endsWith(term);
  }
}

/** Any listed field matches; a related field when at least one related record's does (docs/query-language.md, "Relations in conditions"). */
function searchHolds(row: StoredRow, search: SearchSpec, reach: Reach): boolean {
  return search.fields.some((name) => {
    const path = throughRelation(reach, name);
    if (!path) return textMatches(row[name], search);
    return path.relation.related(row, reach.data).some((r) => textMatches(r[path.field], search));
  });
}

function matches(scope: ScopeSpec, query: ScopeQuery, row: StoredRow, reach: Reach, has: readonly HasSpec[] = []): boolean {
  const families = ['filter', 'in', 'between'] as const;
  return (
    families.every((f) =>
      groupHolds(
        scope,
        row,
        query.clauses.filter((c) => c.family === f),
        reach,
      ),
    ) &&
    query.searches.every((s) => searchHolds(row, s, reach)) &&
    has.every((h) => hasHolds(row, h, reach))
  );
}

/** One related record satisfies all of the alias's conditions together; `has!`: none does (docs/query-language.md, "has and has!: all conditions on one related record"). */
function hasHolds(row: StoredRow, has: HasSpec, reach: Reach): boolean {
  const relation = reach.relations.find((r) => r.name === has.relation);
  if (!relation) throw new Error(`reference: no relation ${has.relation}`);
  const any = relation.related(row, reach.data).some((r) => matches(relation.scope, has.scope, r, NOWHERE));
  return any !== has.negated;
}

// ---- order and projection -------------------------------------------------------------------

const DESCENDING = new Set(['-', 'd', 'des', 'desc', 'descending']);

/**
 * A sort key's field and its value in a row: a field of the row, or of a to-one relation's first
 * related record in primary-key order, NULL without one (docs/query-language.md, "Sorting by a related record").
 */
function sortKey(scope: ScopeSpec, name: string, reach: Reach): { field: FieldSpec; value: (row: StoredRow) => string | null } {
  const counted = countField(name, reach);
  if (counted) return counted;
  const path = throughRelation(reach, name);
  if (!path) return { field: fieldOf(scope, name), value: (row) => row[name] ?? null };
  const id = fieldOf(path.relation.scope, 'id');
  return {
    field: fieldOf(path.relation.scope, path.field),
    value: (row) => {
      const related = [...path.relation.related(row, reach.data)].sort((a, b) => compareField(id, a.id ?? '', b.id ?? ''));
      return related[0]?.[path.field] ?? null;
    },
  };
}

/** Sort keys in order, NULLS LAST ascending and FIRST descending, then the primary key (docs/query-language.md, "sort"). */
function sortRows(scope: ScopeSpec, sorts: readonly SortSpec[], rows: readonly StoredRow[], reach: Reach = NOWHERE): StoredRow[] {
  const keys = [
    ...sorts.map((s) => ({ ...sortKey(scope, s.field, reach), desc: DESCENDING.has(s.word.toLowerCase()) })),
    { ...sortKey(scope, 'id', reach), desc: false },
  ];
  return [...rows].sort((a, b) => {
    for (const { field, value, desc } of keys) {
      const x = value(a);
      const y = value(b);
      if (x === null && y === null) continue;
      // NULL is larger than every value in PostgreSQL's default ordering.
      const c = x === null ? 1 : y === null ? -1 : compareField(field, x, y);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

function outputFields(scope: ScopeSpec, query: ScopeQuery): FieldSpec[] {
  const projection = query.projection;
  if (!projection) return [...scope.fields];
  if (projection.kind === 'fields') return projection.list.map((name) => fieldOf(scope, name));
  return scope.fields.filter((f) => !projection.list.includes(f.name));
}

/** The requested fields of a row; a field the model's JSON masks, as it masks it (docs/configuration.md, "What your model's JSON hides or masks"). */
function project(fields: readonly FieldSpec[], row: StoredRow, masks: ScopeSpec['masks']): JsonRecord {
  const record: JsonRecord = {};
  for (const field of fields) {
    const value = outputField(field, row[field.name] ?? null);
    const mask = masks?.get(field.name);
    record[field.name] = mask !== undefined && typeof value === 'string' ? mask(value) : value;
  }
  return record;
}

/** Filtered, ordered and projected records of one scope (root rows or one parent's related rows). */
function shape(
  scope: ScopeSpec,
  query: ScopeQuery,
  rows: readonly StoredRow[],
  reach: Reach = NOWHERE,
  has: readonly HasSpec[] = [],
): { rows: StoredRow[]; fields: FieldSpec[] } {
  return {
    rows: sortRows(
      scope,
      query.sorts,
      rows.filter((r) => matches(scope, query, r, reach, has)),
      reach,
    ),
    fields: outputFields(scope, query),
  };
}

/** Each parent's related records from the offset, at most the limit, in the alias's order (docs/query-language.md, "Per-parent windows"). */
function windowed(rows: readonly StoredRow[], window: WindowSpec | null): StoredRow[] {
  const from = window?.offset ?? 0;
  const limit = window?.limit ?? null;
  return rows.slice(from, limit === null ? undefined : from + limit);
}

/** A record's fields, then each expansion under its relation's name, nested ones inside (docs/query-language.md, "Where the related records appear", "Nested expansion"). */
function withExpansions(
  scope: ScopeSpec,
  relations: readonly RelationSpec[],
  expands: readonly ExpandSpec[],
  data: Dataset,
  row: StoredRow,
  fields: readonly FieldSpec[],
  root?: { readonly reach: Reach; readonly counts: readonly CountSpec[] },
): JsonRecord {
  const record = project(fields, row, scope.masks);
  // At the root, counts after the fields, before the expansions (docs/query-language.md, "Counting related records").
  if (root !== undefined) for (const count of root.counts) record[`${count.relation}_count`] = countOf(row, count, root.reach);
  for (const expand of expands) {
    const relation = relations.find((r) => r.name === expand.relation);
    if (!relation) throw new Error(`reference: no relation ${expand.relation}`);
    // Alias modifiers choose related records, never parents (docs/query-language.md, "Aliases and alias modifiers").
    const related = shape(relation.scope, expand.scope, relation.related(row, data));
    const records = windowed(related.rows, expand.window).map((r) =>
      withExpansions(relation.scope, relation.relations, expand.expands, data, r, related.fields),
    );
    record[relation.name] = relation.cardinality === 'many' ? records : (records[0] ?? null);
  }
  return record;
}

// ---- paging ---------------------------------------------------------------------------------

/** The query string with `page` replaced in place, or `page=N` appended (contract "Page URLs"). */
function pageUrl(base: string, rawQuery: string, page: number): string {
  const pairs = rawQuery === '' ? [] : rawQuery.split('&');
  const at = pairs.findIndex((p) => p === 'page' || p.startsWith('page='));
  if (at >= 0) pairs[at] = `page=${page}`;
  else pairs.push(`page=${page}`);
  return `${base}?${pairs.join('&')}`;
}

function envelope(
  records: JsonRecord[],
  paging: Extract<Paging, { kind: 'page' }>,
  options: ReferenceOptions,
  base: string,
  rawQuery: string,
  estimated: boolean,
): ExpectedPage {
  const perPage = paging.size ?? options.defaultPageSize;
  const page = paging.page ?? 1;
  const total = records.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const data = records.slice((page - 1) * perPage, page * perPage);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  const url = (n: number): string => pageUrl(base, rawQuery, n);
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from,
    last_page: lastPage,
    last_page_url: url(lastPage),
    next_page_url: page < lastPage ? url(page + 1) : null,
    path: base,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: from === null ? null : from + data.length - 1,
    total,
    // Every total of the fixture is below the default estimateAbove (10,000), so it is exact.
    ...(estimated ? { total_is_estimate: false } : {}),
  };
}

/** `total=none`: no total; a next page exactly when a record lies past this one. */
function simpleEnvelope(
  records: JsonRecord[],
  paging: Extract<Paging, { kind: 'page' }>,
  options: ReferenceOptions,
  base: string,
  rawQuery: string,
): ExpectedSimplePage {
  const perPage = paging.size ?? options.defaultPageSize;
  const page = paging.page ?? 1;
  const data = records.slice((page - 1) * perPage, page * perPage);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  const url = (n: number): string => pageUrl(base, rawQuery, n);
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from,
    next_page_url: records.length > page * perPage ? url(page + 1) : null,
    path: base,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: from === null ? null : from + data.length - 1,
  };
}

/**
 * The facets and stats of `spec`: each over the root's records (those `scoped` keeps, as a host's
 * scope hook on the root would) matching the request without the clauses on its field.
 */
export function summaryOf(spec: QuerySpec, data: Dataset, scoped: (row: StoredRow) => boolean = () => true): ExpectedSummary | undefined {
  const collection = data.collections.get(spec.collection);
  if (!collection) throw new Error(`reference: no collection ${spec.collection}`);
  const reach: Reach = { data, relations: collection.relations, counts: spec.counts };
  const stored = (data.rows.get(collection.table) ?? []).filter(scoped);
  const rowsWithout = (field: string) => {
    const query = { ...spec.root, clauses: spec.root.clauses.filter((c) => c.field !== field) };
    return stored.filter((r) => matches(collection, query, r, reach, spec.has));
  };
  return expectedSummary(spec, new Map(collection.fields.map((f) => [f.name, f])), rowsWithout);
}

/** The expected answer to `spec` sent as `rawQuery` (the exact string, for page URLs). */
export function evaluate(spec: QuerySpec, rawQuery: string, data: Dataset, options: ReferenceOptions): Expected {
  const collection = data.collections.get(spec.collection);
  if (!collection) throw new Error(`reference: no collection ${spec.collection}`);
  const refused = refusals(spec, collection);
  if (refused.length > 0) return { kind: 'refused', problems: refused };
  const reach: Reach = { data, relations: collection.relations, counts: spec.counts };
  const { rows, fields } = shape(collection, spec.root, data.rows.get(collection.table) ?? [], reach, spec.has);
  const records = rows.map((row) =>
    withExpansions(collection, collection.relations, spec.expands, data, row, fields, { reach, counts: spec.counts }),
  );
  const paging = spec.paging;
  if (paging.kind === 'cursor') {
    return {
      kind: 'cursor-walk',
      records,
      perPage: paging.size ?? options.defaultPageSize,
      base: `${options.origin}${options.prefix}/${collection.name}`,
    };
  }
  if (paging.kind === 'page') {
    const base = `${options.origin}${options.prefix}/${collection.name}`;
    // Facets and stats: each over the records matching the request without the clauses on its field.
    const found = summaryOf(spec, data);
    const summary = found === undefined ? {} : { summary: found };
    if (spec.total === 'none')
      return { kind: 'simple-page', envelope: simpleEnvelope(records, paging, options, base, rawQuery), ...summary };
    return { kind: 'page', envelope: envelope(records, paging, options, base, rawQuery, spec.total === 'estimated'), ...summary };
  }
  const offset = paging.kind === 'slice' ? (paging.offset ?? 0) : 0;
  const limit = paging.kind === 'slice' ? paging.limit : null;
  const wanted = records.slice(offset, limit === null ? undefined : offset + limit);
  // The row cap applies to every unpaginated answer; the header says when it cut (docs/query-language.md, "limit, offset and the row cap").
  return { kind: 'array', records: wanted.slice(0, options.maxRows), truncated: wanted.length > options.maxRows };
}
