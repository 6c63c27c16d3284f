// Reads the indexes a collection's declarations need from its catalog
// (docs/installing.md#10-indexes-for-your-declarations): its sortable and filterable fields
// followed by the primary key, its searchable text fields, and the keys of every relation it can
// expand or test, at any depth.

import type { CollectionCatalog, Column, RelationCatalog, ScopeCatalog } from '../schema';
import type { Need, NeedKey } from './types';

/** `cms.blogPosts` (as the model names it) -> `cms.blog_posts` (as the database does). */
export type DatabaseTable = (table: string) => string;

const keyOf = (column: Column, desc = false): NeedKey => ({ column: column.column, desc, notNull: !column.nullable });

/** A column a btree can order: no virtual attribute, count or unordered type (json, point, ...). */
const ordered = (column: Column | undefined): column is Column =>
  column !== undefined && column.column !== '' && column.orderable && column.zeroWhenMissing !== true && column.type !== 'array';

function primaryKey(scope: ScopeCatalog): Column[] {
  return scope.idColumns.flatMap((name) => scope.columns.get(name) ?? []);
}

/**
 * `sort[name]=desc` reads `name DESC, id`: the field, then the primary key ascending as the
 * tie-breaker (docs/query-language.md, "sort"); an equality filter with the default order reads
 * `name = ?` then `id`, which the ascending index serves too.
 */
function scopeNeeds(collection: CollectionCatalog, table: DatabaseTable): Need[] {
  const pk = primaryKey(collection);
  const base = { table: table(collection.table), collection: collection.name };
  const orderedBy = (column: Column, desc: boolean): NeedKey[] => [
    keyOf(column, desc),
    ...pk.filter((key) => key.column !== column.column).map((key) => keyOf(key)),
  ];
  const needs: Need[] = [];
  for (const name of collection.sortable) {
    const column = collection.columns.get(name);
    if (!ordered(column)) continue;
    needs.push({ ...base, kind: 'ordered', keys: orderedBy(column, false), serves: `sort[${name}]=asc` });
    needs.push({ ...base, kind: 'ordered', keys: orderedBy(column, true), serves: `sort[${name}]=desc` });
  }
  for (const name of collection.filterable) {
    const column = collection.columns.get(name);
    if (ordered(column)) needs.push({ ...base, kind: 'ordered', keys: orderedBy(column, false), serves: `filter[${name}]` });
  }
  for (const name of collection.searchable) {
    const column = collection.columns.get(name);
    // search compares `lower(column)` for text columns; char(n) keeps ILIKE (schema/search-indexes.ts).
    if (column !== undefined && column.type === 'text' && column.udt !== 'bpchar' && column.column !== '') {
      needs.push({ ...base, kind: 'trigram', keys: [keyOf(column)], serves: `search[${name}]` });
    }
  }
  return needs;
}

/** The keys a relation's statements look rows up by: the related side's, the join table's, a belongs-to's own. */
function relationKeys(relation: RelationCatalog): (readonly Column[])[] {
  const sets: (readonly Column[])[] = [relation.relatedKeys];
  if (relation.through !== undefined) sets.push(relation.through.ownerKeys, relation.through.relatedKeys);
  if (relation.kind === 'belongs-to') sets.push(relation.ownerKeys);
  return sets;
}

function rootServes(relation: RelationCatalog): string[] {
  const serves = [`expand[${relation.name}]`, `has[${relation.name}]`];
  if (relation.cardinality === 'many') serves.push(`count[${relation.name}]`);
  if (relation.scope.filterable.length > 0) serves.push(`filter[${relation.name}.…]`);
  return serves;
}

/** `['posts', 'comments']` -> `expand[posts]=a1&a1_expand[comments]` (docs/query-language.md, "Nested expansion"). */
function nestedServes(path: readonly string[]): string {
  return path.map((name, i) => `${i === 0 ? '' : `a${i}_`}expand[${name}]${i < path.length - 1 ? `=a${i + 1}` : ''}`).join('&');
}

/**
 * Every relation the collection reaches (nested expansion follows them at any depth), each once; a
 * key a shallower path already looks rows up by is not labelled again by a deeper one.
 */
function relationNeeds(collection: CollectionCatalog, table: DatabaseTable): Need[] {
  const needs: Need[] = [];
  const seen = new Set<RelationCatalog>();
  const looked = new Set<string>();
  // Breadth first: the relations the collection names label their keys before any nested path does.
  const queue: [RelationCatalog, readonly string[], readonly string[]][] = [...collection.relations.values()].map((relation) => [
    relation,
    [relation.name],
    rootServes(relation),
  ]);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const [relation, path, serves] = next;
    if (seen.has(relation)) continue;
    seen.add(relation);
    for (const keys of relationKeys(relation)) {
      const first = keys[0];
      const lookup = `${first?.table ?? ''}\u0000${keys.map((key) => key.column).join(',')}`;
      if (first === undefined || looked.has(lookup)) continue;
      looked.add(lookup);
      for (const label of serves) {
        needs.push({
          kind: 'lookup',
          table: table(first.table),
          keys: keys.map((key) => keyOf(key)),
          collection: collection.name,
          serves: label,
        });
      }
    }
    for (const nested of relation.relations.values()) queue.push([nested, [...path, nested.name], [nestedServes([...path, nested.name])]]);
  }
  return needs;
}

/** `users` with `sort[name]` and `expand[posts]` -> the needs, each labelled with what it serves. */
export function collectionNeeds(collection: CollectionCatalog, table: DatabaseTable): Need[] {
  return [...scopeNeeds(collection, table), ...relationNeeds(collection, table)];
}
