// Builds the catalog from the collections' models and the introspected columns, and fails start-up
// with every declaration problem found, never at request time (docs/configuration.md, "Start-up checks").

import type { Knex } from 'knex';
import { readListDeclaration, type ListDeclaration } from './declarations';
import { fullTextOf, textSearchFacts, type TextSearchFacts } from './full-text';
import { columnOf, propertyHint, resolveCapability, resolveList, tableFields, virtualFields, type TableFields } from './fields';
import { introspectTables } from './introspect';
import { customisesJson, objectionProblems } from './model-class';
import { knexNames } from './names';
import { buildRelations, type CatalogContext } from './relations';
import { invisibleBecause, probeVisibility } from './visibility';
import type { Catalog, CollectionCatalog, Column, ModelClass, RelationCatalog, ScopeCatalog } from './types';

type Capability = Exclude<ListDeclaration, 'getProjectableFields'>;

const uses: Readonly<Record<Capability, 'sort' | 'condition'>> = {
  getSortableFields: 'sort',
  getSearchableFields: 'condition',
  getFilterableFields: 'condition',
};

function idFields(model: ModelClass, fields: TableFields, ctx: CatalogContext): string[] {
  const ids = ([] as string[]).concat(model.idColumn);
  return ids.flatMap((id) => columnOf(fields, id, ctx.names, `${model.name}.idColumn`, ctx.problems)?.name ?? []);
}

/**
 * A model's own scope: its fields and its declared lists (`'*'` = every column, then every projectable
 * field), less what the model's own JSON hides, and for comparisons what it masks (docs/configuration.md, "What your model's JSON hides or masks").
 */
function modelScope(model: ModelClass, label: string, fields: TableFields, ctx: CatalogContext): ScopeCatalog {
  const columns = new Map<string, Column>(fields.columns);
  for (const virtual of virtualFields(model, fields.table)) if (!columns.has(virtual.name)) columns.set(virtual.name, virtual);
  const visibility = probeVisibility(model, [...columns.values()], ctx.problems);
  const shown = (name: string) => !visibility.hidden.has(name);
  const projectable = resolveList(
    readListDeclaration(model, 'getProjectableFields', ctx.problems),
    [...fields.columns.keys()].filter(shown),
    [...columns.keys()].filter(shown),
    (name) =>
      `${model.name}.getProjectableFields() names "${name}", ` +
      (invisibleBecause(model, visibility, name, 'projected') ??
        `which is not a column of table "${fields.table}" or a virtual attribute of ${model.name}` +
          propertyHint(name, fields.columns.values())),
    ctx.problems,
  );
  const capability = (method: Capability) =>
    resolveCapability(
      readListDeclaration(model, method, ctx.problems),
      projectable,
      columns,
      uses[method],
      `${model.name}.${method}()`,
      `is not a projectable field of ${model.name}`,
      (name) => invisibleBecause(model, visibility, name, 'compared'),
      ctx.problems,
    );
  return Object.freeze({
    label,
    modelClass: model,
    table: fields.table,
    idColumns: Object.freeze(idFields(model, fields, ctx)),
    columns,
    viaModel: customisesJson(model),
    projectable,
    sortable: capability('getSortableFields'),
    searchable: capability('getSearchableFields'),
    filterable: capability('getFilterableFields'),
  });
}

/**
 * `count[posts]` adds `posts_count` to each record and lets filters and sorts name it
 * (docs/query-language.md, "Counting related records"): a to-many relation whose count would have
 * the name of a field of the model cannot be declared.
 */
function countCollisions(model: ModelClass, scope: ScopeCatalog, relations: ReadonlyMap<string, RelationCatalog>): string[] {
  return [...relations.values()]
    .filter((relation) => relation.cardinality === 'many' && scope.columns.has(`${relation.name}_count`))
    .map(
      (relation) =>
        `${model.name}.getExpandableRelations().${relation.name}: count[${relation.name}] would add ` +
        `"${relation.name}_count", which is already a field of ${model.name}; rename the relation or the field`,
    );
}

/**
 * Every model the collections reach, at any depth (nested expansions,
 * docs/query-language.md, "Nested expansion"), and the join tables on the way.
 */
