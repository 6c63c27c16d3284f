// Builds the catalog from the collections' models and the introspected columns, and fails start-up
// with every declaration problem found (decisions.md 5–6, 21–25), never at request time.

import type { Knex } from 'knex';
import { Model, type Relation } from 'objection';
import {
  readListDeclaration,
  readRelationDeclarations,
  type RelationDeclaration,
  type RelationOptionList,
} from './declarations';
import { introspectTables } from './introspect';
import type {
  Catalog,
  CollectionCatalog,
  Column,
  ModelClass,
  JoinTableCatalog,
  RelationCatalog,
  RelationKind,
  RelationModifier,
  ScopeCatalog,
} from './types';

interface TableInfo {
  readonly table: string;
  readonly columns: ReadonlyMap<string, Column>;
  readonly order: readonly string[];
}

/** Resolves a declared list against its universe: `'*'` is the whole universe, names must belong to it. */
function resolveList(
  declared: readonly string[],
  universe: readonly string[],
  where: string,
  universeName: string,
  problems: string[],
): readonly string[] {
  if (declared.includes('*')) return universe;
  const unknown = declared.filter((name) => !universe.includes(name));
  for (const name of unknown) problems.push(`${where} names "${name}", which is not ${universeName}`);
  return declared.filter((name, i) => universe.includes(name) && declared.indexOf(name) === i);
}

function modelScope(model: ModelClass, label: string, info: TableInfo, problems: string[]): ScopeCatalog {
  const projectable = resolveList(
    readListDeclaration(model, 'getProjectableFields', problems), info.order,
    `${model.name}.getProjectableFields()`, `a column of table "${info.table}"`, problems,
  );
  const capability = (method: 'getSortableFields' | 'getSearchableFields' | 'getFilterableFields') =>
    resolveList(readListDeclaration(model, method, problems), projectable,
      `${model.name}.${method}()`, `a projectable field of ${model.name}`, problems);
  return Object.freeze({
    label,
    modelClass: model,
    table: info.table,
    idColumns: Object.freeze([...([] as string[]).concat(model.idColumn)]),
    columns: info.columns,
    projectable,
    sortable: capability('getSortableFields'),
    searchable: capability('getSearchableFields'),
    filterable: capability('getFilterableFields'),
  });
}

function relationKind(found: Relation): RelationKind {
  const relation: object = found;
  if (relation instanceof Model.HasOneThroughRelation) return 'has-one-through';
  if (relation instanceof Model.ManyToManyRelation) return 'many-to-many';
  if (relation instanceof Model.BelongsToOneRelation) return 'belongs-to';
  if (relation instanceof Model.HasOneRelation) return 'has-one';
  return 'has-many';
}

function checkMapping(model: ModelClass, name: string, relation: Relation, kind: RelationKind, decl: RelationDeclaration, problems: string[]): void {
  const where = `${model.name}.getExpandableRelations().${name}`;
  const relatedTable = relation.relatedModelClass.tableName;
  if (decl.table !== undefined && decl.table !== relatedTable) {
    problems.push(`${where}.table is "${decl.table}", but the relation's table is "${relatedTable}"`);
  }
  if (decl.fk === undefined) return;
  const fkColumns =
    kind === 'belongs-to' ? relation.ownerProp.cols
      : kind === 'many-to-many' || kind === 'has-one-through' ? relation.joinTableOwnerProp.cols
        : relation.relatedProp.cols;
  if (!fkColumns.includes(decl.fk)) {
    problems.push(`${where}.fk is "${decl.fk}", but the relation's foreign key is "${fkColumns.join(', ')}"`);
  }
}

function relationScope(owner: ModelClass, label: string, decl: RelationDeclaration, related: ScopeCatalog, problems: string[]): ScopeCatalog {
  const where = (list: RelationOptionList) => `${owner.name}.getExpandableRelations().${label.split('.').pop()}.options.${list}`;
  const projectable = resolveList(decl.options.projectable_fields ?? ['*'], related.projectable,
    where('projectable_fields'), `a projectable field of ${related.modelClass.name}`, problems);
  const capability = (list: RelationOptionList) =>
    resolveList(decl.options[list] ?? [], projectable, where(list), 'in this relation\'s projectable_fields', problems);
  return Object.freeze({
    ...related,
    label,
    projectable,
    sortable: capability('sortable_fields'),
    searchable: capability('searchable_fields'),
    filterable: capability('filterable_fields'),
  });
}

