// Renders validated conditions and output columns as SQL fragments. Identifiers come only from the
// catalog and go through knex's `??`; every client value is a `?` binding (house SQL-safety rule).

import type { Column } from '../schema';
import type { BoundValue, Condition, ConditionGroup, Operand, Term } from '../validate';

export interface Fragment {
  readonly sql: string;
  readonly bindings: readonly (string | number | boolean)[];
}

const fragment = (sql: string, bindings: readonly BoundValue[] = []): Fragment => ({ sql, bindings });

function join(parts: readonly Fragment[], separator: string): Fragment {
  return fragment(parts.map((p) => p.sql).join(separator), parts.flatMap((p) => p.bindings));
}

/** A column reference qualified by its table, so ORDER BY never picks an output alias. */
export function columnRef(table: string, column: Column): Fragment {
  const castToText = column.type === 'json' || column.type === 'other';
  return fragment(castToText ? '??::text' : '??', [`${table}.${column.name}`]);
}

const relational = { '=': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=', '<>': 'IS DISTINCT FROM' } as const;

/** `<= 2025-04-17` as a day -> `< 2025-04-18T00:00:00Z` (decisions.md 12). */
function compareDay(ref: Fragment, operator: keyof typeof relational, start: string, end: string): Fragment {
  const within = fragment(`(${ref.sql} >= ? AND ${ref.sql} < ?)`, [...ref.bindings, start, ...ref.bindings, end]);
  switch (operator) {
    case '=': return within;
    case '<>': return fragment(`(${within.sql} IS NOT TRUE)`, within.bindings);
    case '>': return fragment(`${ref.sql} >= ?`, [...ref.bindings, end]);
    case '>=': return fragment(`${ref.sql} >= ?`, [...ref.bindings, start]);
    case '<': return fragment(`${ref.sql} < ?`, [...ref.bindings, start]);
    case '<=': return fragment(`${ref.sql} < ?`, [...ref.bindings, end]);
  }
}

function compare(ref: Fragment, operator: keyof typeof relational, operand: Operand): Fragment {
  switch (operand.kind) {
    case 'null':
      return fragment(`${ref.sql} ${operator === '=' ? 'IS NULL' : 'IS NOT NULL'}`, ref.bindings);
    case 'value':
      return fragment(`${ref.sql} ${relational[operator]} ?`, [...ref.bindings, operand.value]);
    case 'day':
      return compareDay(ref, operator, operand.start, operand.end);
  }
}

/** Both bounds inclusive; a date-only upper bound runs to the end of that day (decisions.md 12). */
function between(ref: Fragment, min: Operand, max: Operand): Fragment {
  const both = join([compare(ref, '>=', min), compare(ref, '<=', max)], ' AND ');
  return fragment(`(${both.sql})`, both.bindings);
}

function renderCondition(table: string, condition: Condition): Fragment {
  switch (condition.kind) {
    case 'compare':
      return compare(columnRef(table, condition.column), condition.operator, condition.operand);
    case 'in': {
      const ref = columnRef(table, condition.column);
      const values = condition.items.flatMap((i) => (i.kind === 'value' ? [i.value] : []));
      const others = condition.items.filter((i) => i.kind !== 'value').map((i) => compare(ref, '=', i));
      const list = values.length === 0 ? [] : [fragment(`${ref.sql} IN (${values.map(() => '?').join(', ')})`, [...ref.bindings, ...values])];
      const any = join([...list, ...others], ' OR ');
      return fragment(`(${any.sql})`, any.bindings);
    }
    case 'between':
      return between(columnRef(table, condition.column), condition.min, condition.max);
    case 'search': {
      const parts = condition.columns.map((column) => {
        const text = column.type === 'text' ? '??' : '??::text';
        return fragment(`${text} ILIKE ?`, [`${table}.${column.name}`, condition.pattern]);
      });
      const any = join(parts, ' OR ');
      return fragment(`(${any.sql})`, any.bindings);
    }
  }
}

/** Negation means "does not match", so rows where the field is NULL are included (decisions.md 17). */
function renderTerm(table: string, term: Term): Fragment {
  const inner = renderCondition(table, term.condition);
  return term.negated ? fragment(`(${inner.sql}) IS NOT TRUE`, inner.bindings) : inner;
}

/** `{anyOf: [[A], [B, NOT C]]}` -> `((A) OR (B AND (C) IS NOT TRUE))`. */
export function renderGroup(table: string, group: ConditionGroup): Fragment {
  const alternatives = group.anyOf.map((terms) => {
    const all = join(terms.map((t) => renderTerm(table, t)), ' AND ');
    return fragment(`(${all.sql})`, all.bindings);
  });
  const any = join(alternatives, ' OR ');
  return fragment(`(${any.sql})`, any.bindings);
}

const timestampFormat = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * Output expressions that keep full precision and read the same on every driver (decisions.md 13).
 * `undefined` means a plain column reference: Objection must see those as such, or it selects join
 * keys a second time and then strips them from the result.
 */
export function selectColumn(table: string, column: Column): Fragment | undefined {
  const ref = `${table}.${column.name}`;
  switch (column.type) {
    case 'timestamptz':
      return fragment(`to_char(?? AT TIME ZONE 'UTC', ${timestampFormat}) AS ??`, [ref, column.name]);
    case 'timestamp':
      return fragment(`to_char(??, ${timestampFormat}) AS ??`, [ref, column.name]);
    case 'date':
      return fragment(`to_char(??, 'YYYY-MM-DD') AS ??`, [ref, column.name]);
    case 'bigint':
    case 'numeric':
    case 'other':
      return fragment('??::text AS ??', [ref, column.name]);
    case 'smallint':
    case 'integer':
    case 'float':
    case 'text':
    case 'boolean':
    case 'uuid':
    case 'json':
      return undefined;
  }
}
