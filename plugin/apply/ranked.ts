// The SQL of ranked search (docs/query-language.md, "Ranked search: match and similar"): a document
// written exactly as the GIN index the docs show is written, so PostgreSQL uses it; `match` as
// `document @@ websearch_to_tsquery(...)`, `similar` as pg_trgm's `%` (which its indexes serve) and
// the threshold; `_relevance` and `_similarity` joined as one value per row.

import type { Knex } from 'knex';
import { problem, QueryError } from '../errors';
import type { Column, FullTextCatalog } from '../schema';
import type { ConditionGroup, RankJoin, ValidatedExpansion } from '../validate';
import { columnSql, fragment, quoteIdentifier, quoteLiteral } from './sql';
import type { Fragment } from './types';

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

/** A `match` of the root: the text, its language and the key that gave it. */
export interface MatchTerm {
  readonly parameter: string;
  readonly language: string;
  readonly text: string;
}

/** The root's `match` texts, for telling an empty result from a text without a search term. */
export function matchTerms(groups: readonly ConditionGroup[]): MatchTerm[] {
  return groups.flatMap((group) =>
    group.anyOf.flatMap((terms) =>
      terms.flatMap(({ condition }) =>
        condition.kind === 'match' ? [{ parameter: condition.parameter, language: condition.fullText.language, text: condition.text }] : [],
      ),
    ),
  );
}

/** The `<alias>_match` texts of every expansion, at any depth. */
export function expansionTerms(expansions: readonly ValidatedExpansion[]): MatchTerm[] {
  return expansions.flatMap((expansion) => [...matchTerms(expansion.scope.groups), ...expansionTerms(expansion.expansions)]);
}

/**
 * After a page without rows: a `match` whose text the language reduces to no term at all (only
 * words it ignores, such as `the`) is the client's mistake, not an empty result. Asked only then,
 * so a result with rows costs nothing more.
 */
export async function refuseTermless(knex: Knex, terms: readonly MatchTerm[]): Promise<void> {
  for (const { parameter, language, text } of terms) {
    const result = await knex.raw<{ rows: { nodes: number }[] }>('select numnode(websearch_to_tsquery(?::regconfig, ?)) as "nodes"', [
      language,
      text,
    ]);
    if ((result.rows[0]?.nodes ?? 0) === 0) {
      throw new QueryError([
        problem(
          'INVALID_VALUE',
          parameter,
          `\`${parameter}\`: "${text.slice(0, 100)}" holds no search term in ${language} (only words it ignores)`,
        ),
      ]);
    }
  }
}
