// A hand-built catalog for unit tests of the validate and apply stages (no database needed).

import { Model } from 'objection';
import type { CollectionCatalog, Column, ColumnType, RelationCatalog, ScopeCatalog } from '../../plugin/schema';

class Person extends Model {
  static override tableName = 'people';
}
class Note extends Model {
  static override tableName = 'notes';
}

const columns = (list: [string, ColumnType][]): Map<string, Column> =>
  new Map(list.map(([name, type]) => [name, { name, type, nullable: name !== 'id' }]));

const noteColumns = columns([['id', 'integer'], ['person_id', 'integer'], ['title', 'text'], ['created_at', 'timestamptz']]);

const notes: ScopeCatalog = {
  label: 'people.notes', modelClass: Note, table: 'notes', idColumns: ['id'], columns: noteColumns,
  projectable: ['id', 'title', 'created_at'], sortable: ['created_at'], searchable: ['title'], filterable: ['id', 'title'],
};

const noteRelation: RelationCatalog = {
  name: 'notes', kind: 'has-many', cardinality: 'many', scope: notes, ownerKeys: ['id'], relatedKeys: ['person_id'],
};

const personColumns = columns([
  ['id', 'integer'], ['name', 'text'], ['born', 'date'], ['created_at', 'timestamptz'], ['score', 'numeric'],
  ['active', 'boolean'], ['big', 'bigint'], ['secret', 'text'],
]);
const visible = ['id', 'name', 'born', 'created_at', 'score', 'active', 'big'];

export const people: CollectionCatalog = {
  name: 'people', label: 'people', modelClass: Person, table: 'people', idColumns: ['id'], columns: personColumns,
  projectable: visible, sortable: visible, searchable: ['name', 'id'], filterable: visible,
  relations: new Map([['notes', noteRelation]]),
};

export const limits = {
  defaultPageSize: 15, maxPageSize: 100, maxRows: 1000, maxClauses: 10, maxListItems: 5, maxExpansions: 1,
};
