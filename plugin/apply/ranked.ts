// The SQL of ranked search (docs/query-language.md, "Ranked search: match and similar"): a document
// written exactly as the GIN index the docs show is written, so PostgreSQL uses it; `match` as
// `document @@ websearch_to_tsquery(...)`, `similar` as pg_trgm's `%` (which its indexes serve) and
// the threshold; `_relevance` and `_similarity` joined as one value per row.

import type { Column, FullTextCatalog } from '../schema';
import type { RankJoin } from '../validate';
import { columnSql, fragment, quoteIdentifier, quoteLiteral, type Fragment } from './sql';

/**
 * `setweight(to_tsvector('english'::regconfig, coalesce("posts"."title", '')), 'A') || ...`, or
 * the declared `tsvector` column.
 */
export function documentSql(fullText: FullTextCatalog): string {
  if (fullText.column !== undefined) return columnSql(fullText.column);
  const language = `${quoteLiteral(fullText.language)}::regconfig`;
  return (fullText.fields ?? [])
    .map(({ column, weight }) => `setweight(to_tsvector(${language}, coalesce(${columnSql(column)}, '')), ${quoteLiteral(weight)})`)
    .join(' || ');
}

const querySql = (fullText: FullTextCatalog): string => `websearch_to_tsquery(${quoteLiteral(fullText.language)}::regconfig, ?)`;

/** `(<document>) @@ websearch_to_tsquery('english'::regconfig, ?)`. */
export function matchSql(fullText: FullTextCatalog, text: string): Fragment {
  return fragment(`(${documentSql(fullText)}) @@ ${querySql(fullText)}`, [text]);
}

/**
 * pg_trgm's `%` uses its own threshold (`pg_trgm.similarity_threshold`, 0.3 by default), which a
 * trigram index serves; the declared threshold is tested after it. Below 0.3, `%` would drop rows
 * the threshold keeps, so similarity alone is tested.
 */
export function similarSql(column: Column, text: string, threshold: number): Fragment {
  const ref = column.udt === 'text' ? columnSql(column) : `${columnSql(column)}::text`;
  if (threshold < 0.3) return fragment(`similarity(${ref}, ?) >= ?`, [text, threshold]);
  return fragment(`(${ref} % ? AND similarity(${ref}, ?) >= ?)`, [text, text, threshold]);
}

/** ` cross join lateral (select ts_rank(<document>, websearch_to_tsquery(...)) as "v") as "__kqm_m0"`. */
export function rankJoinSql(join: RankJoin): Fragment {
  const { rank } = join;
  const value =
    rank.kind === 'relevance'
      ? fragment(`ts_rank(${documentSql(rank.fullText)}, ${querySql(rank.fullText)})`, [rank.text])
      : fragment(`similarity(${rank.column.udt === 'text' ? columnSql(rank.column) : `${columnSql(rank.column)}::text`}, ?)`, [rank.text]);
  return fragment(
    ` cross join lateral (select ${value.sql} as ${quoteIdentifier(join.column.column)}) as ${quoteIdentifier(join.alias)}`,
    value.bindings,
  );
}
