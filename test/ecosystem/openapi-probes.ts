// Probes for the OpenAPI tests: the real columns of a table, a well-formed request per modifier and
// column, values outside a parameter's schema, and the fields a document allows per modifier.

import type { Knex } from 'knex';
import type { Model } from 'objection';
import { buildOpenApiDocument } from '../../plugin/openapi';
import { resolveOptions, type QueryModifiersOptions } from '../../plugin/options';
import { buildCatalog } from '../../plugin/schema';
import { asJson, type DocumentedParameter, type Json } from './openapi-support';

export type ModelClass = typeof Model;

/** The document the plugin builds for these collections and options, as plain JSON. */
export async function documentFor(
  knex: Knex,
  collections: Record<string, ModelClass>,
  options: Partial<QueryModifiersOptions> = {},
): Promise<Json> {
  const resolved = resolveOptions({ knex, collections, ...options });
  const catalog = await buildCatalog(knex, resolved.collections);
  return asJson(JSON.parse(JSON.stringify(buildOpenApiDocument(catalog, resolved))), 'document');
}

export interface TableColumn {
  readonly name: string;
  readonly udt: string;
}

export async function tableColumns(knex: Knex, table: string): Promise<TableColumn[]> {
  const rows = (await knex('information_schema.columns')
    .select('column_name', 'udt_name')
    .where('table_schema', knex.raw('current_schema()'))
    .andWhere('table_name', table)
    .orderBy('ordinal_position')) as { column_name: string; udt_name: string }[];
  return [...rows.map((r) => ({ name: r.column_name, udt: r.udt_name })), { name: 'no_such_field', udt: 'text' }];
}

/** Two `between` bounds of the column's type. */
function bounds(udt: string): string {
  if (/^int|^numeric|^float/.test(udt)) return '1,2';
  if (/^timestamp|^date/.test(udt)) return '2025-01-01,2025-01-02';
  if (udt === 'bool') return 'false,true';
  return 'a,b';
}

/** A value outside the parameter's schema that the API must refuse, or undefined when it accepts any text. */
export function outsideValue(p: DocumentedParameter, fits: (value: string) => boolean): string | undefined {
  const family = /^(\w+)\[/.exec(p.name)?.[1] ?? p.name;
  const candidates: Record<string, string[]> = {
    sort: ['sideways'],
    search: ['**'],
    expand: ['1x'],
    page: ['0'],
    'per-page': ['0'],
    'page-size': ['0'],
    limit: ['-1'],
    offset: ['-1'],
    filter: ['not~a~value'],
    in: ['not~a~value', 'a,,b'],
    between: ['not~a~value'],
  };
  return (candidates[family] ?? []).find((value) => !fits(value));
}

export const fieldModifiers = ['fields', 'fields!', 'sort', 'filter', 'in', 'between', 'search'] as const;
export type FieldModifier = (typeof fieldModifiers)[number];

/** The key and a value that is well-formed for any column type when the field is allowed. */
export function probe(modifier: FieldModifier, column: TableColumn, prefix = ''): string {
  const field = column.name;
  switch (modifier) {
    case 'fields':
    case 'fields!':
      return `${prefix}${modifier}=${encodeURIComponent(field)}`;
    case 'sort':
      return `${prefix}sort[${encodeURIComponent(field)}]=desc`;
    case 'search':
      return `${prefix}search[${encodeURIComponent(field)}]=x`;
    case 'filter':
      return `${prefix}filter[${encodeURIComponent(field)}]=null`;
    case 'in':
      return `${prefix}in[${encodeURIComponent(field)}]=null`;
    case 'between':
      return `${prefix}between[${encodeURIComponent(field)}]=${bounds(column.udt)}`;
  }
}

/** Which fields the document allows for each modifier, read from the parameters (or from x-alias-modifiers). */
export function documentedFields(params: readonly DocumentedParameter[]): Record<FieldModifier, Set<string>> {
  const out = Object.fromEntries(fieldModifiers.map((m) => [m, new Set<string>()])) as Record<FieldModifier, Set<string>>;
  for (const p of params) {
    if (p.name === 'fields' || p.name === 'fields!') {
      for (const f of asJson(p.schema.items, 'items').enum as string[]) out[p.name].add(f);
      continue;
    }
    const m = /^(sort|filter|in|between|search)\[([^\],]+)\]$/.exec(p.name);
    if (m) out[m[1] as FieldModifier].add(m[2] as string);
  }
  return out;
}

export function aliasFields(extension: unknown): Record<FieldModifier, Set<string>> {
  const lists = asJson(extension, 'x-alias-modifiers') as Record<string, string[]>;
  const set = (name: string): Set<string> => new Set(lists[name] ?? []);
  return {
    fields: set('fields'),
    'fields!': set('fields'),
    sort: set('sort'),
    filter: set('filter'),
    in: set('in'),
    between: set('between'),
    search: set('search'),
  };
}
