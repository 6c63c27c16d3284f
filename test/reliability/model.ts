// The reference evaluator's own picture of the fixture: every table's rows read with plain SQL as
// PostgreSQL's text forms, and the collections, capabilities and relations (nested ones too, as
// each related model declares them) written down from test/support/fixture.ts and
// docs/configuration.md, "Model declarations" (nothing here comes from plugin/).

import { Knex } from 'knex';
import { COMMENT_AUTHOR_FIELDS, POST_FIELDS, USER_FIELDS } from '../support/fixture';

export type ScalarType = 'integer' | 'bigint' | 'numeric' | 'text' | 'boolean' | 'date' | 'timestamptz';
/** An enum (`labels`) or an array (of `element`) besides the scalars. */
export type FieldType = ScalarType | 'enum' | 'array';

/** One stored row: column name -> PostgreSQL text form (`col::text`), or null. */
export type StoredRow = Readonly<Record<string, string | null>>;

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable: boolean;
  /** An enum's labels in declared order. */
  readonly labels?: readonly string[];
  /** An array's element type. */
  readonly element?: ScalarType;
}

/** What a client may do in one scope: the root of a collection, or one expanded relation. */
export interface ScopeSpec {
  readonly table: string;
  /** Projectable fields in declaration order (the output order without `fields`). */
  readonly fields: readonly FieldSpec[];
  readonly sortable: readonly string[];
  readonly searchable: readonly string[];
  readonly filterable: readonly string[];
  /** Columns the model's own JSON removes (docs/configuration.md, "What your model's JSON hides or masks"): in no list, never named. */
  readonly hidden?: readonly string[];
  /**
   * Fields the model's own JSON masks, with what it shows for a stored text
   * (docs/configuration.md, "What your model's JSON hides or masks").
   */
  readonly masks?: ReadonlyMap<string, (value: string) => string>;
}

export interface RelationSpec {
  readonly name: string;
  readonly cardinality: 'one' | 'many';
  readonly scope: ScopeSpec;
  /** The related rows of one parent row, in no particular order. */
  related(parent: StoredRow, data: Dataset): readonly StoredRow[];
  /** The related model's own expandable relations (docs/query-language.md, "Nested expansion"); a cycle of models is a cycle here. */
  readonly relations: readonly RelationSpec[];
}

export interface CollectionSpec extends ScopeSpec {
  readonly name: string;
  readonly relations: readonly RelationSpec[];
}

export interface Dataset {
  readonly rows: ReadonlyMap<string, readonly StoredRow[]>;
  readonly types: ReadonlyMap<string, ReadonlyMap<string, FieldSpec>>;
  readonly collections: ReadonlyMap<string, CollectionSpec>;
}

const TABLES = ['users', 'posts', 'comments', 'phones', 'roles', 'role_user'] as const;

const PG_TYPES: Readonly<Record<string, ScalarType>> = {
  smallint: 'integer',
  integer: 'integer',
  bigint: 'bigint',
  numeric: 'numeric',
  text: 'text',
  boolean: 'boolean',
  date: 'date',
  'timestamp with time zone': 'timestamptz',
};

/** Element types of the arrays the fixture may hold, by PostgreSQL's array type name. */
const PG_ARRAYS: Readonly<Record<string, ScalarType>> = { _text: 'text', _int4: 'integer' };

async function enumLabels(knex: Knex, type: string): Promise<string[]> {
  const result: unknown = await knex.raw(
    `select l.enumlabel::text as "label" from pg_enum l join pg_type t on t.oid = l.enumtypid
    where t.typname = ? order by l.enumsortorder`,
    [type],
  );
  return (result as { rows: { label: string }[] }).rows.map((r) => r.label);
}

async function readColumns(knex: Knex, table: string): Promise<FieldSpec[]> {
  const result: unknown = await knex.raw(
    `select column_name, data_type, udt_name, is_nullable from information_schema.columns
      where table_schema = current_schema() and table_name = ? order by ordinal_position`,
    [table],
  );
  const rows = (result as { rows: { column_name: string; data_type: string; udt_name: string; is_nullable: string }[] }).rows;
  const columns: FieldSpec[] = [];
  for (const r of rows) {
    const base = { name: r.column_name, nullable: r.is_nullable === 'YES' };
    const scalar = PG_TYPES[r.data_type];
    const element = PG_ARRAYS[r.udt_name];
    if (scalar) columns.push({ ...base, type: scalar });
    else if (r.data_type === 'ARRAY' && element) columns.push({ ...base, type: 'array', element });
    else if (r.data_type === 'USER-DEFINED') columns.push({ ...base, type: 'enum', labels: await enumLabels(knex, r.udt_name) });
    else throw new Error(`reference model: column ${table}.${r.column_name} has unexpected type ${r.data_type} ${r.udt_name}`);
  }
  return columns;
}

/** `select "a"::text as "a", ...`: every value in PostgreSQL's own text form, no driver parsing. */
async function readRows(knex: Knex, table: string, columns: readonly FieldSpec[]): Promise<StoredRow[]> {
  const list = columns.map((c) => `"${c.name}"::text as "${c.name}"`).join(', ');
  const result: unknown = await knex.raw(`select ${list} from "${table}"`);
  return (result as { rows: Record<string, string | null>[] }).rows.map((r) => Object.freeze({ ...r }));
}

function pick(types: ReadonlyMap<string, FieldSpec>, table: string, names: readonly string[]): FieldSpec[] {
  return names.map((name) => {
    const column = types.get(name);
    if (!column) throw new Error(`reference model: ${table}.${name} is not a column`);
    return column;
  });
}

function where(data: Dataset, table: string, test: (row: StoredRow) => boolean): StoredRow[] {
  return (data.rows.get(table) ?? []).filter(test);
}

