// Renders validated conditions and output columns as SQL fragments in knex's raw form. Identifiers
// come only from the catalog and are quoted here; every client value is a `?` binding (house
// SQL-safety rule).

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

/**
 * `user"s` -> `"user""s"`. A `?` is escaped as `\?`, which knex turns back into `?` instead of
 * reading it as a placeholder.
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""').replace(/\?/g, '\\?')}"`;
}

/** `public.users` -> `"public"."users"` (a dotted table name is schema-qualified, as knex reads it). */
export function quoteTable(table: string): string {
  return table.split('.').map(quoteIdentifier).join('.');
}

/** `"users"."name"`: qualified by its table, so ORDER BY never picks an output alias. */
export function qualified(table: string, column: string): string {
  return `${quoteTable(table)}.${quoteIdentifier(column)}`;
}

/** `"users"."first_name"`: a field's column, qualified by the table that holds it. */
export function columnSql(column: Column): string {
  return qualified(column.table, column.column);
}

/** Compared through its text form when the type has no useful comparison of its own. */
export function columnRef(column: Column): string {
  const castToText = column.type === 'json' || column.type === 'other';
  return castToText ? `${columnSql(column)}::text` : columnSql(column);
}

const relational = { '=': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=', '<>': 'IS DISTINCT FROM' } as const;

/** `<= 2025-04-17` as a day -> `< 2025-04-18T00:00:00Z` (decisions.md 12). */
function compareDay(ref: string, operator: keyof typeof relational, start: string, end: string): Fragment {
  const within = fragment(`(${ref} >= ? AND ${ref} < ?)`, [start, end]);
  switch (operator) {
    case '=': return within;
    case '<>': return fragment(`(${within.sql} IS NOT TRUE)`, within.bindings);
    case '>': return fragment(`${ref} >= ?`, [end]);
    case '>=': return fragment(`${ref} >= ?`, [start]);
    case '<': return fragment(`${ref} < ?`, [start]);
    case '<=': return fragment(`${ref} < ?`, [end]);
  }
}

function compare(ref: string, operator: keyof typeof relational, operand: Operand): Fragment {
  switch (operand.kind) {
    case 'null':
      return fragment(`${ref} ${operator === '=' ? 'IS NULL' : 'IS NOT NULL'}`);
    case 'value':
      return fragment(`${ref} ${relational[operator]} ?`, [operand.value]);
    case 'day':
      return compareDay(ref, operator, operand.start, operand.end);
  }
}

/** Both bounds inclusive; a date-only upper bound runs to the end of that day (decisions.md 12). */
function between(ref: string, min: Operand, max: Operand): Fragment {
  const both = join([compare(ref, '>=', min), compare(ref, '<=', max)], ' AND ');
  return fragment(`(${both.sql})`, both.bindings);
}

function renderCondition(condition: Condition): Fragment {
  switch (condition.kind) {
    case 'compare':
      return compare(columnRef(condition.column), condition.operator, condition.operand);
    case 'in': {
      const ref = columnRef(condition.column);
      const values = condition.items.flatMap((i) => (i.kind === 'value' ? [i.value] : []));
      const others = condition.items.filter((i) => i.kind !== 'value').map((i) => compare(ref, '=', i));
      const list = values.length === 0 ? [] : [fragment(`${ref} IN (${values.map(() => '?').join(', ')})`, values)];
      const any = join([...list, ...others], ' OR ');
      return fragment(`(${any.sql})`, any.bindings);
    }
    case 'between':
      return between(columnRef(condition.column), condition.min, condition.max);
    case 'search': {
      const parts = condition.columns.map((column) => {
        const ref = columnSql(column);
        return fragment(`${column.type === 'text' ? ref : `${ref}::text`} ILIKE ?`, [condition.pattern]);
      });
      const any = join(parts, ' OR ');
      return fragment(`(${any.sql})`, any.bindings);
    }
  }
}

/** Negation means "does not match", so rows where the field is NULL are included (decisions.md 17). */
function renderTerm(term: Term): Fragment {
  const inner = renderCondition(term.condition);
  return term.negated ? fragment(`(${inner.sql}) IS NOT TRUE`, inner.bindings) : inner;
}

/** `{anyOf: [[A], [B, NOT C]]}` -> `((A) OR (B AND (C) IS NOT TRUE))`. */
export function renderGroup(group: ConditionGroup): Fragment {
  const alternatives = group.anyOf.map((terms) => {
    const all = join(terms.map((t) => renderTerm(t)), ' AND ');
    return fragment(`(${all.sql})`, all.bindings);
  });
  const any = join(alternatives, ' OR ');
  return fragment(`(${any.sql})`, any.bindings);
}

const timestampFormat = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * A select-list entry: the plain column, or an expression that keeps full precision and reads the
 * same on every driver (decisions.md 13), named after the field (its property name).
 */
export function selectColumn(column: Column): string {
  const ref = columnSql(column);
  const as = quoteIdentifier(column.name);
  switch (column.type) {
    case 'timestamptz':
      return `to_char(${ref} AT TIME ZONE 'UTC', ${timestampFormat}) AS ${as}`;
    case 'timestamp':
      return `to_char(${ref}, ${timestampFormat}) AS ${as}`;
    case 'date':
      return `to_char(${ref}, 'YYYY-MM-DD') AS ${as}`;
    case 'bigint':
    case 'numeric':
    case 'other':
      return `${ref}::text AS ${as}`;
    case 'smallint':
    case 'integer':
    case 'float':
    case 'text':
    case 'boolean':
    case 'uuid':
    case 'json':
      return column.column === column.name ? ref : `${ref} AS ${as}`;
    case 'virtual':
      // Computed by the model from the other fields (decisions.md 34); never read from the table.
      return `null AS ${as}`;
  }
}
