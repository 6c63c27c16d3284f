// Validates a whole QueryDescription against a collection's catalog: the root scope, the expansions
// (expansions.ts), pagination and the cost caps. Reports every problem at once (decisions.md 29).

import { problem, QueryError, type Problem } from '../errors';
import type { CollectionCatalog } from '../schema';
import type { QueryDescription } from '../syntax';
import { validateExpansions } from './expansions';
import { validateScope } from './scope';
import { validateTotal, type TotalSettings } from './total';
import type { ValidatedPaging, ValidatedQuery } from './types';

export interface ValidationLimits extends TotalSettings {
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  readonly maxRows: number;
  readonly maxClauses: number;
  readonly maxListItems: number;
  readonly maxExpansions: number;
  readonly maxRelatedRows: number;
  readonly maxExpandDepth: number;
}

function validatePaging(description: QueryDescription, collection: CollectionCatalog, limits: ValidationLimits, problems: Problem[]): ValidatedPaging {
  const { paging } = description;
  switch (paging.kind) {
    case 'none':
      return { kind: 'rows', limit: limits.maxRows, offset: 0, truncatable: true };
    case 'limit': {
      const capped = paging.limit === undefined || paging.limit > limits.maxRows;
      return { kind: 'rows', limit: capped ? limits.maxRows : (paging.limit), offset: paging.offset, truncatable: capped };
    }
    case 'page': {
      const pageSize = paging.pageSize ?? limits.defaultPageSize;
      if (pageSize > limits.maxPageSize) {
        const parameter = paging.pageSizeParameter ?? 'per-page';
        problems.push(problem('PAGE_SIZE_TOO_LARGE', parameter,
          `\`${parameter}\` is ${pageSize}; the largest page size is ${limits.maxPageSize}`, limits.maxPageSize));
      }
      if (!Number.isSafeInteger((paging.page - 1) * pageSize)) {
        problems.push(problem('MALFORMED_PARAMETER', 'page', '`page` is too large'));
      }
      return { kind: 'page', page: paging.page, pageSize, total: validateTotal(description.total, collection.name, limits) };
    }
  }
}

function checkCost(description: QueryDescription, limits: ValidationLimits, problems: Problem[]): void {
  if (description.cost.clauses > limits.maxClauses) {
    problems.push(problem('LIMIT_EXCEEDED', undefined,
      `The request has ${description.cost.clauses} filter, in, between and search clauses; at most ${limits.maxClauses} are allowed`,
      limits.maxClauses));
  }
  if (description.cost.listItems > limits.maxListItems) {
    const parameter = description.cost.longestList;
    problems.push(problem('LIMIT_EXCEEDED', parameter,
      `\`${parameter}\` has ${description.cost.listItems} items; at most ${limits.maxListItems} are allowed in one list`,
      limits.maxListItems));
  }
  // Expansions at every depth count (decisions.md 40).
  if (description.expands.length > limits.maxExpansions) {
    problems.push(problem('LIMIT_EXCEEDED', description.expands[limits.maxExpansions]?.parameter,
      `The request expands ${description.expands.length} relations; at most ${limits.maxExpansions} are allowed`,
      limits.maxExpansions));
  }
}

/** Orders problems by where their parameter stands in the query string; those without one go last. */
function inQueryOrder(problems: readonly Problem[], keys: readonly string[]): Problem[] {
  const position = (p: Problem) => {
    const at = p.parameter === undefined ? -1 : keys.indexOf(p.parameter);
    return at === -1 ? keys.length : at;
  };
  return problems.map((p, i) => ({ p, i })).sort((a, b) => position(a.p) - position(b.p) || a.i - b.i).map(({ p }) => p);
}

/** `filter[id]=>=5` on users -> a ValidatedQuery; throws a QueryError listing every problem. */
export function validateQuery(description: QueryDescription, collection: CollectionCatalog, limits: ValidationLimits): ValidatedQuery {
  const problems: Problem[] = [...description.problems];
  const root = validateScope(description.root, collection, problems);
  const expansions = validateExpansions(description, collection.name, collection.relations, limits, problems);
  const paging = validatePaging(description, collection, limits, problems);
  checkCost(description, limits, problems);
  if (problems.length > 0) throw new QueryError(inQueryOrder(problems, description.keys));
  return Object.freeze({ collection, root, expansions, paging });
}
