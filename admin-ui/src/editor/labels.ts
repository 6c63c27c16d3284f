// Owns what the editor's face calls things: a field's declared label (`getFieldLabels()` on the
// model, docs/configuration.md, "Field labels"), else its name humanised; and a collection's name.
import type { ScopeMeta } from '../meta';

/** `email_verified_at` -> `Email verified at`, `isAdmin` -> `Is admin`, `posts_count` -> `Posts count`. */
export function humanise(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field's label in `scope`: the declared one, else the name humanised. */
export function fieldLabel(scope: ScopeMeta, field: string): string {
  return scope.fields.find((f) => f.name === field)?.label ?? humanise(field);
}

/** `users` -> `Users`; a relation's records as the summary names them: `posts` -> `posts`. */
export function collectionLabel(name: string): string {
  return humanise(name);
}

/** `3 posts`, `1 post`: a count of related records in words. */
export function countOf(count: number, relation: string): string {
  const plural = humanise(relation).toLowerCase();
  return `${count} ${count === 1 ? plural.replace(/ies$/, 'y').replace(/s$/, '') : plural}`;
}
