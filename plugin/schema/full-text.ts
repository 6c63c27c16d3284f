// Ranked search declarations (docs/query-language.md, "Ranked search: match and similar"): a model's
// `getFullTextSearch()` read and checked against the database at start-up (a real text search
// configuration, visible text fields or a real `tsvector` column), the GIN index that serves its
// document found, and whether pg_trgm's similarity is there for `similar`.

import type { Knex } from 'knex';
import { readIndexes, type IndexKey } from './indexes';
import type { Column, FullTextCatalog, ModelClass, ScopeCatalog } from './types';

/** What the database offers ranked search, read once at start-up. */
export interface TextSearchFacts {
  /** Text search configurations, by name and by `schema.name`. */
  readonly configs: ReadonlySet<string>;
  /** pg_trgm's `similarity(text, text)` and `%` are reachable on the search path. */
  readonly trigram: boolean;
  /** Each table's GIN indexes of one key: the index's name and its key as PostgreSQL writes it. */
  readonly ginIndexes: ReadonlyMap<string, readonly { readonly name: string; readonly key: string }[]>;
}

const factsSql = `select (select array_agg(c.cfgname::text) || array_agg(n.nspname || '.' || c.cfgname)
    from pg_catalog.pg_ts_config c join pg_catalog.pg_namespace n on n.oid = c.cfgnamespace) as "configs",
  to_regprocedure('similarity(text,text)') is not null and to_regoperator('%(text,text)') is not null as "trigram"`;

/** `["posts"]` -> the configurations, pg_trgm, and the GIN indexes of `"posts"` (names as `to_regclass` reads them). */
export async function textSearchFacts(knex: Knex, regclassNames: readonly string[]): Promise<TextSearchFacts> {
  const facts = await knex.raw<{ rows: { configs: string[] | null; trigram: boolean }[] }>(factsSql);
  const ginIndexes = new Map<string, { name: string; key: string }[]>();
  for (const [wanted, indexes] of await readIndexes(knex, regclassNames)) {
    const gin = indexes.filter((index) => index.method === 'gin' && index.keys.length === 1);
    ginIndexes.set(
      wanted,
      gin.map((index) => ({ name: index.name, key: (index.keys[0] as IndexKey).definition })),
    );
  }
  const first = facts.rows[0];
  return { configs: new Set(first?.configs ?? []), trigram: first?.trigram === true, ginIndexes };
}

const weights = ['A', 'B', 'C', 'D'] as const;

/**
 * An expression as compared with an index key: PostgreSQL writes `COALESCE(title, ''::text)` and
 * `'A'::"char"` where the declaration means `coalesce(title, '')`, so casts, quotes, brackets,
 * spaces and case are left out on both sides.
 */
const comparable = (sql: string): string =>
  sql
    .toLowerCase()
    .replace(/::("char"|regconfig|text|character varying|tsvector)/g, '')
    .replace(/["()\s]/g, '');

/** The document as an index key would be written over the bare columns: `setweight(to_tsvector('english', coalesce(title, '')), 'A') || ...`. */
function documentKey(language: string, weighted: readonly { column: Column; weight: string }[]): string {
  return weighted
    .map(({ column, weight }) => `setweight(to_tsvector('${language}', coalesce(${column.column}, '')), '${weight}')`)
    .join(' || ');
}

type Shape = { language: string; fields?: Record<string, unknown>; column?: string };

function readShape(where: string, value: unknown, problems: string[]): Shape | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${where} must return {language, fields: {<field>: 'A' | 'B' | 'C' | 'D'}} or {language, column}`);
    return undefined;
  }
  const { language, fields, column } = value as Record<string, unknown>;
  if (typeof language !== 'string' || language === '') {
    problems.push(`${where}.language must name a text search configuration, e.g. 'english' or 'simple'`);
    return undefined;
  }
  const hasFields = typeof fields === 'object' && fields !== null && !Array.isArray(fields) && Object.keys(fields).length > 0;
  if (hasFields === (typeof column === 'string')) {
    problems.push(
      `${where} must give either fields (a map of text fields to weights A to D) or column (a tsvector column), not both or neither`,
    );
    return undefined;
  }
  return hasFields ? { language, fields: fields as Record<string, unknown> } : { language, column: column as string };
}

function weightedFields(model: ModelClass, scope: ScopeCatalog, fields: Record<string, unknown>, problems: string[]) {
  const where = `${model.name}.getFullTextSearch().fields`;
  return Object.entries(fields).flatMap(([name, weight]) => {
    const column = scope.columns.get(name);
    if (typeof weight !== 'string' || !(weights as readonly string[]).includes(weight)) {
      problems.push(`${where}.${name} must be one of the weights 'A', 'B', 'C' or 'D' (A counts most)`);
      return [];
    }
    if (column === undefined || !scope.projectable.includes(name)) {
      problems.push(`${where} names "${name}", which is not a visible field of ${model.name}; name a projectable text field`);
      return [];
    }
    if (column.type !== 'text' || column.table !== scope.table) {
      problems.push(`${where} names "${name}", which is not a text column of table "${scope.table}"; name a text or varchar field`);
      return [];
    }
    return [{ column, weight }];
  });
}

/** `Post.getFullTextSearch()` -> its document and the GIN index serving it; undefined without one (problems added). */
export function fullTextOf(
  model: ModelClass,
  scope: ScopeCatalog,
  facts: TextSearchFacts,
  regclassName: string,
  problems: string[],
): FullTextCatalog | undefined {
  const fn = (model as unknown as { getFullTextSearch?: unknown }).getFullTextSearch;
  if (fn === undefined) return undefined;
  const where = `${model.name}.getFullTextSearch()`;
  if (typeof fn !== 'function') {
    problems.push(`${model.name}.getFullTextSearch must be a static method returning {language, fields} or {language, column}`);
    return undefined;
  }
  const shape = readShape(where, (fn as () => unknown).call(model), problems);
  if (shape === undefined) return undefined;
  const { language } = shape;
  const known = facts.configs.has(language);
  if (!known) {
    problems.push(
      `${where}.language "${language}" is not a text search configuration of the database (pg_ts_config); ` +
        `use one of ${[...facts.configs].filter((c) => !c.includes('.')).join(', ')}`,
    );
  }
  const indexes = facts.ginIndexes.get(regclassName) ?? [];
  if (shape.column !== undefined) {
    const column = scope.columns.get(shape.column) ?? [...scope.columns.values()].find((c) => c.column === shape.column);
    if (column === undefined || column.udt !== 'tsvector' || column.table !== scope.table) {
      problems.push(
        `${where}.column "${shape.column}" is not a tsvector column of table "${scope.table}"; add one or declare fields instead`,
      );
      return undefined;
    }
    const index = indexes.find((i) => comparable(i.key) === comparable(column.column))?.name;
    return known ? Object.freeze({ language, column, ...(index === undefined ? {} : { index }) }) : undefined;
  }
  const weighted = weightedFields(model, scope, shape.fields ?? {}, problems);
  if (!known || weighted.length !== Object.keys(shape.fields ?? {}).length) return undefined;
  const key = comparable(documentKey(language, weighted));
  const index = indexes.find((i) => comparable(i.key) === key)?.name;
  return Object.freeze({ language, fields: Object.freeze(weighted), ...(index === undefined ? {} : { index }) });
}
