// Shapes fetched rows into response records: only the requested fields, in output order, values in
// their documented JSON form (docs/query-language.md, "How values come back"), and expansions under
// the relation's name (docs/query-language.md, "Where the related records appear").
// A model that builds its own JSON ($formatJson, virtual attributes) builds each record (docs/configuration.md, "Your models as they are").

import { modelJson as throughModel, type Column, type RelationCatalog, type ScopeCatalog } from '../schema';
import type { Slices } from './slices';
import { formatValue, sentAsRead, type JsonValue } from './values';

export type { JsonValue } from './values';

/** What shaping needs of a scope (validated, or as the plan cache keeps it): its catalog and output fields. */
export interface ShapedScope {
  readonly catalog: ScopeCatalog;
  readonly output: readonly Column[];
  /** The root's counts (`posts_count`, docs/query-language.md, "Counting related records"), shown after the fields. */
  readonly counts?: readonly Column[];
}

export interface ShapedExpansion {
  readonly relation: RelationCatalog;
  readonly scope: ShapedScope;
  /** Expanded in each related record (docs/query-language.md, "Nested expansion"). */
  readonly expansions: readonly ShapedExpansion[];
}

export type JsonRecord = { [key: string]: JsonValue };

type Row = Readonly<Record<string, unknown>>;

/** The model's own JSON of a row: every column read, through `fromJson` and `toJSON()` (docs/configuration.md, "Your models as they are"). */
function modelJson(row: Row, scope: ShapedScope): Readonly<Record<string, unknown>> {
  const properties: Record<string, unknown> = {};
  for (const column of scope.catalog.columns.values()) {
    if (column.type !== 'virtual' && Object.prototype.hasOwnProperty.call(row, column.name)) {
      properties[column.name] = formatValue(column, row[column.name]);
    }
  }
  return throughModel(scope.catalog.modelClass, properties);
}

/** How one field leaves a row: its name, and how its value is reshaped (none when the driver's value is already its JSON form). */
interface FieldShaper {
  readonly name: string;
  readonly column: Column;
  readonly asRead: boolean;
}

/** What shaping a scope's rows needs, worked out once per response rather than once per row. */
interface ScopeShaper {
  readonly scope: ShapedScope;
  readonly fields: readonly FieldShaper[];
  readonly counts: readonly FieldShaper[];
  readonly relations: readonly { readonly name: string; readonly many: boolean; readonly shaper: ScopeShaper }[];
}

// A float read inside a JSON aggregate (apply/aggregated.ts) is `"NaN"` or `"Infinity"` as text, which Number() reads back.
const fieldShapers = (columns: readonly Column[]): FieldShaper[] =>
  columns.map((column) => ({ name: column.name, column, asRead: column.type !== 'float' && sentAsRead(column) }));

function scopeShaper(scope: ShapedScope, expansions: readonly ShapedExpansion[]): ScopeShaper {
  return {
    scope,
    fields: fieldShapers(scope.output),
    counts: fieldShapers(scope.counts ?? []),
    relations: expansions.map(({ relation, scope: related, expansions: nested }) => ({
      name: relation.name,
      many: relation.cardinality === 'many',
      shaper: scopeShaper(related, nested),
    })),
  };
}

function shapeValues(row: Row, fields: readonly FieldShaper[], record: JsonRecord): void {
  for (const { name, column, asRead } of fields) {
    const value = row[name];
    record[name] = value === null || value === undefined ? null : asRead ? (value as JsonValue) : formatValue(column, value);
  }
}

function shapeFields(row: Row, shaper: ScopeShaper, record: JsonRecord): void {
  const { scope } = shaper;
  if (!scope.catalog.viaModel) {
    shapeValues(row, shaper.fields, record);
    return;
  }
  // Only the output fields leave the server; a field the model's JSON leaves out (redacted) stays out.
  const json = modelJson(row, scope);
  for (const column of scope.output) {
    if (column.computed === true) record[column.name] = row[column.name] as JsonValue;
    else if (Object.prototype.hasOwnProperty.call(json, column.name)) record[column.name] = json[column.name] as JsonValue;
  }
}

function shapeOne(row: Row, shaper: ScopeShaper): JsonRecord {
  const record: JsonRecord = {};
  shapeFields(row, shaper, record);
  // The scope's counts (`posts_count`), after its fields and before its expansions (docs/query-language.md, "Counting related records").
  shapeValues(row, shaper.counts, record);
  for (const { name, many, shaper: related } of shaper.relations) {
    const value = row[name];
    if (many) {
      record[name] = Array.isArray(value) ? value.map((r: Row) => shapeOne(r, related)) : [];
    } else {
      record[name] = value === null || value === undefined || typeof value !== 'object' ? null : shapeOne(value as Row, related);
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
  const shaper = scopeShaper(scope, expansions);
  return rows.map((row) => shapeOne(row, shaper));
}

/**
 * `shapeRecords`, giving way to other requests whenever a slice has run its time (between two root
 * records, each with its expansions); the same records.
 */
export async function shapeRecordsInSlices(
  rows: readonly Row[],
  scope: ShapedScope,
  expansions: readonly ShapedExpansion[],
  slices: Slices,
): Promise<JsonRecord[]> {
  if (rowsAreRecords(scope, expansions)) return rows as JsonRecord[];
  const shaper = scopeShaper(scope, expansions);
  const records: JsonRecord[] = new Array<JsonRecord>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    records[i] = shapeOne(rows[i] as Row, shaper);
    if (slices.due()) await slices.next();
  }
  return records;
}
