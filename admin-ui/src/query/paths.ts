// Owns reading a dot path (`posts.status`) against the metadata: a root clause may name a field of a
// relation's records (docs/query-language.md, "Relations in conditions"), whose own lists and types
// then apply.
import type { CollectionMeta, RelationMeta, ScopeMeta } from '../meta';

export interface PathTarget {
  /** The relation the path goes through; undefined for a field of the scope itself. */
  readonly relation: RelationMeta | undefined;
  /** The field within its scope: `status` for `posts.status`. */
  readonly field: string;
  /** Where the field's type and lists are read. */
  readonly scope: ScopeMeta;
}

/** The relations a scope's conditions can reach: the collection's, none for an expansion. */
export function relationsOf(meta: ScopeMeta): readonly RelationMeta[] {
  return 'relations' in meta ? (meta as CollectionMeta).relations : [];
}

/** `posts.status` on users -> the posts relation and `status`; `name` -> users' own `name`. */
export function readPath(meta: ScopeMeta, path: string): PathTarget {
  const dot = path.indexOf('.');
  const relation = dot === -1 ? undefined : relationsOf(meta).find((r) => r.name === path.slice(0, dot));
  if (relation === undefined) return { relation: undefined, field: path, scope: meta };
  return { relation, field: path.slice(dot + 1), scope: relation };
}

/**
 * Every dot path a list of the relations allows: `searchable` -> `posts.title`, `roles.name`, ...;
 * sort follows only to-one relations (docs/query-language.md, "Sorting by a related record").
 */
export function dotPaths(meta: ScopeMeta, list: 'filterable' | 'searchable' | 'sortable'): string[] {
  return relationsOf(meta)
    .filter((relation) => list !== 'sortable' || relation.cardinality === 'one')
    .flatMap((relation) => relation[list].map((field) => `${relation.name}.${field}`));
}
