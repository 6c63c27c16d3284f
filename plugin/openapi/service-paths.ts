// The plugin's other routes in the document: the document itself, the admin UI's metadata
// (`_meta`, `_meta/{collection}`) when the admin is on, and `_explain/{collection}` when explain is on.

import type { ResolvedOptions } from '../options';
import type { Catalog } from '../schema';
import type { JsonSchema } from './value-forms';

const ref = (kind: string, name: string): JsonSchema => ({ $ref: `#/components/${kind}/${name}` });
const strings = { type: 'array', items: { type: 'string' } };

/** The responses of a JSON route: 200 with `schema`, and the problems it can answer. */
function responses(options: ResolvedOptions, schema: JsonSchema, notFound: boolean, badRequest = false): JsonSchema {
  return {
    200: { description: 'OK', content: { 'application/json': { schema } } },
    304: ref('responses', 'NotModified'),
    ...(badRequest ? { 400: ref('responses', 'BadRequest') } : {}),
    ...(options.authorize === undefined ? {} : { 401: ref('responses', 'Unauthorized'), 403: ref('responses', 'Forbidden') }),
    ...(notFound ? { 404: ref('responses', 'NotFound') } : {}),
    503: ref('responses', 'ServiceUnavailable'),
  };
}

const collectionParameter = (catalog: Catalog): JsonSchema => ({
  name: 'collection',
  in: 'path',
  required: true,
  description: 'A collection name; any other name is a 404 `UNKNOWN_COLLECTION`.',
  schema: { type: 'string', enum: [...catalog.keys()] },
  example: [...catalog.keys()][0],
});

const metaSchema = {
  type: 'object',
  description: 'The collections and where the OpenAPI document is; `explain` tells whether this client may use `_explain`.',
  required: ['collections', 'prefix', 'openapi', 'explain'],
  properties: { collections: strings, prefix: { type: 'string' }, openapi: { type: 'string' }, explain: { type: 'boolean' } },
};

const collectionMetaSchema = {
  type: 'object',
  description: "What the admin UI may offer for one collection: its fields with their types, each modifier's fields, relations and limits.",
  required: ['name', 'path', 'fields', 'projectable', 'sortable', 'searchable', 'filterable', 'operators', 'pagination', 'relations'],
  properties: {
    name: { type: 'string' },
    path: { type: 'string' },
    fields: { type: 'array', items: { type: 'object', required: ['name', 'type', 'nullable'] } },
    projectable: strings,
    sortable: strings,
    searchable: strings,
    filterable: strings,
    operators: strings,
    pagination: { type: 'object' },
    relations: { type: 'array', items: { type: 'object' } },
  },
};

const explainSchema = {
  type: 'object',
  description: 'The statements the request runs, with their bindings; with `explain=plan` also their plans.',
  required: ['statements'],
  properties: {
    statements: {
      type: 'array',
      items: { type: 'object', required: ['sql', 'bindings'], properties: { sql: { type: 'string' }, bindings: { type: 'array' } } },
    },
    plan: { type: 'array' },
    search: { type: 'array', items: { type: 'object' } },
  },
};

function get(
  operationId: string,
  summary: string,
  options: ResolvedOptions,
  schema: JsonSchema,
  notFound: boolean,
  badRequest = false,
): JsonSchema {
  return { get: { operationId, tags: ['service'], summary, responses: responses(options, schema, notFound, badRequest) } };
}

/** `<prefix>/openapi.json`, and with the admin `<prefix>/_meta`, `<prefix>/_meta/{collection}`, `<prefix>/_explain/{collection}`. */
export function servicePaths(catalog: Catalog, options: ResolvedOptions): Record<string, JsonSchema> {
  const { prefix, admin } = options;
  const paths: Record<string, JsonSchema> = {
    [`${prefix}/openapi.json`]: get('openapi', 'This document', options, { type: 'object', required: ['openapi', 'info', 'paths'] }, false),
  };
  if (admin === undefined) return paths;
  paths[`${prefix}/_meta`] = get('meta', 'The collections, for the admin UI', options, metaSchema, false);
  paths[`${prefix}/_meta/{collection}`] = {
    parameters: [collectionParameter(catalog)],
    ...get('meta_collection', 'What one collection accepts, for the admin UI', options, collectionMetaSchema, true),
  };
  if (admin.explain) {
    paths[`${prefix}/_explain/{collection}`] = {
      parameters: [
        collectionParameter(catalog),
        {
          name: 'explain',
          in: 'query',
          required: false,
          description:
            "`plan` adds PostgreSQL's plans. Every other parameter is the collection's own, as documented on `<prefix>/<collection>`; " +
            'a request the collection refuses is refused here with the same 400.',
          schema: { type: 'string', enum: ['plan'] },
          example: 'plan',
        },
      ],
      ...get('explain', 'The SQL a collection request runs (admin.explain)', options, explainSchema, true, true),
    };
  }
  return paths;
}
