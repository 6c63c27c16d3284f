// What `_meta` says of ranked search for one scope (docs/query-language.md, "Ranked search: match
// and similar"): the declared document and the GIN index found on it, and which fields `similar`
// takes where pg_trgm is installed. Absent members: the modifier is not available.

import type { ScopeCatalog } from '../schema';

/** `posts` -> `{match: {language: 'english', fields: [{name: 'title', weight: 'A'}, ...], index: 'posts_document'}, similar: {...}}`. */
export function describeRankedSearch(scope: ScopeCatalog) {
  const { fullText, similarity } = scope;
  const similar = scope.searchable.filter((name) => scope.columns.get(name)?.type === 'text');
  return {
    ...(fullText === undefined
      ? {}
      : {
          match: {
            language: fullText.language,
            ...(fullText.column === undefined
              ? { fields: (fullText.fields ?? []).map(({ column, weight }) => ({ name: column.name, weight })) }
              : { column: fullText.column.name }),
            index: fullText.index ?? null,
          },
        }),
    ...(similarity === undefined || similar.length === 0 ? {} : { similar: { fields: similar, threshold: similarity.threshold } }),
  };
}
