// What a choice of totals (docs/query-language.md, "Totals: total=exact, estimated, none") adds to
// the document: the `total` parameter with the collection's default, and Laravel's simple paginator
// envelope that `total=none` returns.

import type { ResolvedOptions } from '../options';
import { plannerEstimatesFor } from '../page-total';
import type { CollectionCatalog } from '../schema';
import { totalModes } from '../syntax';
import { defaultTotalMode } from '../validate';
import type { JsonSchema } from './value-forms';

/** `total` for one collection: its schema's default is the collection's default mode. */
export function totalParameter(collection: CollectionCatalog, options: ResolvedOptions): JsonSchema {
  const mode = defaultTotalMode(options, collection.name);
  const past = plannerEstimatesFor(options, collection.name)
    ? "PostgreSQL's planner estimate (never below that number plus one)"
    : `${options.estimateAbove + 1}, a lower bound (the planner's estimate would count records hidden from this client)`;
  return {
    name: 'total',
    in: 'query',
    required: false,
    description:
      `How a page envelope gets its total (default here: \`${mode}\`). \`exact\` counts every matching record. ` +
      `\`estimated\` counts up to ${options.estimateAbove} matching records and past that gives ${past}; ` +
      'the envelope then ends with `total_is_estimate`. `none` returns the simple ' +
      'envelope (no `total`, `last_page`, `last_page_url` or `links`) without counting. Ignored without page parameters; ' +
      'any other value is a 400.',
    schema: { type: 'string', enum: [...totalModes], default: mode },
    example: 'estimated',
  };
}

// Page URLs repeat the query string as the client sent it (brackets may be unencoded), so no `format: uri`.
const url = { type: 'string', description: 'An absolute URL.' };
const urlOrNull = { type: ['string', 'null'], description: 'An absolute URL, or null.' };
const countOrNull = { type: ['integer', 'null'], minimum: 1 };

/** Laravel's simple paginator envelope, for `total=none`. */
export function simplePageSchema(record: JsonSchema): JsonSchema {
  const properties = {
    current_page: { type: 'integer', minimum: 1 },
    data: { type: 'array', items: record },
    first_page_url: url,
    from: countOrNull,
    next_page_url: { ...urlOrNull, description: 'The next page, or null when no record lies past this page.' },
    path: url,
    per_page: { type: 'integer', minimum: 1 },
    prev_page_url: urlOrNull,
    to: countOrNull,
  };
  return {
    type: 'object',
    description: 'The simple pagination envelope (Laravel simplePaginate format), returned with `total=none`: no total is counted.',
    required: Object.keys(properties),
    properties,
    additionalProperties: false,
  };
}
