// A hand-built catalog for unit tests of the validate and apply stages (no database needed).

import { Model } from 'objection';
import { createCursorSeal } from '../../plugin/cursor-seal';
import type { CollectionCatalog, Column, ColumnType, RelationCatalog, ScopeCatalog } from '../../plugin/schema';
import type { CursorToken } from '../../plugin/syntax';

class Person extends Model {
  static override tableName = 'people';
}
class Note extends Model {
  static override tableName = 'notes';
}
class Tag extends Model {
  static override tableName = 'tags';
}
class PersonTag extends Model {
  static override tableName = 'person_tags';
}
class Nickname extends Model {
  static override tableName = 'nicknames';
}
class Thing extends Model {
  static override tableName = 'things';
}

/** Fields named as their columns, as a model without name mappers has them. */
const columns = (table: string, list: [string, ColumnType][]): Map<string, Column> =>
  new Map(
    list.map(([name, type]) => [name, { name, column: name, table, type, nullable: name !== 'id', udt: type, orderable: type !== 'json' }]),
  );

const key = (fields: ReadonlyMap<string, Column>, name: string): Column => fields.get(name) as Column;

const personColumns = columns('people', [
  ['id', 'integer'],
  ['name', 'text'],
  ['born', 'date'],
  ['created_at', 'timestamptz'],
  ['score', 'numeric'],
  ['active', 'boolean'],
  ['big', 'bigint'],
  ['secret', 'text'],
]);

const noteColumns = columns('notes', [
  ['id', 'integer'],
  ['person_id', 'integer'],
  ['title', 'text'],
  ['created_at', 'timestamptz'],
]);

const notes: ScopeCatalog = {
  label: 'people.notes',
  modelClass: Note,
  table: 'notes',
  idColumns: ['id'],
  viaModel: false,
  columns: noteColumns,
  projectable: ['id', 'title', 'created_at'],
  sortable: ['created_at'],
  searchable: ['title'],
  filterable: ['id', 'title'],
};

const noteRelation: RelationCatalog = {
  name: 'notes',
  kind: 'has-many',
  cardinality: 'many',
  scope: notes,
  ownerKeys: [key(personColumns, 'id')],
  relatedKeys: [key(noteColumns, 'person_id')],
  keysAsText: false,
  relations: new Map(),
};

const tagColumns = columns('tags', [
  ['id', 'integer'],
  ['label', 'text'],
]);
const personTagColumns = columns('person_tags', [
  ['person_id', 'integer'],
  ['tag_id', 'integer'],
]);

const tags: ScopeCatalog = {
  label: 'people.tags',
  modelClass: Tag,
  table: 'tags',
  idColumns: ['id'],
  viaModel: false,
  columns: tagColumns,
  projectable: ['id', 'label'],
  sortable: ['label'],
  searchable: ['label'],
  filterable: ['id', 'label'],
};

/** many-to-many through `person_tags`. */
const tagRelation: RelationCatalog = {
  name: 'tags',
  kind: 'many-to-many',
  cardinality: 'many',
  scope: tags,
  ownerKeys: [key(personColumns, 'id')],
  relatedKeys: [key(tagColumns, 'id')],
  keysAsText: false,
  through: {
    table: 'person_tags',
    ownerKeys: [key(personTagColumns, 'person_id')],
    relatedKeys: [key(personTagColumns, 'tag_id')],
    keysAsText: false,
    modelClass: PersonTag,
  },
  relations: new Map(),
};

const nicknameColumns = columns('nicknames', [
  ['id', 'integer'],
  ['person_id', 'integer'],
  ['person_name', 'text'],
  ['nick', 'text'],
]);

const nicknames: ScopeCatalog = {
  label: 'people.nicknames',
  modelClass: Nickname,
  table: 'nicknames',
  idColumns: ['id'],
  viaModel: false,
  columns: nicknameColumns,
  projectable: ['id', 'nick'],
  sortable: ['nick'],
  searchable: ['nick'],
  filterable: ['nick'],
};

/** A composite key: (id, name) -> (person_id, person_name). */
const nicknameRelation: RelationCatalog = {
  name: 'nicknames',
  kind: 'has-many',
  cardinality: 'many',
  scope: nicknames,
  ownerKeys: [key(personColumns, 'id'), key(personColumns, 'name')],
  relatedKeys: [key(nicknameColumns, 'person_id'), key(nicknameColumns, 'person_name')],
  keysAsText: false,
  relations: new Map(),
};

const visible = ['id', 'name', 'born', 'created_at', 'score', 'active', 'big'];

export const people: CollectionCatalog = {
  name: 'people',
  label: 'people',
  modelClass: Person,
  table: 'people',
  idColumns: ['id'],
  viaModel: false,
  columns: personColumns,
  projectable: visible,
  sortable: visible,
  searchable: ['name', 'id'],
  filterable: visible,
  relations: new Map([
    ['notes', noteRelation],
    ['tags', tagRelation],
    ['nicknames', nicknameRelation],
  ]),
};

export const limits = {
  defaultPageSize: 15,
  maxPageSize: 100,
  maxRows: 1000,
  maxClauses: 10,
  maxListItems: 5,
  maxExpansions: 3,
  maxExpandDepth: 3,
  maxRelatedRows: 50,
  exportBatchRows: 1000,
  total: 'exact' as const,
  estimateAbove: 100,
  cursorSeal: createCursorSeal('the unit tests seal their cursors with this secret'),
};

/** A cursor as the plugin gives it for `collection` (default people) under `limits`' seal. */
export const sealed = (token: CursorToken, collection = 'people'): string => limits.cursorSeal.seal(collection, token);

/** An enum in a schema whose name needs quoting, a text array, an integer array, a real and a jsonb. */
const thingColumns = new Map<string, Column>([
  ['id', { name: 'id', column: 'id', table: 'things', type: 'integer', nullable: false, udt: 'int4', orderable: true }],
  [
    'mood',
    {
      name: 'mood',
      column: 'mood',
      table: 'things',
      type: 'enum',
      nullable: true,
      udt: 'mo"od?',
      udtSchema: 'odd schema',
      orderable: true,
      labels: ['sad', 'ok', 'happy'],
    },
  ],
  [
    'tags',
    {
      name: 'tags',
      column: 'tags',
      table: 'things',
      type: 'array',
      nullable: true,
      udt: '_text',
      udtSchema: 'pg_catalog',
      orderable: true,
      element: 'text',
      elementSchema: 'pg_catalog',
      elementType: 'text',
    },
  ],
  [
    'counts',
    {
      name: 'counts',
      column: 'counts',
      table: 'things',
      type: 'array',
      nullable: true,
      udt: '_int8',
      udtSchema: 'pg_catalog',
      orderable: true,
      element: 'int8',
      elementSchema: 'pg_catalog',
      elementType: 'bigint',
    },
  ],
  ['ratio', { name: 'ratio', column: 'ratio', table: 'things', type: 'float', nullable: true, udt: 'float4', orderable: true }],
  ['doc', { name: 'doc', column: 'doc', table: 'things', type: 'json', nullable: true, udt: 'jsonb', orderable: true }],
]);

const thingFields = [...thingColumns.keys()];

export const things: CollectionCatalog = {
  name: 'things',
  label: 'things',
  modelClass: Thing,
  table: 'things',
  idColumns: ['id'],
  viaModel: false,
  columns: thingColumns,
  projectable: thingFields,
  sortable: thingFields,
  searchable: thingFields,
  filterable: thingFields,
  relations: new Map(),
};