interface Context {
  readonly tables: ReadonlyMap<string, TableInfo>;
  readonly problems: string[];
}

function tableInfo(model: ModelClass, ctx: Context): TableInfo | undefined {
  const info = ctx.tables.get(model.tableName);
  if (info === undefined) {
    ctx.problems.push(`${model.name}: table "${model.tableName}" was not found in the database (current schema)`);
  }
  return info;
}

function buildRelations(name: string, model: ModelClass, ctx: Context): Map<string, RelationCatalog> {
  const relations = new Map<string, RelationCatalog>();
  const defined = model.getRelations();
  for (const [relationName, decl] of readRelationDeclarations(model, ctx.problems)) {
    const relation = Object.prototype.hasOwnProperty.call(defined, relationName) ? defined[relationName] : undefined;
    if (relation === undefined) {
      const known = Object.keys(defined).join(', ') || 'none';
      ctx.problems.push(`${model.name}.getExpandableRelations() names "${relationName}", which is not a relation of ${model.name} (relations: ${known})`);
      continue;
    }
    const kind = relationKind(relation);
    checkMapping(model, relationName, relation, kind, decl, ctx.problems);
    const info = tableInfo(relation.relatedModelClass, ctx);
    if (info === undefined) continue;
    const related = modelScope(relation.relatedModelClass, `${name}.${relationName}`, info, ctx.problems);
    relations.set(relationName, Object.freeze({
      name: relationName,
      kind,
      cardinality: kind === 'has-many' || kind === 'many-to-many' ? 'many' : 'one',
      scope: relationScope(model, `${name}.${relationName}`, decl, related, ctx.problems),
      ownerKeys: relation.ownerProp.cols,
      relatedKeys: relation.relatedProp.cols,
      ...joinDetails(relation, kind),
    }));
  }
  return relations;
}

/** The parts of Objection's relation the apply stage needs to load related rows itself. */
function joinDetails(relation: Relation, kind: RelationKind): Pick<RelationCatalog, 'through' | 'modify'> {
  const { modify, joinTableModify, joinTableModelClass } = relation as unknown as {
    modify?: RelationModifier | null;
    joinTableModify?: RelationModifier | null;
    joinTableModelClass?: ModelClass;
  };
  const details: { through?: JoinTableCatalog; modify?: RelationModifier } = {};
  if (typeof modify === 'function') details.modify = modify;
  if ((kind === 'many-to-many' || kind === 'has-one-through') && relation.joinTable !== null && joinTableModelClass !== undefined) {
    details.through = Object.freeze({
      table: relation.joinTable,
      ownerKeys: relation.joinTableOwnerProp.cols,
      relatedKeys: relation.joinTableRelatedProp.cols,
      modelClass: joinTableModelClass,
      ...(typeof joinTableModify === 'function' ? { modify: joinTableModify } : {}),
    });
  }
  return details;
}

function relatedModels(models: readonly ModelClass[]): ModelClass[] {
  const all = new Set<ModelClass>(models);
  for (const model of models) {
    const relations = model.getRelations();
    for (const relation of Object.values(relations)) all.add(relation.relatedModelClass);
  }
  return [...all];
}

/** `{users: User}` -> Map { 'users' => catalog of User }, or throws listing every declaration problem. */
export async function buildCatalog(knex: Knex, collections: Readonly<Record<string, ModelClass>>): Promise<Catalog> {
  const problems: string[] = [];
  const entries = Object.entries(collections);
  const models = relatedModels(entries.map(([, model]) => model));
  const columns = await introspectTables(knex, [...new Set(models.map((m) => m.tableName))]);
  const tables = new Map<string, TableInfo>();
  for (const [table, list] of columns) {
    tables.set(table, { table, columns: new Map(list.map((c) => [c.name, c])), order: list.map((c) => c.name) });
  }
  const ctx: Context = { tables, problems };
  const catalog = new Map<string, CollectionCatalog>();
  for (const [name, model] of entries) {
    const info = tableInfo(model, ctx);
    if (info === undefined) continue;
    const scope = modelScope(model, name, info, problems);
    catalog.set(name, Object.freeze({ ...scope, name, relations: buildRelations(name, model, ctx) }));
  }
  if (problems.length > 0) {
    throw new Error(`koa-query-modifiers: invalid collection declarations:\n- ${problems.join('\n- ')}`);
  }
  return catalog;
}