/**
 * Loads the fixture tables once and describes the collections the fixture app serves; `userFields`
 * are the projectable fields of the `users` collection (the typed-columns variant adds three), and
 * `relationSorts` the sortable fields of the to-one relations (the typed-columns variant's).
 */
export async function loadDataset(
  knex: Knex,
  userFieldNames: readonly string[] = USER_FIELDS,
  relationSorts: { readonly phone: readonly string[]; readonly author: readonly string[] } = { phone: [], author: [] },
): Promise<Dataset> {
  const rows = new Map<string, readonly StoredRow[]>();
  const types = new Map<string, ReadonlyMap<string, FieldSpec>>();
  for (const table of TABLES) {
    const columns = await readColumns(knex, table);
    rows.set(table, await readRows(knex, table, columns));
    types.set(table, new Map(columns.map((c) => [c.name, c])));
  }
  const fieldsOf = (table: string, names: readonly string[]): FieldSpec[] => pick(types.get(table) ?? new Map(), table, names);
  const allColumns = (table: string): string[] => [...(types.get(table) ?? new Map<string, FieldSpec>()).keys()];

  const userFields = fieldsOf('users', userFieldNames);
  // The author of a post is the fixture's own User, whatever the collection projects.
  const authorFields = fieldsOf('users', USER_FIELDS);
  const postFields = fieldsOf('posts', POST_FIELDS);
  const roleFields = fieldsOf('roles', allColumns('roles'));
  const names = (fields: readonly FieldSpec[]): string[] => fields.map((f) => f.name);

  // Relation options: an absent list allows nothing, except projection ('*'); '*' = the related
  // model's projectable fields (docs/configuration.md, "Expandable relations"). The lists are the
  // fixture User's, Post's and Comment's own, filled in after creation since they refer to each other.
  const commentFields = fieldsOf('comments', allColumns('comments'));
  const userRelations: RelationSpec[] = [];
  const postRelations: RelationSpec[] = [];
  const commentRelations: RelationSpec[] = [];
  userRelations.push(
    {
      name: 'posts',
      cardinality: 'many',
      scope: { table: 'posts', fields: postFields, sortable: names(postFields), searchable: ['title'], filterable: names(postFields) },
      related: (parent, data) => where(data, 'posts', (p) => p.user_id === parent.id),
      relations: postRelations,
    },
    {
      name: 'phone',
      cardinality: 'one',
      scope: { table: 'phones', fields: fieldsOf('phones', ['id', 'number']), sortable: [], searchable: [], filterable: [] },
      related: (parent, data) => where(data, 'phones', (p) => p.user_id === parent.id),
      relations: [],
    },
    {
      name: 'roles',
      cardinality: 'many',
      scope: { table: 'roles', fields: roleFields, sortable: ['name', 'level'], searchable: ['name'], filterable: names(roleFields) },
      related: (parent, data) => {
        const ids = new Set(where(data, 'role_user', (ru) => ru.user_id === parent.id).map((ru) => ru.role_id));
        return where(data, 'roles', (r) => ids.has(r.id));
      },
      // Role declares no expandable relations.
      relations: [],
    },
  );
  postRelations.push(
    {
      name: 'author',
      cardinality: 'one',
      scope: { table: 'users', fields: authorFields, sortable: [], searchable: [], filterable: ['status'] },
      related: (parent, data) => where(data, 'users', (u) => u.id === parent.user_id),
      relations: userRelations,
    },
    {
      name: 'comments',
      cardinality: 'many',
      scope: {
        table: 'comments',
        fields: commentFields,
        sortable: names(commentFields),
        searchable: ['body'],
        filterable: names(commentFields),
      },
      related: (parent, data) => where(data, 'comments', (c) => c.post_id === parent.id),
      relations: commentRelations,
    },
  );
  commentRelations.push({
    name: 'author',
    cardinality: 'one',
    scope: { table: 'users', fields: fieldsOf('users', COMMENT_AUTHOR_FIELDS), sortable: ['name'], searchable: [], filterable: ['status'] },
    related: (parent, data) => where(data, 'users', (u) => u.id === parent.author_id),
    relations: userRelations,
  });
  // The collections' own models (the typed-columns variant's) make their to-one relations sortable;
  // the models reached through a relation are the fixture's, whose relations are not.
  const sortableAt = (relations: readonly RelationSpec[], name: string, sortable: readonly string[]): RelationSpec[] =>
    relations.map((r) => (r.name === name ? { ...r, scope: { ...r.scope, sortable } } : r));
  const collections = new Map<string, CollectionSpec>([
    [
      'users',
      {
        name: 'users',
        table: 'users',
        fields: userFields,
        sortable: names(userFields),
        searchable: names(userFields),
        filterable: names(userFields),
        relations: sortableAt(userRelations, 'phone', relationSorts.phone),
      },
    ],
    [
      'posts',
      {
        name: 'posts',
        table: 'posts',
        fields: postFields,
        sortable: ['id', 'title', 'created_at'],
        searchable: ['title'],
        filterable: names(postFields),
        relations: sortableAt(postRelations, 'author', relationSorts.author),
      },
    ],
    [
      'roles',
      {
        name: 'roles',
        table: 'roles',
        fields: roleFields,
        sortable: names(roleFields),
        searchable: names(roleFields),
        filterable: names(roleFields),
        relations: [],
      },
    ],
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
  const result: unknown = await knex.raw('select datcollate from pg_database where datname = current_database()');
  const collation = (result as { rows: { datcollate: string }[] }).rows[0]?.datcollate ?? '';
  return { collation, byteOrder: /^(C|POSIX|C\.UTF-?8)$/i.test(collation) };
}