function reachedTables(models: readonly ModelClass[]): string[] {
  const all = new Set<ModelClass>(models);
  const joinTables = new Set<string>();
  for (const model of all) {
    for (const relation of Object.values(model.getRelations())) {
      all.add(relation.relatedModelClass);
      if (typeof relation.joinTable === 'string') joinTables.add(relation.joinTable);
    }
  }
  return [...new Set([...[...all].map((m) => m.tableName), ...joinTables])];
}

/** `cms.articles` -> `"cms"."articles"`, as `to_regclass` reads it. */
const regclassName = (table: string): string =>
  table
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');

/** A scope with what ranked search may use: its `getFullTextSearch()` document and, with pg_trgm, `similar`. */
function withRankedSearch(
  model: ModelClass,
  scope: ScopeCatalog,
  facts: TextSearchFacts,
  search: CatalogSearchOptions,
  problems: string[],
): ScopeCatalog {
  const fullText = fullTextOf(model, scope, facts, regclassName(scope.table), problems);
  return Object.freeze({
    ...scope,
    ...(fullText === undefined ? {} : { fullText }),
    ...(facts.trigram ? { similarity: Object.freeze({ threshold: search.similarityThreshold }) } : {}),
  });
}

/** What the catalog needs of the `search` option (docs/configuration.md). */
export interface CatalogSearchOptions {
  readonly similarityThreshold: number;
}

/** `{users: User}` -> Map { 'users' => catalog of User }, or throws listing every declaration problem. */
export async function buildCatalog(
  knex: Knex,
  collections: Readonly<Record<string, ModelClass>>,
  search: CatalogSearchOptions = { similarityThreshold: 0.3 },
): Promise<Catalog> {
  const problems: string[] = [];
  const entries = Object.entries(collections);
  for (const [, model] of entries) problems.push(...objectionProblems(model));
  if (problems.length > 0) throw new Error(`koa-query-modifiers: unsupported models:\n- ${problems.join('\n- ')}`);
  const reached = reachedTables(entries.map(([, model]) => model));
  const names = knexNames(knex);
  // Table names in models and mappings are Knex names too (`cms.blogPosts` under knexSnakeCaseMappers).
  const databaseTable = (table: string): string => table.split('.').map(names.toDatabase).join('.');
  const columns = await introspectTables(knex, reached.map(databaseTable));
  const facts = await textSearchFacts(
    knex,
    reached.map((table) => regclassName(databaseTable(table))),
  );
  const fieldsOf = (model: ModelClass, table: string): TableFields | undefined => {
    const found = columns.get(databaseTable(table));
    return found && tableFields(model, databaseTable(table), found, names);
  };
  const scopes = new Map<ModelClass, ScopeCatalog | undefined>();
  const relationMaps = new Map<ModelClass, Map<string, RelationCatalog>>();
  const ctx: CatalogContext = {
    fields: fieldsOf,
    names,
    problems,
    scopeOf: (model, label) => {
      if (!scopes.has(model)) {
        const fields = fieldsOf(model, model.tableName);
        if (fields === undefined) problems.push(`${model.name}: table "${model.tableName}" was not found in the database (search path)`);
        scopes.set(model, fields && withRankedSearch(model, modelScope(model, model.tableName, fields, ctx), facts, search, problems));
      }
      const scope = scopes.get(model);
      return scope && Object.freeze({ ...scope, label });
    },
    relationsOf: (model) => {
      let relations = relationMaps.get(model);
      if (relations === undefined) {
        // Handed out before it is filled: a relation back to a model being built finds this map.
        relations = new Map();
        relationMaps.set(model, relations);
        const fields = fieldsOf(model, model.tableName);
        if (fields !== undefined)
          for (const [name, relation] of buildRelations(model.tableName, model, fields, ctx)) relations.set(name, relation);
      }
      return relations;
    },
  };
  const catalog = new Map<string, CollectionCatalog>();
  for (const [name, model] of entries) {
    const scope = ctx.scopeOf(model, name);
    if (scope === undefined) continue;
    const fields = fieldsOf(model, model.tableName) as TableFields;
    const relations = buildRelations(name, model, fields, ctx);
    problems.push(...countCollisions(model, scope, relations));
    catalog.set(name, Object.freeze({ ...scope, name, relations }));
  }
  if (problems.length > 0) {
    throw new Error(`koa-query-modifiers: invalid collection declarations:\n- ${[...new Set(problems)].join('\n- ')}`);
  }
  return catalog;
}
