// The reference evaluator's own picture of the fixture: every table's rows read with plain SQL as
// PostgreSQL's text forms, and the collections, capabilities and relations written down from
// test/support/fixture.ts and decisions.md 5-7, 23 (nothing here comes from plugin/).

import { Knex } from 'knex';
import { POST_FIELDS, USER_FIELDS } from '../support/fixture';

export type FieldType = 'integer' | 'bigint' | 'numeric' | 'text' | 'boolean' | 'date' | 'timestamptz';

/** One stored row: column name -> PostgreSQL text form (`col::text`), or null. */
export type StoredRow = Readonly<Record<string, string | null>>;

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable: boolean;
}

/** What a client may do in one scope: the root of a collection, or one expanded relation. */
export interface ScopeSpec {
  readonly table: string;
  /** Projectable fields in declaration order (the output order without `fields`). */
  readonly fields: readonly FieldSpec[];
  readonly sortable: readonly string[];
  readonly searchable: readonly string[];
  readonly filterable: readonly string[];
}

export interface RelationSpec {
  readonly name: string;
  readonly cardinality: 'one' | 'many';
  readonly scope: ScopeSpec;
  /** The related rows of one parent row, in no particular order. */
  related(parent: StoredRow, data: Dataset): readonly StoredRow[];
}

export interface CollectionSpec extends ScopeSpec {
  readonly name: string;
  readonly relations: readonly RelationSpec[];
}

export interface Dataset {
  readonly rows: ReadonlyMap<string, readonly StoredRow[]>;
  readonly types: ReadonlyMap<string, ReadonlyMap<string, FieldType>>;
  readonly collections: ReadonlyMap<string, CollectionSpec>;
}

const TABLES = ['users', 'posts', 'phones', 'roles', 'role_user'] as const;

const PG_TYPES: Readonly<Record<string, FieldType>> = {
  smallint: 'integer',
  integer: 'integer',
  bigint: 'bigint',
  numeric: 'numeric',
  text: 'text',
  boolean: 'boolean',
  date: 'date',
  'timestamp with time zone': 'timestamptz',
};

interface ColumnInfo {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable: boolean;
}

async function readColumns(knex: Knex, table: string): Promise<ColumnInfo[]> {
  const result = await knex.raw(
    `select column_name, data_type, is_nullable from information_schema.columns
      where table_schema = current_schema() and table_name = ? order by ordinal_position`, [table]);
  const rows = (result as { rows: { column_name: string; data_type: string; is_nullable: string }[] }).rows;
  return rows.map((r) => {
    const type = PG_TYPES[r.data_type];
    if (!type) throw new Error(`reference model: column ${table}.${r.column_name} has unexpected type ${r.data_type}`);
    return { name: r.column_name, type, nullable: r.is_nullable === 'YES' };
  });
}

/** `select "a"::text as "a", ...`: every value in PostgreSQL's own text form, no driver parsing. */
async function readRows(knex: Knex, table: string, columns: readonly ColumnInfo[]): Promise<StoredRow[]> {
  const list = columns.map((c) => `"${c.name}"::text as "${c.name}"`).join(', ');
  const result = await knex.raw(`select ${list} from "${table}"`);
  return (result as { rows: Record<string, string | null>[] }).rows.map((r) => Object.freeze({ ...r }));
}

function pick(types: ReadonlyMap<string, FieldType>, table: string, names: readonly string[], nullable: ReadonlySet<string>): FieldSpec[] {
  return names.map((name) => {
    const type = types.get(name);
    if (!type) throw new Error(`reference model: ${table}.${name} is not a column`);
    return { name, type, nullable: nullable.has(name) };
  });
}

function where(data: Dataset, table: string, test: (row: StoredRow) => boolean): StoredRow[] {
  return (data.rows.get(table) ?? []).filter(test);
}

