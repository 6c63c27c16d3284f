// Owns the shapes of the plugin's metadata endpoints (`GET <prefix>/_meta` and
// `GET <prefix>/_meta/<collection>`, see docs/admin-ui.md, "For developers: the code") and the checks that
// turn JSON into them.

export type FieldType =
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'numeric'
  | 'float'
  | 'text'
  | 'boolean'
  | 'timestamptz'
  | 'timestamp'
  | 'date'
  | 'uuid'
  | 'json'
  | 'enum'
  | 'array'
  | 'other';

export interface FieldMeta {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable: boolean;
  /** What the model calls the field (`getFieldLabels()`), when it says. */
  readonly label?: string;
  /** An enum's labels (or an enum array's), in declared order. */
  readonly labels?: readonly string[];
}

/** What one scope (the collection itself or one of its relations) allows per modifier. */
export interface ScopeMeta {
  readonly fields: readonly FieldMeta[];
  readonly projectable: readonly string[];
  readonly sortable: readonly string[];
  readonly searchable: readonly string[];
  readonly filterable: readonly string[];
}

export interface RelationMeta extends ScopeMeta {
  readonly name: string;
  readonly kind: string;
  /** `many` relations take a per-parent window (`<alias>_limit`, `<alias>_offset`). */
  readonly cardinality: 'one' | 'many';
  /** What `<alias>_expand[...]` may name under it; empty at the depth cap. */
  readonly relations: readonly RelationMeta[];
}

export interface CollectionMeta extends ScopeMeta {
  readonly name: string;
  /** The language of the collection's search document; absent when `match` is not available. */
  readonly matchLanguage?: string;
  readonly path: string;
  readonly operators: readonly string[];
  readonly logical: readonly string[];
  readonly sortDirections: { readonly asc: readonly string[]; readonly desc: readonly string[] };
  readonly pagination: {
    readonly defaultPageSize: number;
    readonly maxPageSize: number;
    /**
     * The collection's default `total=` mode, the modes, and where estimated totals start
     * (docs/query-language.md, "Totals: total=exact, estimated, none").
     */
    readonly total: string;
    readonly totalModes: readonly string[];
    readonly estimateAbove: number;
    /** `page`, and `cursor` on servers that page by keyset (docs/query-language.md, "Cursors: cursor"). */
    readonly modes: readonly string[];
  };
  readonly maxRows: number;
  readonly maxExpansions: number;
  readonly maxExpandDepth: number;
  readonly relations: readonly RelationMeta[];
  /** The fields `facet[...]` counts and `stats[...]` summarises; empty on servers without facets. */
  readonly facetable: readonly string[];
  readonly statsable: readonly string[];
  /** Whole-list CSV export (docs/query-language.md, "Export as CSV"): absent on servers without it. */
  readonly export?: { readonly formats: readonly string[]; readonly maxExportRows: number };
}

export interface IndexMeta {
  readonly collections: readonly string[];
  /** Where the OpenAPI document of these collections is served. */
  readonly openapi?: string;
  readonly prefix: string;
  /** Whether this client may use `<prefix>/_explain` (the host turned it on and authorizes it). */
  readonly explain: boolean;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function fieldList(value: unknown): FieldMeta[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((field) => ({
    name: String(field.name),
    type: (typeof field.type === 'string' ? field.type : 'other') as FieldType,
    nullable: field.nullable === true,
    ...(typeof field.label === 'string' ? { label: field.label } : {}),
    ...(Array.isArray(field.labels) ? { labels: strings(field.labels) } : {}),
  }));
}

function readScope(body: Json): ScopeMeta {
  return {
    fields: fieldList(body.fields),
    projectable: strings(body.projectable),
    sortable: strings(body.sortable),
    searchable: strings(body.searchable),
    filterable: strings(body.filterable),
  };
}

function relationList(value: unknown): RelationMeta[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((relation) => ({
    ...readScope(relation),
    name: String(relation.name),
    kind: String(relation.kind),
    cardinality: relation.cardinality === 'one' ? 'one' : 'many',
    relations: relationList(relation.relations),
  }));
}

/** `{"collections": ["users"], "prefix": "/api", "explain": false}` -> IndexMeta; anything else -> an Error. */
export function readIndexMeta(body: unknown): IndexMeta {
  if (!isObject(body) || !Array.isArray(body.collections)) throw new Error('the metadata endpoint did not list any collections');
  return {
    collections: strings(body.collections),
    prefix: typeof body.prefix === 'string' ? body.prefix : '',
    // Servers from before the flag served explain to every admin client.
    explain: body.explain !== false,
    ...(typeof body.openapi === 'string' ? { openapi: body.openapi } : {}),
  };
}

/** The body of `GET <prefix>/_meta/users` -> CollectionMeta, with safe defaults for absent parts. */
export function readCollectionMeta(body: unknown): CollectionMeta {
  if (!isObject(body) || typeof body.name !== 'string') throw new Error('the collection metadata is not an object with a name');
  const directions = isObject(body.sortDirections) ? body.sortDirections : {};
  const pagination = isObject(body.pagination) ? body.pagination : {};
  return {
    ...readScope(body),
    name: body.name,
    path: typeof body.path === 'string' ? body.path : '',
    operators: body.operators === undefined ? ['=', '>', '>=', '<', '<=', '<>'] : strings(body.operators),
    logical: body.logical === undefined ? ['and', 'or', 'and!', 'or!'] : strings(body.logical),
    sortDirections: { asc: strings(directions.asc), desc: strings(directions.desc) },
    pagination: {
      defaultPageSize: typeof pagination.defaultPageSize === 'number' ? pagination.defaultPageSize : 15,
      maxPageSize: typeof pagination.maxPageSize === 'number' ? pagination.maxPageSize : 100,
      total: typeof pagination.total === 'string' ? pagination.total : 'exact',
      totalModes: pagination.totalModes === undefined ? ['exact'] : strings(pagination.totalModes),
      estimateAbove: typeof pagination.estimateAbove === 'number' ? pagination.estimateAbove : 10000,
      modes: pagination.modes === undefined ? ['page'] : strings(pagination.modes),
    },
    maxRows: typeof body.maxRows === 'number' ? body.maxRows : 1000,
    maxExpansions: typeof body.maxExpansions === 'number' ? body.maxExpansions : 5,
    // Servers from before nested expansion describe one level.
    maxExpandDepth: typeof body.maxExpandDepth === 'number' ? body.maxExpandDepth : 1,
    relations: relationList(body.relations),
    facetable: isObject(body.summary) ? strings(body.summary.facetable) : [],
    statsable: isObject(body.summary) ? strings(body.summary.statsable) : [],
    ...(isObject(body.export) && typeof body.export.maxExportRows === 'number'
      ? { export: { formats: strings(body.export.formats), maxExportRows: body.export.maxExportRows } }
      : {}),
    // `match` (docs/query-language.md, "Ranked search: match and similar"): the document's language, when the model declares one.
    ...(isObject(body.match) && typeof body.match.language === 'string' ? { matchLanguage: body.match.language } : {}),
  };
}

/** The type of `field` in `scope`, or 'other' when the scope does not describe it. */
export function fieldType(scope: ScopeMeta, field: string): FieldType {
  return scope.fields.find((f) => f.name === field)?.type ?? 'other';
}

/** The labels a value of `field` must be one of (an enum, or an array of one): `mood` -> ['sad', 'ok', 'happy']; others -> []. */
export function fieldLabels(scope: ScopeMeta, field: string): readonly string[] {
  return scope.fields.find((f) => f.name === field)?.labels ?? [];
}
