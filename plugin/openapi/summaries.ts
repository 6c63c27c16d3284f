// What facets and stats (docs/query-language.md, Facets and stats) add to the document: the `facet`
// and `stats` families with one key per field they take, `facet_limit`, and the typed `facets` and
// `stats` objects of each collection's envelopes.

import { elementOf, type CollectionCatalog, type Column } from '../schema';
import { dateBuckets } from '../syntax';
import { bucketKind, defaultFacetLimit, facetable, maxFacetLimit, maxSummaries, statsable } from '../validate';
import { family, query, type Parameter } from './parameters';
import { columnSchema } from './record-schemas';
import type { JsonSchema } from './value-forms';

const widthPattern = '^(?:[0-9]+(?:\\.[0-9]+)?)?$';

function filterableColumns(collection: CollectionCatalog, test: (column: Column) => boolean): Column[] {
  return collection.filterable.flatMap((name) => {
    const column = collection.columns.get(name);
    return column !== undefined && test(column) ? [column] : [];
  });
}

/** The value a facet key takes: empty, a date bucket, or a width, as the field's type allows. */
function bucketSchema(column: Column): JsonSchema {
  switch (bucketKind(column)) {
    case 'date':
      return { type: 'string', enum: ['', ...dateBuckets] };
    case 'width':
      return { type: 'string', pattern: widthPattern };
    case undefined:
      return { type: 'string', enum: [''] };
  }
}

/** `facet`, `stats` and `facet_limit` for one collection; none when no field takes them. */
export function summaryParameters(collection: CollectionCatalog): Parameter[] {
  const facets = filterableColumns(collection, facetable);
  const stats = filterableColumns(collection, statsable);
  const envelope = 'Needs a page or cursor envelope (a 400 otherwise).';
  const params = [
    family(
      'facet',
      "Count the values of a field under every condition of the request except the field's own clauses: " +
        '`facet[<field>]` (most frequent first), `facet[<date field>]=day|week|month|year` (UTC buckets), ' +
        `\`facet[<number field>]=<width>\` (buckets by lower bound). Adds \`facets\` to the envelope. ${envelope} ` +
        `At most ${maxSummaries} facets and stats together.`,
      facets.map((column) => ({
        key: column.name,
        description: `Count the values of \`${column.name}\`.`,
        schema: bucketSchema(column),
        example: '',
      })),
    ),
    family(
      'stats',
      `\`stats[<field>]\`: min, max (and for numbers avg, sum) of a field under the request's conditions except its own clauses. Adds \`stats\` to the envelope. ${envelope}`,
      stats.map((column) => ({
        key: column.name,
        description: `Summarise \`${column.name}\`.`,
        schema: { type: 'string', enum: [''] },
        example: '',
      })),
    ),
  ];
  if (facets.length > 0) {
    params.push(
      query(
        'facet_limit',
        `How many values each facet lists (default ${defaultFacetLimit}); needs a \`facet\`.`,
        { type: 'integer', minimum: 1, maximum: maxFacetLimit, default: defaultFacetLimit },
        defaultFacetLimit,
      ),
    );
  }
  return params.filter((p): p is Parameter => p !== undefined);
}

/** A facet's value: the field's (an array's element's) value, or a date bucket's first day. */
function facetValueSchema(column: Column): JsonSchema {
  const value = columnSchema({ ...(column.type === 'array' ? elementOf(column) : column), nullable: true });
  if (bucketKind(column) !== 'date') return value;
  return { oneOf: [value, { type: 'string', format: 'date', description: "A bucket's first day." }] };
}

/** The `facets` and `stats` properties of `collection`'s envelopes; empty when no field takes them. */
export function summaryProperties(collection: CollectionCatalog): Record<string, JsonSchema> {
  const facets = filterableColumns(collection, facetable);
  const stats = filterableColumns(collection, statsable);
  const properties: Record<string, JsonSchema> = {};
  if (facets.length > 0) {
    const counted = (column: Column): JsonSchema => ({
      type: 'array',
      items: {
        type: 'object',
        required: ['value', 'count'],
        properties: { value: facetValueSchema(column), count: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
      maxItems: maxFacetLimit,
    });
    properties.facets = {
      type: 'object',
      description: 'With `facet[...]`: per field, its values (or buckets) and how many records have each.',
      properties: Object.fromEntries(facets.map((column) => [column.name, counted(column)])),
      additionalProperties: false,
    };
  }
  if (stats.length > 0) {
    const summary = (column: Column): JsonSchema => {
      const value = columnSchema({ ...column, nullable: true });
      const numeric = bucketKind(column) === 'width';
      const number = column.type === 'numeric' ? value : { type: ['number', 'string', 'null'] };
      return {
        type: 'object',
        required: numeric ? ['min', 'max', 'avg', 'sum'] : ['min', 'max'],
        properties: { min: value, max: value, ...(numeric ? { avg: number, sum: number } : {}) },
        additionalProperties: false,
      };
    };
    properties.stats = {
      type: 'object',
      description: 'With `stats[...]`: per field, its min and max (and for numbers avg and sum); null without records.',
      properties: Object.fromEntries(stats.map((column) => [column.name, summary(column)])),
      additionalProperties: false,
    };
  }
  return properties;
}

/** An envelope schema with `facets` and `stats` after its own properties. */
export function withSummaries(envelope: JsonSchema, collection: CollectionCatalog): JsonSchema {
  const own = envelope.properties as Record<string, JsonSchema>;
  return { ...envelope, properties: { ...own, ...summaryProperties(collection) } };
}
