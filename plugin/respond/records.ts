// Shapes fetched rows into response records: only the requested fields, in output order, values in
// their documented JSON form (decisions.md 13, 35), and expansions under the relation's name (22, 24).
// A model that builds its own JSON ($formatJson, virtual attributes) builds each record (34).

import type { Column, RelationCatalog, ScopeCatalog } from '../schema';
import { formatValue, sentAsRead, type JsonValue } from './values';

export type { JsonValue } from './values';

/** What shaping needs of a scope (validated, or as the plan cache keeps it): its catalog and output fields. */
export interface ShapedScope {
  readonly catalog: ScopeCatalog;
  readonly output: readonly Column[];
  /** The root's counts (`posts_count`, decisions.md 39), shown after the fields. */
  readonly counts?: readonly Column[];
}

export interface ShapedExpansion {
  readonly relation: RelationCatalog;
  readonly scope: ShapedScope;
  /** Expanded in each related record (decisions.md 40). */
  readonly expansions: readonly ShapedExpansion[];
}

export type JsonRecord = { [key: string]: JsonValue };

type Row = Readonly<Record<string, unknown>>;

/** The model's own JSON of a row: every column read, through `fromJson` and `toJSON()` (decisions.md 34). */
function modelJson(row: Row, scope: ShapedScope): Readonly<Record<string, unknown>> {
  const properties: Record<string, unknown> = {};
  for (const column of scope.catalog.columns.values()) {
    if (column.type !== 'virtual' && Object.prototype.hasOwnProperty.call(row, column.name)) {
      properties[column.name] = formatValue(column, row[column.name]);
    }
  }
  const json: unknown = scope.catalog.modelClass.fromJson(properties, { skipValidation: true }).toJSON();
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
}

function shapeFields(row: Row, scope: ShapedScope, record: JsonRecord): void {
  if (!scope.catalog.viaModel) {
    for (const column of scope.output) record[column.name] = formatValue(column, row[column.name]);
    return;
  }
  // Only the output fields leave the server; a field the model's JSON leaves out (redacted) stays out.
  const json = modelJson(row, scope);
  for (const column of scope.output) {
    if (Object.prototype.hasOwnProperty.call(json, column.name)) record[column.name] = json[column.name] as JsonValue;
  }
}

/** The scope's counts (`posts_count`), after its fields and before its expansions (decisions.md 39). */
function shapeCounts(row: Row, scope: ShapedScope, record: JsonRecord): void {
  for (const column of scope.counts ?? []) record[column.name] = formatValue(column, row[column.name]);
}

function shapeOne(row: Row, scope: ShapedScope, expansions: readonly ShapedExpansion[]): JsonRecord {
  const record: JsonRecord = {};
  shapeFields(row, scope, record);
  shapeCounts(row, scope, record);
  for (const { relation, scope: related, expansions: nested } of expansions) {
    const value = row[relation.name];
    if (relation.cardinality === 'many') {
      record[relation.name] = Array.isArray(value) ? value.map((r: Row) => shapeOne(r, related, nested)) : [];
    } else {
      record[relation.name] =
        value === null || value === undefined || typeof value !== 'object' ? null : shapeOne(value as Row, related, nested);
    }
  }
  return record;
}

/**
 * Without expansions a row holds exactly the output columns and then the counts, in that order (the
 * select list), and
 * both drivers return most types in their JSON form already (numbers, booleans, parsed json and
 * arrays, and text for what the select list casts); such rows are sent as they are, not copied.
 */
function rowsAreRecords(scope: ShapedScope, expansions: readonly ShapedExpansion[]): boolean {
  return expansions.length === 0 && !scope.catalog.viaModel && scope.output.every(sentAsRead);
}

/** Rows of `users` with `fields=name&expand[posts]=p` -> `[{name, posts: [...]}, ...]`. */
export function shapeRecords(rows: readonly Row[], scope: ShapedScope, expansions: readonly ShapedExpansion[]): JsonRecord[] {
  if (rowsAreRecords(scope, expansions)) return rows as JsonRecord[];
  return rows.map((row) => shapeOne(row, scope, expansions));
}
