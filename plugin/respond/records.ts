// Shapes fetched rows into response records: only the requested fields, in output order, values in
// their documented JSON form (decisions.md 13), and expansions under the relation's name (22, 24).
// A model that builds its own JSON ($formatJson, virtual attributes) builds each record (34).

import type { Column } from '../schema';
import type { ValidatedExpansion, ValidatedScope } from '../validate';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonRecord = { [key: string]: JsonValue };

type Row = Readonly<Record<string, unknown>>;

/** `'9007199254740993'` (bigint) stays text; `'42'` becomes 42. */
function formatValue(column: Column, value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'smallint':
    case 'integer':
    case 'float':
      return Number(value);
    case 'bigint': {
      const n = Number(value);
      return Number.isSafeInteger(n) ? n : String(value);
    }
    case 'boolean':
      return Boolean(value);
    case 'json':
    case 'virtual':
      return value as JsonValue;
    case 'numeric':
    case 'text':
    case 'uuid':
    case 'timestamptz':
    case 'timestamp':
    case 'date':
    case 'other':
      return String(value);
  }
}

/** The model's own JSON of a row: every column read, through `fromJson` and `toJSON()` (decisions.md 34). */
function modelJson(row: Row, scope: ValidatedScope): Readonly<Record<string, unknown>> {
  const properties: Record<string, unknown> = {};
  for (const column of scope.catalog.columns.values()) {
    if (column.type !== 'virtual' && Object.prototype.hasOwnProperty.call(row, column.name)) {
      properties[column.name] = formatValue(column, row[column.name]);
    }
  }
  const json: unknown = scope.catalog.modelClass.fromJson(properties, { skipValidation: true }).toJSON();
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
}

function shapeFields(row: Row, scope: ValidatedScope, record: JsonRecord): void {
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

function shapeOne(row: Row, scope: ValidatedScope, expansions: readonly ValidatedExpansion[]): JsonRecord {
  const record: JsonRecord = {};
  shapeFields(row, scope, record);
  for (const { relation, scope: related } of expansions) {
    const value = row[relation.name];
    if (relation.cardinality === 'many') {
      record[relation.name] = Array.isArray(value) ? value.map((r: Row) => shapeOne(r, related, [])) : [];
    } else {
      record[relation.name] = value === null || value === undefined || typeof value !== 'object'
        ? null
        : shapeOne(value as Row, related, []);
    }
  }
  return record;
}

/**
 * Without expansions a row holds exactly the output columns, in output order (the select list), and
 * both drivers return every type but bigint in its JSON form already (numbers, booleans, parsed
 * json, and text for what the select list casts); such rows are sent as they are, not copied.
 */
function rowsAreRecords(scope: ValidatedScope, expansions: readonly ValidatedExpansion[]): boolean {
  return expansions.length === 0 && !scope.catalog.viaModel && scope.output.every((column) => column.type !== 'bigint');
}

/** Rows of `users` with `fields=name&expand[posts]=p` -> `[{name, posts: [...]}, ...]`. */
export function shapeRecords(rows: readonly Row[], scope: ValidatedScope, expansions: readonly ValidatedExpansion[]): JsonRecord[] {
  if (rowsAreRecords(scope, expansions)) return rows as JsonRecord[];
  return rows.map((row) => shapeOne(row, scope, expansions));
}
