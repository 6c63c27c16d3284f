// The reference's picture of the differential app's two collections whose models keep fields
// private in their own JSON (boundary-models.ts): `members` (the users table: the password hash
// removed, the e-mail masked) and `articles` (the posts table: the secret note removed, the title
// masked), each declaring '*' everywhere and relating to the other. The lists follow
// docs/configuration.md, "What your model's JSON hides or masks" as the reference reads it: a
// removed field is not projectable; a masked one is projectable, shown masked, and in no sort,
// search or filter list. Written from the rule, not from plugin/.

import type { CollectionSpec, Dataset, FieldSpec, RelationSpec, ScopeSpec, StoredRow } from './model';

/** `alice@example.com` -> `a***@example.com`: the first character, stars, then the domain. */
export function referenceMaskEmail(email: string): string {
  const at = email.indexOf('@', 1);
  return `${email.charAt(0)}***${at === -1 ? '' : email.slice(at)}`;
}

/** `Hello World` -> `Hel…`. */
export function referenceMaskTitle(title: string): string {
  return `${title.slice(0, 3)}…`;
}

/** What a model's JSON does to its table's columns: removes some, masks others. */
interface Conversion {
  readonly table: string;
  readonly hidden: readonly string[];
  readonly masks: ReadonlyMap<string, (value: string) => string>;
}

const MEMBER: Conversion = { table: 'users', hidden: ['password_hash'], masks: new Map([['email', referenceMaskEmail]]) };
const ARTICLE: Conversion = { table: 'posts', hidden: ['secret_note'], masks: new Map([['title', referenceMaskTitle]]) };

/**
 * A model declaring '*' for every list, through its conversion
 * (docs/configuration.md, "What your model's JSON hides or masks"): every column in table order
 * less the removed ones is projectable; the same less the masked ones may be compared.
 */
function boundaryScope(data: Dataset, conversion: Conversion): ScopeSpec {
  const columns: FieldSpec[] = [...(data.types.get(conversion.table)?.values() ?? [])];
  const fields = columns.filter((f) => !conversion.hidden.includes(f.name));
  const comparable = fields.filter((f) => !conversion.masks.has(f.name)).map((f) => f.name);
  return {
    table: conversion.table,
    fields,
    sortable: comparable,
    searchable: comparable,
    filterable: comparable,
    hidden: conversion.hidden,
    masks: conversion.masks,
  };
}

function rowsWhere(data: Dataset, table: string, test: (row: StoredRow) => boolean): StoredRow[] {
  return (data.rows.get(table) ?? []).filter(test);
}

/** `data` with the `members` and `articles` collections added. */
export function withBoundaryCollections(data: Dataset): Dataset {
  const members = boundaryScope(data, MEMBER);
  const articles = boundaryScope(data, ARTICLE);
  // A relation's '*' options are the related model's lists
  // (docs/query-language.md, "Aliases and alias modifiers"), so its scope is the model's.
  const memberRelations: RelationSpec[] = [];
  const articleRelations: RelationSpec[] = [];
  memberRelations.push({
    name: 'posts',
    cardinality: 'many',
    scope: articles,
    related: (parent, d) => rowsWhere(d, 'posts', (p) => p.user_id === parent.id),
    relations: articleRelations,
  });
  articleRelations.push({
    name: 'author',
    cardinality: 'one',
    scope: members,
    related: (parent, d) => rowsWhere(d, 'users', (u) => u.id === parent.user_id),
    relations: memberRelations,
  });
  const collections = new Map<string, CollectionSpec>(data.collections);
  collections.set('members', { ...members, name: 'members', relations: memberRelations });
  collections.set('articles', { ...articles, name: 'articles', relations: articleRelations });
  return { ...data, collections };
}
