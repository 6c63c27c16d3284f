// The component schemas: one record schema per collection and per expandable relation at each depth
// (built from the column types), the page envelopes, and the problem+json body with every stable code.

import { maxDetailLength, maxErrorsBytes, maxListedProblems, problemCodes, problemTypeBase } from '../errors';
import type { CollectionCatalog, RelationCatalog, ScopeCatalog } from '../schema';
import { rankProperties } from './ranked';
import { columnSchema } from './record-schemas';
import { cursorPageSchema } from './cursors';
import { withSummaries } from './summaries';
import { simplePageSchema } from './totals';
import type { JsonSchema } from './value-forms';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Component names: collections cannot contain a dot, so these never collide. */
export const schemaNames = {
  record: (collection: string): string => `record.${collection}`,
  /** `path` is the owner's: `users` for `record.users.posts`, `users.posts` for `record.users.posts.comments`. */
  relation: (path: string, relation: string): string => `record.${path}.${relation}`,
  page: (collection: string): string => `page.${collection}`,
  simplePage: (collection: string): string => `simple-page.${collection}`,
  cursorPage: (collection: string): string => `cursor-page.${collection}`,
};

function scopeProperties(scope: ScopeCatalog): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const name of scope.projectable) {
    const column = scope.columns.get(name);
    const schema = column === undefined ? {} : columnSchema(column);
    // A declared label (`getFieldLabels()`) is the field's title, as the admin UI shows it.
    const title = scope.fieldLabels?.get(name);
    properties[name] = title === undefined ? schema : { title, ...schema };
  }
  return properties;
}

function recordSchema(scope: ScopeCatalog, description: string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    description,
    properties: { ...scopeProperties(scope), ...extra },
    // Every field is optional: `fields` and `fields!` choose which ones a response carries.
    additionalProperties: false,
  };
}

/**
 * The record schema of each relation under `path`, with the relations nested in it while the depth
 * cap allows (docs/query-language.md, "Nested expansion"), added to `schemas`; returns the
 * properties they add to the owner.
 */
function relationSchemas(
  path: string,
  relations: ReadonlyMap<string, RelationCatalog>,
  levelsLeft: number,
  schemas: Record<string, JsonSchema>,
): Record<string, JsonSchema> {
  const embedded: Record<string, JsonSchema> = {};
  const owner = path.slice(path.lastIndexOf('.') + 1);
  const key = (relation: string) => (path.includes('.') ? `<alias>_expand[${relation}]` : `expand[${relation}]`);
  // At the root, counts come after the fields and before the expansions
  // (docs/query-language.md, "Counting related records").
  if (!path.includes('.')) {
    for (const relation of relations.values()) {
      if (relation.cardinality === 'many') {
        embedded[`${relation.name}_count`] = {
          type: 'integer',
          minimum: 0,
          description: `Present with \`count[${relation.name}]\`: the number of related ${relation.name} records (satisfying the alias's conditions when it has one).`,
        };
      }
    }
  }
  for (const relation of relations.values()) {
    const name = schemaNames.relation(path, relation.name);
    const nested = levelsLeft > 1 ? relationSchemas(`${path}.${relation.name}`, relation.relations, levelsLeft - 1, schemas) : {};
    schemas[name] = recordSchema(relation.scope, `A ${relation.name} record embedded in a ${owner} record.`, nested);
    embedded[relation.name] =
      relation.cardinality === 'many'
        ? { type: 'array', items: ref(name), description: `Present with \`${key(relation.name)}\`.` }
        : { oneOf: [ref(name), { type: 'null' }], description: `Present with \`${key(relation.name)}\`; null when there is none.` };
  }
  return embedded;
}

/** `record.users`, `record.users.posts`, `record.users.posts.comments` (to the depth cap) and `page.users`. */
export function collectionSchemas(collection: CollectionCatalog, maxExpandDepth: number): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const embedded = { ...rankProperties(collection), ...relationSchemas(collection.name, collection.relations, maxExpandDepth, schemas) };
  schemas[schemaNames.record(collection.name)] = recordSchema(
    collection,
    `A ${collection.name} record: the projectable fields (all unless \`fields\` or \`fields!\` choose), the requested counts and the expanded relations.`,
    embedded,
  );
  const record = ref(schemaNames.record(collection.name));
  schemas[schemaNames.page(collection.name)] = withSummaries(pageSchema(record), collection);
  schemas[schemaNames.simplePage(collection.name)] = withSummaries(simplePageSchema(record), collection);
  schemas[schemaNames.cursorPage(collection.name)] = withSummaries(cursorPageSchema(record), collection);
  return schemas;
}

