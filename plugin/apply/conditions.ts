// Renders validated conditions as SQL fragments in knex's raw form: comparisons with their NULL and
// whole-day rules, enums compared in their declared order, JSON compared as jsonb, arrays tested for
// the elements they contain, and the case-insensitive search (docs/query-language.md, "Values and types").

import { elementOf, type Column } from '../schema';
import type { BoundValue, Condition, ConditionGroup, Operand, RelatedRows, Term } from '../validate';
import type { Operator } from '../syntax';
import { searchField } from './search';
import { columnSql, fragment, join, typeSql } from './sql';
import type { Fragment } from './types';
import { matchSql, similarSql } from './ranked';

/** How a scalar field is compared: the column expression and the placeholder of a value. */
interface Sides {
  readonly ref: string;
  readonly placeholder: string;
}

/**
 * `mood` -> `"t"."mood"` against `?::"public"."mood"`, so `<` and `between` follow the enum's declared
 * order; json against `?::jsonb`, so `{"a":1}` equals `{ "a" : 1 }`; types without a useful
 * comparison of their own (point, ...) in their text form.
 */
function sidesOf(column: Column): Sides {
  const ref = columnSql(column);
  switch (column.type) {
    case 'enum':
      return { ref, placeholder: `?::${typeSql(column)}` };
    case 'json':
      return { ref: `${ref}::jsonb`, placeholder: '?::jsonb' };
    case 'other':
      return { ref: `${ref}::text`, placeholder: '?' };
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'numeric':
    case 'float':
    case 'text':
    case 'boolean':
    case 'timestamptz':
    case 'timestamp':
    case 'date':
    case 'uuid':
    case 'array':
    case 'virtual':
      return { ref, placeholder: '?' };
  }
}

