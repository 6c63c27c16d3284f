// Describes collections for the admin UI (and later OpenAPI): which fields, operators, relations and
// limits the API accepts, read from the catalog, so the UI never offers what the API would refuse.

import type { ResolvedOptions } from '../options';
import type { CollectionCatalog, RelationCatalog, ScopeCatalog } from '../schema';
import type { Column } from '../schema';
import { dateBuckets, operators, sortWordList, totalModes } from '../syntax';
import { bucketKind, defaultFacetLimit, defaultTotalMode, facetable, maxFacetLimit, maxSummaries, statsable } from '../validate';
import { describeRankedSearch } from './ranked-meta';

/**
 * What `facet` and `stats` take (docs/query-language.md, Facets and stats): the filterable fields
 * they may name, which of them take a date bucket or a width, and the limits.
 */
function describeSummary(collection: CollectionCatalog) {
  const columns = collection.filterable.flatMap((name) => {
    const column = collection.columns.get(name);
    return column === undefined ? [] : [column];
  });
  const names = (test: (column: Column) => boolean) => columns.filter(test).map((c) => c.name);
  return {
    facetable: names(facetable),
    dateBuckets: { fields: names((c) => bucketKind(c) === 'date'), buckets: [...dateBuckets] },
    widthBuckets: names((c) => bucketKind(c) === 'width'),
    statsable: names(statsable),
    facetLimit: { default: defaultFacetLimit, max: maxFacetLimit },
    maxFacetsAndStats: maxSummaries,
  };
}

function describeScope(scope: ScopeCatalog) {
  return {
    fields: scope.projectable.map((name) => {
      const column = scope.columns.get(name);
      // Enum labels (of the field or of an array's elements) and the element type let the UI offer valid values.
      return {
        name,
        type: column?.type ?? 'other',
        nullable: column?.nullable ?? true,
        // `getFieldLabels()` (docs/configuration.md, "Field labels"): what the admin UI calls the field.
        ...(scope.fieldLabels?.has(name) === true ? { label: scope.fieldLabels.get(name) } : {}),
        ...(column?.labels === undefined ? {} : { labels: column.labels }),
        ...(column?.elementType === undefined ? {} : { elementType: column.elementType }),
      };
    }),
    projectable: scope.projectable,
    sortable: scope.sortable,
    searchable: scope.searchable,
    filterable: scope.filterable,
    ...describeRankedSearch(scope),
  };
}

/**
 * Each relation with what its alias allows, and the relations `<alias>_expand[...]` may name under it
 * as deep as `limits.maxExpandDepth` allows (docs/query-language.md, "Nested expansion"); empty at
 * the last level.
 */
function describeRelations(relations: ReadonlyMap<string, RelationCatalog>, levelsLeft: number): unknown[] {
  return [...relations.values()].map((relation) => ({
    name: relation.name,
    kind: relation.kind,
    cardinality: relation.cardinality,
    ...describeScope(relation.scope),
    relations: levelsLeft > 1 ? describeRelations(relation.relations, levelsLeft - 1) : [],
  }));
}

/**
 * What the root reaches through its relations (docs/query-language.md, "Relations in conditions"):
 * the dot paths each modifier takes (sort only through to-one relations), the relations `has`
 * takes, and those `count` takes.
 */
function describeRelated(collection: CollectionCatalog) {
  const relations = [...collection.relations.values()];
  const paths = (list: 'filterable' | 'searchable' | 'sortable') =>
    relations
      .filter((r) => list !== 'sortable' || r.cardinality === 'one')
      .flatMap((r) => r.scope[list].map((field) => `${r.name}.${field}`));
  return {
    filterable: paths('filterable'),
    searchable: paths('searchable'),
    sortable: paths('sortable'),
    has: relations.map((r) => r.name),
    countable: relations.filter((r) => r.cardinality === 'many').map((r) => r.name),
  };
}

/** `users` -> `{name: 'users', path: '/api/users', fields: [...], relations: [{name: 'posts', ...}], ...}` */
export function describeCollection(collection: CollectionCatalog, options: ResolvedOptions) {
  return {
    name: collection.name,
    path: `${options.prefix}/${collection.name}`,
    ...describeScope(collection),
    operators: [...operators],
    logical: ['and', 'or', 'and!', 'or!'],
    sortDirections: { asc: sortWordList.slice(0, 3), desc: sortWordList.slice(3) },
    pagination: {
      defaultPageSize: options.defaultPageSize,
      maxPageSize: options.maxPageSize,
      total: defaultTotalMode(options, collection.name),
      totalModes: [...totalModes],
      estimateAbove: options.estimateAbove,
      // `cursor` pages by keyset (docs/query-language.md, "Cursors: cursor"), with the same page
      // sizes and no total.
      modes: ['page', 'cursor'],
    },
    maxRows: options.maxRows,
    // docs/query-language.md, "Export as CSV": `format=csv` (or `Accept: text/csv`); without page parameters, at most this many records.
    export: { formats: ['csv'], maxExportRows: options.maxExportRows },
    maxExpansions: options.maxExpansions,
    maxExpandDepth: options.maxExpandDepth,
    related: describeRelated(collection),
    summary: describeSummary(collection),
    relations: describeRelations(collection.relations, options.maxExpandDepth),
  };
}
