// Validates `match` and `similar[...]` of one scope (docs/query-language.md, "Ranked search: match
// and similar"): the model's full-text declaration, the field and pg_trgm for `similar`, texts that
// hold something to search for, and `_relevance` / `_similarity`, the ranks they make available.

import { problem, type Problem } from '../errors';
import type { Column, ScopeCatalog } from '../schema';
import type { ScopeDescription } from '../syntax';
import type { Condition, ConditionGroup, RankJoin } from './types';

export const RELEVANCE = '_relevance';
export const SIMILARITY = '_similarity';

/** A rank as a field: a float, never NULL, read from its join. */
const rankColumn = (name: string, alias: string): Column =>
  Object.freeze({ name, column: 'v', table: alias, type: 'float', nullable: false, udt: 'float4', orderable: true, computed: true });

const group = (condition: Condition): ConditionGroup => ({ anyOf: [[{ negated: false, condition }]] });

/** Letters or digits: without one, no language finds a word in the text. */
const wordy = /[\p{L}\p{N}]/u;

function checkText(parameter: string, text: string, problems: Problem[]): boolean {
  if (text.includes('\u0000')) {
    problems.push(problem('INVALID_VALUE', parameter, `\`${parameter}\`: the text must not contain a NUL character`));
    return false;
  }
  if (!wordy.test(text)) {
    problems.push(problem('INVALID_VALUE', parameter, `\`${parameter}\`: "${text.slice(0, 100)}" holds no word to search for`));
    return false;
  }
  return true;
}

export interface RankedScope {
  readonly groups: ConditionGroup[];
  /** The ranks joined to the scope's statement. */
  readonly ranks: RankJoin[];
}

/** `match=postgres` on posts -> one condition group and, at the root, `_relevance`. */
export function validateRanked(description: ScopeDescription, catalog: ScopeCatalog, problems: Problem[]): RankedScope {
  const groups: ConditionGroup[] = [];
  const ranks: RankJoin[] = [];
  const { match } = description;
  if (match !== undefined) {
    const { fullText } = catalog;
    if (fullText === undefined) {
      problems.push(
        problem(
          'FIELD_NOT_ALLOWED',
          match.parameter,
          `\`${match.parameter}\`: ${catalog.label} has no full-text search (its model declares no getFullTextSearch())`,
        ),
      );
    } else if (checkText(match.parameter, match.text, problems)) {
      groups.push(group({ kind: 'match', fullText, text: match.text, parameter: match.parameter }));
      const alias = '__kqm_m0';
      ranks.push({ alias, column: rankColumn(RELEVANCE, alias), rank: { kind: 'relevance', fullText, text: match.text } });
    }
  }
  const similar = description.similar ?? [];
  similar.forEach((one, index) => {
    const { parameter, field, text } = one;
    if (index > 0) {
      problems.push(
        problem(
          'CONFLICTING_PARAMETERS',
          parameter,
          `\`${parameter}\` cannot be combined with \`${similar[0]?.parameter}\`: give one similar[...] key`,
        ),
      );
      return;
    }
    const column = catalog.columns.get(field);
    const { similarity } = catalog;
    if (similarity === undefined) {
      problems.push(problem('FIELD_NOT_ALLOWED', parameter, `\`${parameter}\`: similar is off: the database has no pg_trgm extension`));
      return;
    }
    const allowed = catalog.searchable.filter((name) => catalog.columns.get(name)?.type === 'text');
    if (column === undefined || !allowed.includes(field)) {
      problems.push(
        problem(
          'FIELD_NOT_ALLOWED',
          parameter,
          `\`${parameter}\`: "${field}" cannot be compared by similarity in ${catalog.label}`,
          allowed,
        ),
      );
      return;
    }
    if (!checkText(parameter, text, problems)) return;
    groups.push(group({ kind: 'similar', column, text, threshold: similarity.threshold }));
    const alias = '__kqm_m1';
    ranks.push({ alias, column: rankColumn(SIMILARITY, alias), rank: { kind: 'similarity', column, text } });
  });
  return { groups, ranks };
}

/** The hint for `_relevance` or `_similarity` named without what makes it, or behind an alias (`root` false). */
export function rankHint(name: string): string {
  if (name === RELEVANCE) return '; add match=<text> (behind an alias, <alias>_match) to the request to use _relevance';
  if (name === SIMILARITY) return '; add similar[<field>]=<text> (behind an alias, <alias>_similar[...]) to the request to use _similarity';
  return '';
}
