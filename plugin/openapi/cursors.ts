// What cursor pagination (docs/query-language.md, "Cursors: cursor") adds to the document: the `cursor` parameter and Laravel's cursor
// paginator envelope it returns.

import type { JsonSchema } from './value-forms';

/** `cursor`, shared by every collection (`components.parameters`). */
export const cursorParameter: JsonSchema = {
  name: 'cursor',
  in: 'query',
  required: false,
  allowEmptyValue: true,
  description:
    'Keyset pagination: empty for the first page, otherwise a `next_cursor` or `prev_cursor` exactly as given; the ' +
    'response is the cursor envelope. The page size follows `per-page`. Not with `page`, `limit`, `offset` or `total`. A cursor ' +
    'is opaque: sealed (encrypted and authenticated) by the server for one collection and sort, so it can be neither read nor ' +
    'made. One that was changed, was made for another collection or sort, or was sealed with a secret the server no longer ' +
    'has (a restart or another instance without a shared secret) is a 400 `INVALID_CURSOR`: start again with an empty `cursor`.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]*$' },
  example: '',
};

const cursorOrNull = { type: ['string', 'null'], pattern: '^[A-Za-z0-9_-]+$' };
// Page URLs repeat the query string as the client sent it (brackets may be unencoded), so no `format: uri`.
const urlOrNull = { type: ['string', 'null'], description: 'An absolute URL, or null.' };

/** Laravel's cursor paginator envelope, for `cursor=...`. */
export function cursorPageSchema(record: JsonSchema): JsonSchema {
  const properties = {
    data: { type: 'array', items: record },
    path: { type: 'string', description: 'An absolute URL.' },
    per_page: { type: 'integer', minimum: 1 },
    next_cursor: {
      ...cursorOrNull,
      description: 'The (opaque, sealed) cursor of the next page, or null when no record lies past this page.',
    },
    next_page_url: { ...urlOrNull, description: 'This request with `cursor` replaced by `next_cursor`, or null.' },
    prev_cursor: {
      ...cursorOrNull,
      description: 'The (opaque, sealed) cursor of the previous page, or null when no record lies before this page.',
    },
    prev_page_url: { ...urlOrNull, description: 'This request with `cursor` replaced by `prev_cursor`, or null.' },
  };
  return {
    type: 'object',
    description: 'The cursor pagination envelope (Laravel cursorPaginate format), returned with `cursor`: no page numbers, no total.',
    required: Object.keys(properties),
    properties,
    additionalProperties: false,
  };
}
