// Assembles the OpenAPI 3.1 document of the collection routes from the catalog and the resolved
// options only (no database): one path per collection, its parameters, responses and schemas.

import type { ResolvedOptions } from '../options';
import type { CollectionCatalog, Catalog } from '../schema';
import { collectionParameters } from './families';
import { pagingParameters } from './parameters';
import { servicePaths } from './service-paths';
import { collectionSchemas, schemaNames, sharedSchemas } from './schemas';
import { cachingFor } from '../cache-headers';
import type { JsonSchema } from './value-forms';

export interface OpenApiInfo {
  readonly title?: string;
  readonly version?: string;
  readonly description?: string;
}

export type OpenApiDocument = { readonly openapi: string; readonly [key: string]: unknown };

const ref = (kind: string, name: string): JsonSchema => ({ $ref: `#/components/${kind}/${name}` });

const problemContent = { 'application/problem+json': { schema: ref('schemas', 'Problem') } };

function problemResponse(description: string, headers?: JsonSchema): JsonSchema {
  return { description, ...(headers === undefined ? {} : { headers }), content: problemContent };
}

/** Responses every collection operation can give besides 200, as `components.responses`. */
function sharedResponses(options: ResolvedOptions): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {
    NotModified: {
      description: 'Not modified: the representation matches `If-None-Match`.',
      headers: { ETag: { schema: { type: 'string' } } },
    },
    BadRequest: problemResponse('A query parameter is malformed, not allowed, or over a limit; `errors` lists every problem.'),
    NotFound: problemResponse('Unknown collection.'),
    ServiceUnavailable: problemResponse(
      'SERVICE_UNAVAILABLE: the database is not answering or a statement timed out. SERVER_BUSY: the server is running as ' +
        'many expensive requests as it allows and this one waited too long for a turn. Retry after `Retry-After` seconds.',
      {
        'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 1 } },
      },
    ),
  };
  if (options.authorize !== undefined) {
    responses.Unauthorized = problemResponse('Authentication is required.', { 'WWW-Authenticate': { schema: { type: 'string' } } });
    responses.Forbidden = problemResponse('The request may not read this collection.');
  }
  return responses;
}

function okResponse(collection: CollectionCatalog, options: ResolvedOptions): JsonSchema {
  return {
    description:
      `A bare array of ${collection.name} records (at most ${options.maxRows}), or the page envelope when a ` +
      'page parameter is present (the simple page envelope with `total=none`, the cursor envelope with `cursor`).',
    headers: {
      ETag: { description: 'A weak validator of the representation.', schema: { type: 'string' } },
      'Cache-Control': {
        description: 'Who may keep the answer and how long; `private` where the answer depends on who asks.',
        schema: { type: 'string', example: cachingFor(options, collection.name).cacheControl },
      },
      Vary: {
        description: 'The request headers the answer depends on: `Accept` unless `format` chose the format.',
        schema: { type: 'string', example: [...options.vary, 'Accept'].join(', ') },
      },
      'Content-Disposition': {
        description: 'On a CSV answer only: `attachment; filename="<collection>.csv"`.',
        schema: { type: 'string', example: `attachment; filename="${collection.name}.csv"` },
      },
      'X-Result-Truncated': {
        description: `\`true\` when a bare array was cut at ${options.maxRows} records; paginate or narrow the query.`,
        schema: { type: 'string', enum: ['true'] },
      },
      ...(options.serverTiming
        ? {
            'Server-Timing': {
              description: 'Milliseconds spent parsing, querying and serializing (`parse;dur=0.12, query;dur=1.50, serialize;dur=0.08`).',
              schema: { type: 'string' },
            },
          }
        : {}),
    },
    content: {
      'application/json': {
        schema: {
          oneOf: [
            { type: 'array', items: ref('schemas', schemaNames.record(collection.name)) },
            ref('schemas', schemaNames.page(collection.name)),
            ref('schemas', schemaNames.simplePage(collection.name)),
            ref('schemas', schemaNames.cursorPage(collection.name)),
          ],
        },
      },
      // docs/query-language.md, "Export as CSV": the same records, chosen by `format=csv` or `Accept: text/csv`.
      'text/csv': {
        schema: { type: 'string', description: 'RFC 4180 CSV: a header row of the field names, then one line per record.' },
      },
    },
  };
}

function operation(collection: CollectionCatalog, options: ResolvedOptions, method: 'get' | 'head'): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    200: okResponse(collection, options),
    304: ref('responses', 'NotModified'),
    400: ref('responses', 'BadRequest'),
    ...(options.authorize === undefined ? {} : { 401: ref('responses', 'Unauthorized'), 403: ref('responses', 'Forbidden') }),
    404: ref('responses', 'NotFound'),
    503: ref('responses', 'ServiceUnavailable'),
  };
  const relations = [...collection.relations.keys()];
  return {
    operationId: `${method === 'get' ? 'list' : 'head'}_${collection.name}`,
    tags: [collection.name],
    summary: method === 'get' ? `List ${collection.name}` : `Headers of the ${collection.name} list`,
    description:
      `Read ${collection.name} records shaped by query modifiers (see docs/query-language.md). ` +
      `Expandable relations: ${relations.length === 0 ? 'none' : relations.join(', ')}. ` +
      'Keys that are not modifiers are ignored; a malformed modifier key is a 400.',
    responses,
  };
}

/**
 * `buildOpenApiDocument(catalog, options)` -> `{openapi: '3.1.0', paths: {'/api/users': {get: ...}}, ...}`:
 * one GET (and HEAD) path per collection with every modifier parameter its declarations allow.
 */
export function buildOpenApiDocument(catalog: Catalog, options: ResolvedOptions, info: OpenApiInfo = {}): OpenApiDocument {
  const paths: Record<string, JsonSchema> = {};
  const schemas: Record<string, JsonSchema> = {};
  for (const collection of catalog.values()) {
    paths[`${options.prefix}/${collection.name}`] = {
      parameters: collectionParameters(collection, options),
      get: operation(collection, options, 'get'),
      head: operation(collection, options, 'head'),
    };
    Object.assign(schemas, collectionSchemas(collection, options.maxExpandDepth));
  }
  Object.assign(paths, servicePaths(catalog, options));
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Collections API',
      version: info.version ?? '1.0.0',
      description:
        info.description ??
        'Read-only collection routes served by koa-query-modifiers: filter, in, between, search, fields, sort, expand and pagination.',
    },
    tags: [
      ...[...catalog.keys()].map((name) => ({ name })),
      { name: 'service', description: 'The document itself and the admin UI metadata.' },
    ],
    paths,
    components: {
      schemas: { ...schemas, ...sharedSchemas() },
      parameters: pagingParameters(options),
      responses: sharedResponses(options),
    },
  };
}