/** Loads the fixture tables once and describes the collections the fixture app serves. */
export async function loadDataset(knex: Knex): Promise<Dataset> {
  const rows = new Map<string, readonly StoredRow[]>();
  const types = new Map<string, ReadonlyMap<string, FieldType>>();
  const nullables = new Map<string, ReadonlySet<string>>();
  for (const table of TABLES) {
    const columns = await readColumns(knex, table);
    rows.set(table, await readRows(knex, table, columns));
    types.set(table, new Map(columns.map((c) => [c.name, c.type])));
    nullables.set(table, new Set(columns.filter((c) => c.nullable).map((c) => c.name)));
  }
  const fieldsOf = (table: string, names: readonly string[]): FieldSpec[] =>
    pick(types.get(table) ?? new Map(), table, names, nullables.get(table) ?? new Set());
  const allColumns = (table: string): string[] => [...(types.get(table) ?? new Map()).keys()];

  const userFields = fieldsOf('users', USER_FIELDS);
  const postFields = fieldsOf('posts', POST_FIELDS);
  const roleFields = fieldsOf('roles', allColumns('roles'));
  const names = (fields: readonly FieldSpec[]): string[] => fields.map((f) => f.name);

  // Relation options: an absent list allows nothing, except projection ('*'); '*' = the related
  // model's projectable fields (decision 23, contract "Model declarations").
  const userRelations: RelationSpec[] = [
    {
      name: 'posts',
      cardinality: 'many',
      scope: { table: 'posts', fields: postFields, sortable: names(postFields), searchable: ['title'], filterable: names(postFields) },
      related: (parent, data) => where(data, 'posts', (p) => p.user_id === parent.id),
    },
    {
      name: 'phone',
      cardinality: 'one',
      scope: { table: 'phones', fields: fieldsOf('phones', ['id', 'number']), sortable: [], searchable: [], filterable: [] },
      related: (parent, data) => where(data, 'phones', (p) => p.user_id === parent.id),
    },
    {
      name: 'roles',
      cardinality: 'many',
      scope: { table: 'roles', fields: roleFields, sortable: ['name', 'level'], searchable: ['name'], filterable: names(roleFields) },
      related: (parent, data) => {
        const ids = new Set(where(data, 'role_user', (ru) => ru.user_id === parent.id).map((ru) => ru.role_id));
        return where(data, 'roles', (r) => ids.has(r.id));
      },
    },
  ];
  const postRelations: RelationSpec[] = [
    {
      name: 'author',
      cardinality: 'one',
      scope: { table: 'users', fields: userFields, sortable: [], searchable: [], filterable: ['status'] },
      related: (parent, data) => where(data, 'users', (u) => u.id === parent.user_id),
    },
  ];
  const collections = new Map<string, CollectionSpec>([
    ['users', { name: 'users', table: 'users', fields: userFields, sortable: names(userFields), searchable: names(userFields), filterable: names(userFields), relations: userRelations }],
    ['posts', { name: 'posts', table: 'posts', fields: postFields, sortable: ['id', 'title', 'created_at'], searchable: ['title'], filterable: names(postFields), relations: postRelations }],
    ['roles', { name: 'roles', table: 'roles', fields: roleFields, sortable: names(roleFields), searchable: names(roleFields), filterable: names(roleFields), relations: [] }],
  ]);
  return { rows, types, collections };
}

/** The field spec of `name` in `scope` (the generator only names fields that exist). */
export function fieldOf(scope: ScopeSpec, name: string): FieldSpec {
  const field = scope.fields.find((f) => f.name === name);
  if (field) return field;
  throw new Error(`reference model: ${scope.table} has no projectable field ${name}`);
}

/**
 * Whether text compares byte by byte in this database, as the reference does: true for the C and
 * C.UTF-8 collations (PGlite and the CI server). Under any other collation the generator leaves out
 * every text ordering (sort, <, >, between on text), since the order would then be the locale's.
 */
export async function textInByteOrder(knex: Knex): Promise<{ collation: string; byteOrder: boolean }> {
  const result = await knex.raw('select datcollate from pg_database where datname = current_database()');
  const collation = String((result as { rows: { datcollate: unknown }[] }).rows[0]?.datcollate ?? '');
  return { collation, byteOrder: /^(C|POSIX|C\.UTF-?8)$/i.test(collation) };
}
