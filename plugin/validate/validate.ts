// Validates a whole QueryDescription against a collection's catalog: the root scope, the expansions
// (expansions.ts), pagination (a cursor's in cursor.ts) and the cost caps. Reports every problem at
// once (docs/errors.md, "Several problems in one request").

import { problem, QueryError, type Problem } from '../errors';
import type { CollectionCatalog, Column, RelationCatalog } from '../schema';
import type { QueryDescription } from '../syntax';
import { AliasScopes } from './alias-scopes';
import { validateCursorPaging, type CursorLimits } from './cursor';
import { validateExport, type ExportLimits } from './export';
import { labelled, relationNamed, validateExpansions } from './expansions';
import { validatePageSize } from './page-size';
import { validateScope } from './scope';
import { rootConditions, validateSummary, withoutField } from './summary';
import { validateTotal, type TotalSettings } from './total';
import type { ConditionGroup, RelationJoin, ValidatedPaging, ValidatedQuery } from './types';

export interface ValidationLimits extends TotalSettings, CursorLimits, ExportLimits {
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
  readonly maxRows: number;
  readonly maxClauses: number;
  readonly maxListItems: number;
  readonly maxExpansions: number;
  readonly maxRelatedRows: number;
  readonly maxExpandDepth: number;
}

function validatePaging(
  description: QueryDescription,
  collection: CollectionCatalog,
  limits: ValidationLimits,
  problems: Problem[],
): ValidatedPaging {
  const { paging } = description;
  switch (paging.kind) {
    case 'none':
      return { kind: 'rows', limit: limits.maxRows, offset: 0, truncatable: true };
    case 'limit': {
      const capped = paging.limit === undefined || paging.limit > limits.maxRows;
      return { kind: 'rows', limit: capped ? limits.maxRows : paging.limit, offset: paging.offset, truncatable: capped };
    }
    case 'page': {
      const pageSize = validatePageSize(paging, limits, problems);
      if (!Number.isSafeInteger((paging.page - 1) * pageSize)) {
        problems.push(problem('MALFORMED_PARAMETER', 'page', '`page` is too large'));
      }
      return { kind: 'page', page: paging.page, pageSize, total: validateTotal(description.total, collection.name, limits) };
    }
  }
}

function checkCost(description: QueryDescription, limits: ValidationLimits, problems: Problem[]): void {
  if (description.cost.clauses > limits.maxClauses) {
    problems.push(
      problem(
        'LIMIT_EXCEEDED',
        undefined,
        `The request has ${description.cost.clauses} filter, in, between and search clauses; at most ${limits.maxClauses} are allowed`,
        limits.maxClauses,
      ),
    );
  }
  if (description.cost.listItems > limits.maxListItems) {
    const parameter = description.cost.longestList;
    problems.push(
      problem(
        'LIMIT_EXCEEDED',
        parameter,
        `\`${parameter}\` has ${description.cost.listItems} items; at most ${limits.maxListItems} are allowed in one list`,
        limits.maxListItems,
      ),
    );
  }
  // Each relation the request names at the root, and each nested expansion
  // (docs/query-language.md, "Cost limits").
  const { relations } = description.cost;
  if (relations.length > limits.maxExpansions) {
    problems.push(
      problem(
        'LIMIT_EXCEEDED',
        relations[limits.maxExpansions]?.parameter,
        `The request names ${relations.length} relations (in expand, has, count, dot paths and nested expansions); at most ${limits.maxExpansions} are allowed`,
        limits.maxExpansions,
      ),
    );
  }
}

/** The scope catalog of a root relation, labelled with its path (`users.posts`) as expand labels it. */
const rootScope = (collection: CollectionCatalog, relation: RelationCatalog) =>
  labelled(relation.scope, `${collection.name}.${relation.name}`);

/**
 * `has[posts]=p` -> one group: at least one related record satisfies all of p's conditions
 * together (one EXISTS); `has![posts]=p` -> none does
 * (docs/query-language.md, "has and has!: all conditions on one related record").
 */
