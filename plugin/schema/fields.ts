// A model's fields: its table's columns under the model's property names, its virtual attributes,
// and the lists of the model's declarations resolved against them
// (docs/configuration.md, "Model declarations").

import type { DatabaseColumn } from './introspect';
import type { KnexNames } from './names';
import { propertyName } from './names';
import { virtualAttributes } from './model-class';
import type { Column, ModelClass } from './types';

/** A table's columns as fields of one model. */
export interface TableFields {
  readonly table: string;
  /** By property name, in table order. */
  readonly columns: ReadonlyMap<string, Column>;
  /** By database column, for the Knex names that relation mappings and `idColumn` use. */
  readonly byColumn: ReadonlyMap<string, Column>;
}

/** `first_name` of `users` -> field `firstName` when the model or Knex maps names. */
export function tableFields(model: ModelClass, table: string, columns: readonly DatabaseColumn[], names: KnexNames): TableFields {
  const byName = new Map<string, Column>();
  const byColumn = new Map<string, Column>();
  for (const db of columns) {
    const field: Column = Object.freeze({ ...db, name: propertyName(model, names.fromDatabase(db.column)), table });
    byName.set(field.name, field);
    byColumn.set(db.column, field);
  }
  return { table, columns: byName, byColumn };
}

/** The model's virtual attributes as fields: projectable when listed, nothing else. */
export function virtualFields(model: ModelClass, table: string): Column[] {
  return virtualAttributes(model).map((name) =>
    Object.freeze({
      name,
      column: '',
      table,
      type: 'virtual' as const,
      nullable: true,
      udt: '',
      orderable: false,
    }),
  );
}

/** The column a Knex name of a mapping (`ownerId`, `user_id`) denotes, or a problem naming `where`. */
export function columnOf(fields: TableFields, knexName: string, names: KnexNames, where: string, problems: string[]): Column | undefined {
  const column = fields.byColumn.get(names.toDatabase(knexName));
  if (column === undefined) problems.push(`${where} names column "${knexName}", which is not a column of table "${fields.table}"`);
  return column;
}

/**
 * The fix for a declared name that is a database column under another property name (the model's
 * `columnNameMappers` or the host's `knexSnakeCaseMappers` renamed it): `created_at` -> `; "created_at"
 * is the column of the field "createdAt": declarations name fields by property name, declare "createdAt"`.
 */
export function propertyHint(name: string, columns: Iterable<Column>): string {
  for (const column of columns) {
    if (column.column === name && column.name !== name) {
      return `; "${name}" is the column of the field "${column.name}": declarations name fields by property name, declare "${column.name}"`;
    }
  }
  return '';
}

/** Resolves a declared list against its universe: `'*'` is `all`, names must belong to `universe`. */
export function resolveList(
  declared: readonly string[],
  all: readonly string[],
  universe: readonly string[],
  describe: (name: string) => string,
  problems: string[],
): readonly string[] {
  if (declared.includes('*')) return all;
  for (const name of declared) if (!universe.includes(name)) problems.push(describe(name));
  return declared.filter((name, i) => universe.includes(name) && declared.indexOf(name) === i);
}

/**
 * A sort, search or filter list (`where`, e.g. `User.getSortableFields()`) resolved against the
 * projectable fields: `'*'` is every projectable field usable that way; a name that is projectable
 * but not usable (a virtual attribute, an unordered type for sort, a field the model's JSON masks:
 * `invisible` says why) or not projectable at all is a problem, the latter worded by `notProjectable`
 * ("is not a projectable field of User").
 */
export function resolveCapability(
  declared: readonly string[],
  projectable: readonly string[],
  columns: ReadonlyMap<string, Column>,
  use: 'sort' | 'condition',
  where: string,
  notProjectable: string,
  invisible: (name: string) => string | undefined,
  problems: string[],
): readonly string[] {
  const usable = projectable.filter((name) => usableFor(columns.get(name), use) && invisible(name) === undefined);
  return resolveList(
    declared,
    usable,
    usable,
    (name) => {
      const why =
        invisible(name) ??
        (projectable.includes(name)
          ? `which ${use === 'sort' ? 'cannot be sorted (its type has no order, or it is virtual)' : 'is a virtual attribute (it can only be projected)'}`
          : `which ${notProjectable}${propertyHint(name, columns.values())}`);
      return `${where} names "${name}", ${why}`;
    },
    problems,
  );
}

/** What a field may be used for besides being shown: virtual attributes never, unordered types not for sort. */
export function usableFor(column: Column | undefined, capability: 'sort' | 'condition'): boolean {
  if (column === undefined || column.type === 'virtual') return false;
  return capability === 'condition' || column.orderable;
}

/**
 * One element of an array field, described as a field of its own so it is checked, compared and
 * shown like a scalar of that type: `tags text[]` -> `{name: 'tags', type: 'text', udt: 'text', ...}`.
 */
export function elementOf(column: Column): Column {
  return Object.freeze({
    name: column.name,
    column: column.column,
    table: column.table,
    type: column.elementType ?? 'other',
    // An element of any array may be NULL.
    nullable: true,
    udt: column.element ?? '',
    udtSchema: column.elementSchema ?? '',
    orderable: column.orderable,
    ...(column.labels === undefined ? {} : { labels: column.labels }),
  });
}
