// The ranked-search parameters of a collection (docs/query-language.md, "Ranked search: match and
// similar"): `match` where the model declares a document, `similar[<field>]` where pg_trgm is
// installed, and `_relevance` / `_similarity`, which `fields` and `sort` take with them.

import type { ScopeCatalog } from '../schema';
import { family, query, sortKey, type KeyEntry, type Parameter } from './parameters';
import type { JsonSchema } from './value-forms';

/** The searchable text fields `similar` takes; none without pg_trgm. */
function similarFields(scope: ScopeCatalog): string[] {
  if (scope.similarity === undefined) return [];
  return scope.searchable.filter((name) => scope.columns.get(name)?.type === 'text');
}

/** `_relevance` and `_similarity`, where the collection offers what makes them. */
export function rankFields(scope: ScopeCatalog): string[] {
  return [...(scope.fullText === undefined ? [] : ['_relevance']), ...(similarFields(scope).length === 0 ? [] : ['_similarity'])];
}

/** `sort[_relevance]`, `sort[_similarity]`. */
export function rankSortKeys(scope: ScopeCatalog): KeyEntry[] {
  return rankFields(scope).map((name) =>
    sortKey(name, ` Only with ${name === '_relevance' ? '`match`' : '`similar[...]`'}; without a sort, the order is by it, descending.`),
  );
}

/** `match` and the `similar` family. */
export function rankedParameters(scope: ScopeCatalog): Parameter[] {
  const params: (Parameter | undefined)[] = [];
  const { fullText } = scope;
  if (fullText !== undefined) {
    params.push(
      query(
        'match',
        `Full-text search in web-search syntax (${fullText.language}): words ANDed, \`"a phrase"\`, \`or\`, \`-word\`. ` +
          'Adds `_relevance`; without a sort, the best matches come first. A text without a search term is refused.',
        { type: 'string', minLength: 1 },
        'postgres',
      ),
    );
  }
  const fields = similarFields(scope);
  params.push(
    family(
      'similar',
      `Keep records whose field is similar to the text by trigram similarity (at least ${scope.similarity?.threshold ?? 0.3}): ` +
        '`similar[<field>]=<text>`, one per request. Adds `_similarity`; without a sort, the most similar come first.',
      fields.map((name) => ({
        key: name,
        description: `Trigram similarity of \`${name}\` to the text.`,
        schema: { type: 'string', minLength: 1 },
        example: 'postgres',
      })),
    ),
  );
  return params.filter((p): p is Parameter => p !== undefined);
}

/** `_relevance` and `_similarity` in a record, where `fields` can name them. */
export function rankProperties(scope: ScopeCatalog): Record<string, JsonSchema> {
  return Object.fromEntries(
    rankFields(scope).map((name) => [
      name,
      {
        type: 'number',
        description: `Present when \`fields\` names it, with ${name === '_relevance' ? '`match`' : '`similar[...]`'}; higher is better.`,
      },
    ]),
  );
}

/** The ranked-search alias modifiers a relation takes, in words, for `expand[...]`'s description; '' without any. */
export function rankedAliasWords(scope: ScopeCatalog): string {
  const similar = similarFields(scope);
  const match =
    scope.fullText === undefined
      ? ''
      : '`<alias>_match=<text>` keeps the related records whose document matches, best first, with `_relevance`. ';
  const similarWords =
    similar.length === 0
      ? ''
      : `\`<alias>_similar[<field>]=<text>\` (${similar.map((f) => `\`${f}\``).join(', ')}) keeps the similar ones, most similar first, with \`_similarity\`. `;
  return match + similarWords;
}