function validateHas(
  description: QueryDescription,
  collection: CollectionCatalog,
  aliases: AliasScopes,
  problems: Problem[],
): ConditionGroup[] {
  return description.has.flatMap((has) => {
    const relation = relationNamed(collection.name, collection.relations, has.relation, has.parameter, problems);
    if (relation === undefined) return [];
    const related = { relation, groups: aliases.of(has.alias, rootScope(collection, relation)).groups };
    return [{ anyOf: [[{ negated: has.negated, condition: { kind: 'exists', related } }]] }];
  });
}

/**
 * `count[posts]=p` -> `posts_count`, an integer field of the request: the number of related records
 * satisfying p's conditions (all without an alias), joined once per record
 * (docs/query-language.md, "Counting related records").
 */
function validateCounts(
  description: QueryDescription,
  collection: CollectionCatalog,
  aliases: AliasScopes,
  problems: Problem[],
): RelationJoin[] {
  return description.counts.flatMap((count, index): RelationJoin[] => {
    const relation = relationNamed(collection.name, collection.relations, count.relation, count.parameter, problems);
    if (relation === undefined) return [];
    if (relation.cardinality === 'one') {
      problems.push(
        problem(
          'MALFORMED_PARAMETER',
          count.parameter,
          `\`${count.parameter}\`: ${relation.name} is a ${relation.kind} relation, so each record has at most one; count takes a to-many relation`,
        ),
      );
      return [];
    }
    const alias = `__kqm_c${index}`;
    const name = `${relation.name}_count`;
    const grouped = description.root.sorts.some((sort) => sort.field === name);
    const column: Column = Object.freeze({
      name,
      column: 'n',
      table: alias,
      type: 'integer',
      nullable: false,
      udt: 'int4',
      orderable: true,
      ...(grouped ? { zeroWhenMissing: true } : {}),
    });
    const groups = aliases.of(count.alias, rootScope(collection, relation)).groups;
    return [{ kind: 'count', alias, related: { relation, groups }, column, grouped }];
  });
}

/** Orders problems by where their parameter stands in the query string; those without one go last. */
function inQueryOrder(problems: readonly Problem[], keys: readonly string[]): Problem[] {
  const position = (p: Problem) => {
    const at = p.parameter === undefined ? -1 : keys.indexOf(p.parameter);
    return at === -1 ? keys.length : at;
  };
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => position(a.p) - position(b.p) || a.i - b.i)
    .map(({ p }) => p);
}

/** `filter[id]=>=5` on users -> a ValidatedQuery; throws a QueryError listing every problem. */
export function validateQuery(description: QueryDescription, collection: CollectionCatalog, limits: ValidationLimits): ValidatedQuery {
  const problems: Problem[] = [...description.problems];
  const aliases = new AliasScopes(description, problems);
  const counts = validateCounts(description, collection, aliases, problems);
  const own = validateScope(description.root, collection, problems, { relations: collection.relations, counts });
  const expansions = validateExpansions(description, collection.name, collection.relations, limits, aliases, problems);
  // `has` groups are ANDed with the other groups
  // (docs/query-language.md, "has and has!: all conditions on one related record").
  const has = validateHas(description, collection, aliases, problems);
  const root = Object.freeze({ ...own, groups: [...own.groups, ...has] });
  const asked =
    description.cursor === undefined
      ? validatePaging(description, collection, limits, problems)
      : validateCursorPaging(description, collection.name, root.order, limits, problems);
  const exported = validateExport(description, asked, limits, problems);
  const paging = exported?.paging ?? asked;
  // Each facet's and stats' conditions: the request's without the clauses on its field (reported above if wrong).
  const without = (field: string) => {
    const scope = withoutField(description.root, field);
    if (scope === undefined) return rootConditions(own, has);
    return rootConditions(validateScope(scope, collection, [], { relations: collection.relations, counts }), has);
  };
  // A CSV answer refuses facets and stats itself (export.ts), whatever its paging.
  const summary = exported === undefined ? validateSummary(description, collection, paging, without, problems) : undefined;
  checkCost(description, limits, problems);
  if (problems.length > 0) throw new QueryError(inQueryOrder(problems, description.keys));
  return Object.freeze({
    collection,
    root,
    expansions,
    paging,
    ...(summary === undefined ? {} : { summary }),
    ...(exported === undefined ? {} : { csv: exported.csv }),
  });
}
