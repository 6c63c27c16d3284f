// Validates a whole QueryDescription against a collection's catalog: the root scope, each expansion
// and its alias scope, pagination and the cost caps. Reports every problem at once (decisions.md 29).

import { problem, QueryError, type Problem } from '../errors';
import type { CollectionCatalog, Column, RelationCatalog } from '../schema';
import type { PagingDescription, QueryDescription, ScopeDescription } from '../syntax';
import { validateScope } from './scope';
import type { ConditionGroup, RelationJoin, ValidatedExpansion, ValidatedPaging, ValidatedQuery, ValidatedScope } from './types';

export interface ValidationLimits {
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  readonly maxRows: number;
  readonly maxClauses: number;
  readonly maxListItems: number;
  readonly maxExpansions: number;
  readonly maxRelatedRows: number;
}

const emptyScope: ScopeDescription = {
  clauses: { filter: [], in: [], between: [] },
  searches: [],
  sorts: [],
  projection: undefined,
};

function validatePaging(paging: PagingDescription, limits: ValidationLimits, problems: Problem[]): ValidatedPaging {
  switch (paging.kind) {
    case 'none':
      return { kind: 'rows', limit: limits.maxRows, offset: 0, truncatable: true };
    case 'limit': {
      const capped = paging.limit === undefined || paging.limit > limits.maxRows;
      return { kind: 'rows', limit: capped ? limits.maxRows : (paging.limit as number), offset: paging.offset, truncatable: capped };
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
      return { kind: 'page', page: paging.page, pageSize };
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
  const { relations } = description.cost;
  if (relations.length > limits.maxExpansions) {
    problems.push(problem('LIMIT_EXCEEDED', relations[limits.maxExpansions]?.parameter,
      `The request names ${relations.length} relations (in expand, has, count and dot paths); at most ${limits.maxExpansions} are allowed`,
      limits.maxExpansions));
  }
}

/**
 * Each alias's scope, validated once against its relation whatever declares it (`expand`, `has`):
 * one alias names one relation (checked by the syntax stage), so its problems are reported once.
 */
class AliasScopes {
  private readonly validated = new Map<string, ValidatedScope>();

  constructor(private readonly description: QueryDescription, private readonly problems: Problem[]) {}

  of(alias: string | undefined, relation: RelationCatalog): ValidatedScope {
    const known = alias === undefined ? undefined : this.validated.get(alias);
    if (known !== undefined) return known;
    const aliased = alias === undefined ? undefined : this.description.aliased.get(alias);
    const scope = validateScope(aliased ?? emptyScope, relation.scope, this.problems);
    if (alias !== undefined) this.validated.set(alias, scope);
    return scope;
  }
}

/** The expandable relation `name`, or the UNKNOWN_RELATION problem listing them. */
export function relationNamed(collection: CollectionCatalog, name: string, parameter: string, problems: Problem[]): RelationCatalog | undefined {
  const relation = collection.relations.get(name);
  if (relation !== undefined) return relation;
  const allowed = [...collection.relations.keys()];
  // The list goes in `allowed` only: written in the detail too, a body would carry it twice per problem.
  const none = allowed.length === 0 ? `; ${collection.name} has none` : '';
  problems.push(problem('UNKNOWN_RELATION', parameter,
    `\`${parameter}\`: "${name}" is not an expandable relation of ${collection.name}${none}`, allowed));
  return undefined;
}

function validateExpansions(description: QueryDescription, collection: CollectionCatalog, limits: ValidationLimits, aliases: AliasScopes, problems: Problem[]): ValidatedExpansion[] {
  const expansions: ValidatedExpansion[] = [];
  for (const expand of description.expands) {
    const relation = relationNamed(collection, expand.relation, expand.parameter, problems);
    if (relation === undefined) continue;
    expansions.push({ relation, parameter: expand.parameter, maxRows: limits.maxRelatedRows, scope: aliases.of(expand.alias, relation) });
  }
  return expansions;
}

/**
 * `has[posts]=p` -> one group: at least one related record satisfies all of p's conditions
 * together (one EXISTS); `has![posts]=p` -> none does (decisions.md 37).
 */
function validateHas(description: QueryDescription, collection: CollectionCatalog, aliases: AliasScopes, problems: Problem[]): ConditionGroup[] {
  return description.has.flatMap((has) => {
    const relation = relationNamed(collection, has.relation, has.parameter, problems);
    if (relation === undefined) return [];
    const related = { relation, groups: aliases.of(has.alias, relation).groups };
    return [{ anyOf: [[{ negated: has.negated, condition: { kind: 'exists', related } }]] }];
  });
}

/**
 * `count[posts]=p` -> `posts_count`, an integer field of the request: the number of related records
 * satisfying p's conditions (all without an alias), joined once per record (decisions.md 39).
 */
function validateCounts(description: QueryDescription, collection: CollectionCatalog, aliases: AliasScopes, problems: Problem[]): RelationJoin[] {
  return description.counts.flatMap((count, index): RelationJoin[] => {
    const relation = relationNamed(collection, count.relation, count.parameter, problems);
    if (relation === undefined) return [];
    if (relation.cardinality === 'one') {
      problems.push(problem('MALFORMED_PARAMETER', count.parameter,
        `\`${count.parameter}\`: ${relation.name} is a ${relation.kind} relation, so each record has at most one; count takes a to-many relation`));
      return [];
    }
    const alias = `__kqm_c${index}`;
    const name = `${relation.name}_count`;
    const grouped = description.root.sorts.some((sort) => sort.field === name);
    const column: Column = Object.freeze({
      name, column: 'n', table: alias, type: 'integer', nullable: false, udt: 'int4', orderable: true,
      ...(grouped ? { zeroWhenMissing: true } : {}),
    });
    return [{ kind: 'count', alias, related: { relation, groups: aliases.of(count.alias, relation).groups }, column, grouped }];
  });
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
  const aliases = new AliasScopes(description, problems);
  const counts = validateCounts(description, collection, aliases, problems);
  const own = validateScope(description.root, collection, problems, { relations: collection.relations, counts });
  const expansions = validateExpansions(description, collection, limits, aliases, problems);
  // `has` groups are ANDed with the other groups (decisions.md 37).
  const root = Object.freeze({ ...own, groups: [...own.groups, ...validateHas(description, collection, aliases, problems)] });
  const paging = validatePaging(description.paging, limits, problems);
  checkCost(description, limits, problems);
  if (problems.length > 0) throw new QueryError(inQueryOrder(problems, description.keys));
  return Object.freeze({ collection, root, expansions, paging });
}
