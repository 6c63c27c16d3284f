// Validates `facet[...]`, `stats[...]` and `facet_limit` (docs/query-language.md, Facets and stats):
// a visible, filterable root field of a type the modifier has a meaning for, a bucket fitting that
// type, an envelope to carry them, and for each the request's conditions without the clauses on
// that field, validated again as if those clauses had not been written.

import { problem, type Problem } from '../errors';
import type { CollectionCatalog, Column } from '../schema';
import type { ClauseFamily, FacetBucket, QueryDescription, ScopeDescription } from '../syntax';
import { clauseFamilies } from '../syntax';
import type { ConditionGroup, RelationJoin, ValidatedBucket, ValidatedPaging, ValidatedSummary, ValidatedScope } from './types';
import { typeWords } from './values';

export const defaultFacetLimit = 10;
export const maxFacetLimit = 100;
/** Facets and stats of one request together: each is one more aggregate of its statement. */
export const maxSummaries = 20;

const numberTypes: ReadonlySet<string> = new Set(['smallint', 'integer', 'bigint', 'numeric', 'float']);
const integerTypes: ReadonlySet<string> = new Set(['smallint', 'integer', 'bigint']);
const dateTypes: ReadonlySet<string> = new Set(['date', 'timestamp', 'timestamptz']);
/** Types without equality a group can use, or read by the model alone. */
const notGrouped: ReadonlySet<string> = new Set(['json', 'other', 'virtual']);

/** What validating the root's conditions again needs: its scope validated without some clauses. */
export type ConditionsWithout = (field: string) => { groups: readonly ConditionGroup[]; joins: readonly RelationJoin[] };

/** The root's description without the clauses on `field`; undefined when it has none. */
export function withoutField(root: ScopeDescription, field: string): ScopeDescription | undefined {
  const on = (family: ClauseFamily) => root.clauses[family].filter((c) => c.field !== field);
  const clauses = { filter: on('filter'), in: on('in'), between: on('between') };
  const kept = clauses.filter.length + clauses.in.length + clauses.between.length;
  const all = clauseFamilies.reduce((n, family) => n + root.clauses[family].length, 0);
  return kept === all ? undefined : { ...root, clauses };
}

/** Whether a field's values (an array's elements) can be counted by `facet`. */
export const facetable = (column: Column): boolean =>
  !notGrouped.has(column.type === 'array' ? (column.elementType ?? 'other') : column.type);

/** The bucket kind a field takes: `date` (day, week, month, year), `width`, or none. */
export function bucketKind(column: Column): 'date' | 'width' | undefined {
  const type = column.type === 'array' ? (column.elementType ?? 'other') : column.type;
  if (dateTypes.has(type)) return 'date';
  return numberTypes.has(type) ? 'width' : undefined;
}

/** Whether `stats` takes the field: a number, date or timestamp. */
export const statsable = (column: Column): boolean => numberTypes.has(column.type) || dateTypes.has(column.type);

function fieldOf(collection: CollectionCatalog, name: string, parameter: string, problems: Problem[]): Column | undefined {
  const column = collection.columns.get(name);
  if (column !== undefined && collection.filterable.includes(name)) return column;
  const none = collection.filterable.length === 0 ? '; no field can' : '';
  problems.push(
    problem(
      'FIELD_NOT_ALLOWED',
      parameter,
      `\`${parameter}\`: "${name}" cannot be counted or summarised in ${collection.label}${none}`,
      collection.filterable,
    ),
  );
  return undefined;
}

function wrongType(parameter: string, column: Column, what: string): Problem {
  return problem('INVALID_VALUE', parameter, `\`${parameter}\`: ${what} (field ${column.name} is ${typeWords(column)})`);
}

/** The bucket, or the problem with it. */
function bucketOf(bucket: FacetBucket, column: Column, parameter: string): ValidatedBucket | Problem {
  const type = column.type === 'array' ? (column.elementType ?? 'other') : column.type;
  if (!facetable(column)) return wrongType(parameter, column, 'a facet counts values that can be compared for equality');
  switch (bucket.kind) {
    case 'value':
      return bucket;
    case 'date':
      return dateTypes.has(type) ? bucket : wrongType(parameter, column, `a ${bucket.unit} bucket is for dates and timestamps`);
    case 'width': {
      if (!numberTypes.has(type)) return wrongType(parameter, column, 'a width is for numbers');
      const width = Number(bucket.width);
      if (integerTypes.has(type) && !Number.isSafeInteger(width)) {
        return wrongType(parameter, column, 'the width of a whole-number field is a whole number');
      }
      return { kind: 'width', width };
    }
  }
}

function checkLimit(summary: QueryDescription['summary'], problems: Problem[]): number {
  const { limit } = summary;
  if (limit === undefined) return defaultFacetLimit;
  if (summary.facets.length === 0) {
    problems.push(problem('MALFORMED_PARAMETER', 'facet_limit', '`facet_limit` needs a facet: add `facet[<field>]`'));
  }
  if (limit > maxFacetLimit) {
    problems.push(
      problem('LIMIT_EXCEEDED', 'facet_limit', `\`facet_limit\` is ${limit}; at most ${maxFacetLimit} values per facet`, maxFacetLimit),
    );
  }
  return limit;
}

/** `facet[status]&stats[score]` on a paginated request -> their fields, buckets and conditions; undefined without any. */
export function validateSummary(
  description: QueryDescription,
  collection: CollectionCatalog,
  paging: ValidatedPaging,
  without: ConditionsWithout,
  problems: Problem[],
): ValidatedSummary | undefined {
  const { summary } = description;
  const limit = checkLimit(summary, problems);
  const first = summary.facets[0] ?? summary.stats[0];
  if (first === undefined) return undefined;
  if (paging.kind === 'rows') {
    problems.push(
      problem(
        'MALFORMED_PARAMETER',
        first.parameter,
        `\`${first.parameter}\` needs a paginated envelope to carry it: add \`page=1\` (or \`per-page\`, \`cursor=\`)`,
      ),
    );
  }
  const items = summary.facets.length + summary.stats.length;
  if (items > maxSummaries) {
    problems.push(
      problem(
        'LIMIT_EXCEEDED',
        first.parameter,
        `The request has ${items} facets and stats; at most ${maxSummaries} are allowed`,
        maxSummaries,
      ),
    );
  }
  const facets = summary.facets.flatMap((facet) => {
    const column = fieldOf(collection, facet.field, facet.parameter, problems);
    if (column === undefined) return [];
    const bucket = bucketOf(facet.bucket, column, facet.parameter);
    if ('code' in bucket) {
      problems.push(bucket);
      return [];
    }
    return [Object.freeze({ kind: 'facet' as const, parameter: facet.parameter, column, bucket, ...without(facet.field) })];
  });
  const stats = summary.stats.flatMap((stat) => {
    const column = fieldOf(collection, stat.field, stat.parameter, problems);
    if (column === undefined) return [];
    if (!statsable(column)) {
      problems.push(wrongType(stat.parameter, column, 'stats are for numbers, dates and timestamps'));
      return [];
    }
    return [Object.freeze({ kind: 'stats' as const, parameter: stat.parameter, column, ...without(stat.field) })];
  });
  return Object.freeze({ facets, stats, limit });
}

/** The root's groups and joins: `own` with the request's `has` groups after it, as the rows statement reads them. */
export const rootConditions = (own: ValidatedScope, has: readonly ConditionGroup[]) => ({
  groups: [...own.groups, ...has],
  joins: own.joins,
});