// Page URLs repeat the query string as the client sent it (brackets may be unencoded), so no `format: uri`.
const url = { type: 'string', description: 'An absolute URL.' };
const urlOrNull = { type: ['string', 'null'], description: 'An absolute URL, or null.' };
const countOrNull = { type: ['integer', 'null'], minimum: 1 };

function pageSchema(record: JsonSchema): JsonSchema {
  const properties = {
    current_page: { type: 'integer', minimum: 1 },
    data: { type: 'array', items: record },
    first_page_url: url,
    from: countOrNull,
    last_page: { type: 'integer', minimum: 1 },
    last_page_url: url,
    links: { type: 'array', items: ref('PageLink') },
    next_page_url: urlOrNull,
    path: url,
    per_page: { type: 'integer', minimum: 1 },
    prev_page_url: urlOrNull,
    to: countOrNull,
    total: { type: 'integer', minimum: 0 },
  };
  return {
    type: 'object',
    description: 'The pagination envelope (Laravel paginator format), returned when `page`, `per-page` or `page-size` is present.',
    required: Object.keys(properties),
    // Present (last) only with `total=estimated`
    // (docs/query-language.md, "Totals: total=exact, estimated, none").
    properties: {
      ...properties,
      total_is_estimate: { type: 'boolean', description: "With `total=estimated` only: whether `total` is the planner's estimate." },
    },
    additionalProperties: false,
  };
}

/** The schemas every document has: `PageLink`, `Problem`, `ProblemItem`. */
export function sharedSchemas(): Record<string, JsonSchema> {
  const codes = Object.keys(problemCodes);
  const allowed = {
    description: "The allowed values (fields, relations, an enum's labels) or the limit that applies.",
    oneOf: [{ type: 'array', items: { type: ['string', 'number'] } }, { type: 'number' }],
  };
  const code = { type: 'string', enum: codes, description: 'A stable code; see docs/errors.md.' };
  return {
    PageLink: {
      type: 'object',
      required: ['url', 'label', 'active'],
      properties: { url: urlOrNull, label: { type: 'string' }, active: { type: 'boolean' } },
      additionalProperties: false,
    },
    ProblemItem: {
      type: 'object',
      required: ['code', 'detail'],
      properties: {
        code,
        parameter: { type: 'string', description: 'The query key exactly as sent, e.g. `filter[or bogus]`.' },
        detail: { type: 'string', maxLength: maxDetailLength },
        allowed,
        allowed_from: {
          type: 'integer',
          minimum: 0,
          description: 'Instead of `allowed`: the index in `errors` of the entry holding the same list.',
        },
      },
      additionalProperties: false,
    },
    Problem: {
      type: 'object',
      description:
        'An RFC 9457 problem. Top-level `code`, `parameter`, `detail` and `allowed` are those of the first problem; ' +
        `\`errors\` (400 only) lists the problems found, in query-string order: at most ${maxListedProblems}, and no more than ${maxErrorsBytes / 1024} KB of them ` +
        '(the first always), and `errors_omitted` counts the rest.',
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: {
        type: { type: 'string', format: 'uri', description: `\`${problemTypeBase}<code in lower kebab case>\`` },
        title: { type: 'string' },
        status: { type: 'integer', enum: [...new Set(Object.values(problemCodes).map((c) => c.status))] },
        detail: { type: 'string', maxLength: maxDetailLength },
        code,
        parameter: { type: 'string' },
        allowed,
        errors: { type: 'array', maxItems: maxListedProblems, items: ref('ProblemItem') },
        errors_omitted: { type: 'integer', minimum: 1, description: 'How many problems were found beyond those in `errors`.' },
      },
      additionalProperties: false,
    },
  };
}
