// Adds facets and stats (docs/query-language.md, Facets and stats) to a generated page request: any
// filterable field with a bucket its type takes (each value, a UTC date unit, a width fitting the
// number), stats on numbers, dates and timestamps, sometimes `facet_limit`; and now and then a facet
// or stats of a field the model's JSON removes or masks, which both must refuse alike.

import fc from 'fast-check';
import type { CollectionSpec, FieldSpec } from './model';
import type { BucketSpec, QuerySpec, SummarySpec } from './query';
import { refusals } from './reference-refusals';

const DATE_UNITS: readonly BucketSpec[] = ['day', 'week', 'month', 'year'];

function bucketsOf(field: FieldSpec): BucketSpec[] {
  const type = field.type === 'array' ? field.element : field.type;
  if (type === 'date' || type === 'timestamptz') return ['', ...DATE_UNITS];
  if (type === 'integer' || type === 'bigint') return ['', { width: '1' }, { width: '3' }, { width: '10' }, { width: '1000' }];
  if (type === 'numeric') return ['', { width: '0.5' }, { width: '7' }, { width: '25' }, { width: '0.01' }];
  return [''];
}

const statsTypes = new Set(['integer', 'bigint', 'numeric', 'date', 'timestamptz']);

function summaryArb(collection: CollectionSpec): fc.Arbitrary<SummarySpec> {
  const fields = collection.fields.filter((f) => collection.filterable.includes(f.name));
  const facet = fc
    .constantFrom(...fields)
    .chain((field) => fc.record({ field: fc.constant(field.name), bucket: fc.constantFrom(...bucketsOf(field)), bare: fc.boolean() }));
  const statsFields = fields.filter((f) => statsTypes.has(f.type)).map((f) => f.name);
  return (
    fc
      .record({
        // One key per field: a second `facet[x]` would be a duplicate.
        facets: fc.uniqueArray(facet, { maxLength: 5, selector: (f) => f.field }),
        stats: statsFields.length === 0 ? fc.constant([]) : fc.uniqueArray(fc.constantFrom(...statsFields), { maxLength: 3 }),
        limit: fc.option(fc.integer({ min: 1, max: 12 }), { freq: 3 }),
      })
      // `facet_limit` needs a facet.
      .map((summary) => (summary.facets.length === 0 ? { ...summary, limit: null } : summary))
  );
}

/** A field the model's JSON keeps private, faceted or summarised. */
function forbiddenArb(spec: QuerySpec, collection: CollectionSpec, summary: SummarySpec): fc.Arbitrary<SummarySpec> | undefined {
  const names = [...(collection.hidden ?? []), ...(collection.masks?.keys() ?? [])];
  if (names.length === 0) return undefined;
  return fc
    .record({ name: fc.constantFrom(...names), asStats: fc.boolean() })
    .map(({ name, asStats }) =>
      asStats
        ? { ...summary, stats: [...summary.stats.filter((s) => s !== name), name] }
        : { ...summary, facets: [...summary.facets.filter((f) => f.field !== name), { field: name, bucket: '' as const, bare: true }] },
    );
}

/** `spec` with facets and stats when it asks for a page; other requests are left as they are. */
export function withSummary(spec: QuerySpec, collection: CollectionSpec): fc.Arbitrary<QuerySpec> {
  if (spec.paging.kind !== 'page') return fc.constant(spec);
  return fc.oneof(
    { arbitrary: fc.constant(spec), weight: 3 },
    {
      arbitrary: summaryArb(collection).chain((summary) => {
        const forbidden = refusals(spec, collection).length === 0 ? forbiddenArb(spec, collection, summary) : undefined;
        const valid = fc.constant({ ...spec, summary });
        if (forbidden === undefined) return valid;
        return fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: forbidden.map((s) => ({ ...spec, summary: s })), weight: 1 });
      }),
      weight: 2,
    },
  );
}