const relational = { '=': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=', '<>': 'IS DISTINCT FROM' } as const;

const notTrue = (inner: Fragment): Fragment => fragment(`(${inner.sql}) IS NOT TRUE`, inner.bindings);

const isNull = (column: Column, operator: Operator): Fragment =>
  fragment(`${columnSql(column)} ${operator === '=' ? 'IS NULL' : 'IS NOT NULL'}`);

/** `<= 2025-04-17` as a day -> `< 2025-04-18T00:00:00Z` (docs/query-language.md, "Dates against timestamp columns"). */
function compareDay(ref: string, operator: Operator, start: string, end: string): Fragment {
  const within = fragment(`(${ref} >= ? AND ${ref} < ?)`, [start, end]);
  switch (operator) {
    case '=':
      return within;
    case '<>':
      return notTrue(within);
    case '>':
      return fragment(`${ref} >= ?`, [end]);
    case '>=':
      return fragment(`${ref} >= ?`, [start]);
    case '<':
      return fragment(`${ref} < ?`, [start]);
    case '<=':
      return fragment(`${ref} < ?`, [end]);
  }
}

function compare(column: Column, operator: Operator, operand: Operand): Fragment {
  const { ref, placeholder } = sidesOf(column);
  switch (operand.kind) {
    case 'null':
      return isNull(column, operator);
    case 'value':
      return fragment(`${ref} ${relational[operator]} ${placeholder}`, [operand.value]);
    case 'day':
      return compareDay(ref, operator, operand.start, operand.end);
  }
}

/**
 * Both bounds inclusive; a date-only upper bound runs to the end of that day
 * (docs/query-language.md, "Dates against timestamp columns").
 */
function between(column: Column, min: Operand, max: Operand): Fragment {
  const both = join([compare(column, '>=', min), compare(column, '<=', max)], ' AND ');
  return fragment(`(${both.sql})`, both.bindings);
}

function anyOf(parts: readonly Fragment[]): Fragment {
  const any = join(parts, ' OR ');
  return fragment(`(${any.sql})`, any.bindings);
}

function inList(column: Column, items: readonly Operand[]): Fragment {
  const { ref, placeholder } = sidesOf(column);
  const values = items.flatMap((i) => (i.kind === 'value' ? [i.value] : []));
  const others = items.filter((i) => i.kind !== 'value').map((i) => compare(column, '=', i));
  const list = values.length === 0 ? [] : [fragment(`${ref} IN (${values.map(() => placeholder).join(', ')})`, values)];
  return anyOf([...list, ...others]);
}

// ---- arrays (docs/query-language.md, "Enums, arrays and JSON") ----------------------------------

/**
 * `tags @> ARRAY[?]::text[]` (contains) or `&&` (shares an element). Both sides have the element's
 * type: JSON elements compare as jsonb, types without equality (point, ...) in their text form, and
 * the column is cast too, which is free for its own type and makes arrays of a domain comparable.
 */
function arrayTest(column: Column, operator: '@>' | '&&', values: readonly BoundValue[]): Fragment {
  const element = elementOf(column);
  const type = element.type === 'json' ? 'jsonb' : element.type === 'other' ? 'text' : typeSql(element);
  const list = values.map(() => '?').join(', ');
  return fragment(`${columnSql(column)}::${type}[] ${operator} ARRAY[${list}]::${type}[]`, values);
}

/** A date-only value on an array of timestamps: some element lies in that whole UTC day. */
function elementInDay(column: Column, start: string, end: string): Fragment {
  return fragment(`EXISTS (SELECT 1 FROM unnest(${columnSql(column)}) AS "element"("value") ` + `WHERE "value" >= ? AND "value" < ?)`, [
    start,
    end,
  ]);
}

function elementTest(column: Column, operand: Operand): Fragment {
  switch (operand.kind) {
    case 'null':
      return isNull(column, '=');
    case 'value':
      return arrayTest(column, '@>', [operand.value]);
    case 'day':
      return elementInDay(column, operand.start, operand.end);
  }
}

/**
 * `=v` contains v; `<>v` does not contain v, NULL arrays included
 * (docs/query-language.md, "Negation includes missing values"); `=null` IS NULL.
 */
function compareArray(column: Column, operator: Operator, operand: Operand): Fragment {
  if (operator !== '=' && operator !== '<>') throw new Error(`array field ${column.name} compared with ${operator}`);
  if (operand.kind === 'null') return isNull(column, operator);
  const contains = elementTest(column, operand);
  return operator === '=' ? contains : notTrue(contains);
}

/** Shares an element with the list; a `null` item matches a NULL array, never an empty one. */
function arrayInList(column: Column, items: readonly Operand[]): Fragment {
  const values = items.flatMap((i) => (i.kind === 'value' ? [i.value] : []));
  const overlap = values.length === 0 ? [] : [arrayTest(column, '&&', values)];
  return anyOf([...overlap, ...items.filter((i) => i.kind !== 'value').map((i) => elementTest(column, i))]);
}

// ---- groups ---------------------------------------------------------------------------------

/**
 * How a relation condition is written: `exists (...)` over the related records (related.ts), as
 * text or around the relation's own query, whichever the statement is built with.
 */
export type RelatedSql = (rows: RelatedRows) => Fragment;

const noRelations: RelatedSql = () => {
  throw new Error('a relation condition outside the root scope');
};

function renderCondition(condition: Condition, related: RelatedSql): Fragment {
  switch (condition.kind) {
    case 'compare':
      return condition.column.type === 'array'
        ? compareArray(condition.column, condition.operator, condition.operand)
        : compare(condition.column, condition.operator, condition.operand);
    case 'in':
      return condition.column.type === 'array' ? arrayInList(condition.column, condition.items) : inList(condition.column, condition.items);
    case 'between':
      if (condition.column.type === 'array') throw new Error(`array field ${condition.column.name} in a between`);
      return between(condition.column, condition.min, condition.max);
    case 'search':
      return anyOf(condition.columns.map((column) => searchField(column, condition.pattern)));
    case 'exists':
      return related(condition.related);
    case 'match':
      return matchSql(condition.fullText, condition.text);
    case 'similar':
      return similarSql(condition.column, condition.text, condition.threshold);
  }
}

/**
 * Negation means "does not match", so rows where the field is NULL are included
 * (docs/query-language.md, "Negation includes missing values"); a negated relation condition means
 * "no related record matches".
 */
function renderTerm(term: Term, related: RelatedSql): Fragment {
  const inner = renderCondition(term.condition, related);
  return term.negated ? notTrue(inner) : inner;
}

/** `{anyOf: [[A], [B, NOT C]]}` -> `((A) OR (B AND (C) IS NOT TRUE))`; `related` writes relation conditions. */
export function renderGroup(group: ConditionGroup, related: RelatedSql = noRelations): Fragment {
  return anyOf(
    group.anyOf.map((terms) => {
      const all = join(
        terms.map((t) => renderTerm(t, related)),
        ' AND ',
      );
      return fragment(`(${all.sql})`, all.bindings);
    }),
  );
}
