// The expandable relations of a model: each declaration checked against Objection's relation
// mapping, its join keys resolved to columns (through the join table for many-to-many and
// has-one-through), and its option lists resolved against the related model's fields.

import type { Relation } from 'objection';
import type { RelationDeclaration, RelationOptionList } from './declarations';
import { readRelationDeclarations } from './declarations';
import { columnOf, propertyHint, resolveCapability, resolveList, type TableFields } from './fields';
import { arrayKeyProblems, keysAsText } from './key-types';
import { relationKind } from './model-class';
import type { KnexNames } from './names';
import { invisibleBecause, probeVisibility } from './visibility';
import type { Column, JoinTableCatalog, ModelClass, RelationCatalog, RelationKind, RelationModifier, ScopeCatalog } from './types';

/** What building relations needs: the tables read at start-up, the host's Knex names, the problems so far. */
export interface CatalogContext {
  /** A table's columns under `model`'s names; undefined when the table was not found. */
  readonly fields: (model: ModelClass, table: string) => TableFields | undefined;
  readonly names: KnexNames;
  readonly problems: string[];
  /** The catalog of a model as a collection would see it (declarations applied), made once per model. */
  readonly scopeOf: (model: ModelClass, label: string) => ScopeCatalog | undefined;
  /** A model's expandable relations, made once per model (filled in after it is handed out, for cycles). */
  readonly relationsOf: (model: ModelClass) => ReadonlyMap<string, RelationCatalog>;
}

function checkMapping(where: string, relation: Relation, kind: RelationKind, decl: RelationDeclaration, problems: string[]): void {
  const relatedTable = relation.relatedModelClass.tableName;
  if (decl.table !== undefined && decl.table !== relatedTable) {
    problems.push(`${where}.table is "${decl.table}", but the relation's table is "${relatedTable}"`);
  }
  if (decl.fk === undefined) return;
  const fkColumns =
    kind === 'belongs-to'
      ? relation.ownerProp.cols
      : kind === 'many-to-many' || kind === 'has-one-through'
        ? relation.joinTableOwnerProp.cols
        : relation.relatedProp.cols;
  if (!fkColumns.includes(decl.fk)) {
    problems.push(`${where}.fk is "${decl.fk}", but the relation's foreign key is "${fkColumns.join(', ')}"`);
  }
}

function keyColumns(fields: TableFields | undefined, cols: readonly string[], where: string, ctx: CatalogContext): Column[] | undefined {
  if (fields === undefined) return undefined;
  const found = cols.map((col) => columnOf(fields, col, ctx.names, where, ctx.problems));
  return found.every((c): c is Column => c !== undefined) ? found : undefined;
}

interface JoinTableExtra {
  readonly joinTableCol: string;
  readonly aliasProp: string;
}

/** A join table's `extra` columns, as fields of the related records (e.g. `position` of `user_roles`). */
function extraFields(relation: Relation, through: TableFields, where: string, ctx: CatalogContext): Column[] {
  const declared: unknown = (relation as unknown as { joinTableExtras?: unknown }).joinTableExtras;
  if (!Array.isArray(declared)) return [];
  const extras: Column[] = [];
  for (const extra of declared as JoinTableExtra[]) {
    const column = columnOf(through, extra.joinTableCol, ctx.names, `${where} (join table extra)`, ctx.problems);
    if (column !== undefined) extras.push(Object.freeze({ ...column, name: extra.aliasProp }));
  }
  return extras;
}

/** The join table of a many-to-many or has-one-through relation, with its keys and `modify`. */
function joinTable(
  relation: Relation,
  where: string,
  ctx: CatalogContext,
): { through: Omit<JoinTableCatalog, 'keysAsText'>; extras: Column[] } | undefined {
  const { joinTableModify, joinTableModelClass } = relation as unknown as {
    joinTableModify?: RelationModifier | null;
    joinTableModelClass?: ModelClass;
  };
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Objection's types say string; at run time a relation without a join table has none
  if (relation.joinTable === null || relation.joinTable === undefined || joinTableModelClass === undefined) return undefined;
  const fields = ctx.fields(joinTableModelClass, relation.joinTable);
  if (fields === undefined) {
    ctx.problems.push(`${where}: join table "${relation.joinTable}" was not found in the database (search path)`);
    return undefined;
  }
  const ownerKeys = keyColumns(fields, relation.joinTableOwnerProp.cols, `${where} (join)`, ctx);
  const relatedKeys = keyColumns(fields, relation.joinTableRelatedProp.cols, `${where} (join)`, ctx);
  if (ownerKeys === undefined || relatedKeys === undefined) return undefined;
  ctx.problems.push(...arrayKeyProblems(where, [...ownerKeys, ...relatedKeys]));
  return {
    through: {
      table: fields.table,
      ownerKeys,
      relatedKeys,
      modelClass: joinTableModelClass,
      ...(typeof joinTableModify === 'function' ? { modify: joinTableModify } : {}),
    },
    extras: extraFields(relation, fields, where, ctx),
  };
}

/**
 * The relation as seen from its owner: the option lists resolved against the related fields and
 * extras, less what the related model's own JSON hides or (for comparisons) masks (docs/configuration.md, the JSON probe);
 * the extras go through that JSON too, so they are probed with the related fields.
 */
function relationScope(
  where: string,
  label: string,
  decl: RelationDeclaration,
  related: ScopeCatalog,
  extras: readonly Column[],
  problems: string[],
): ScopeCatalog {
  const model = related.modelClass;
  const columns = new Map(related.columns);
  for (const extra of extras) {
    if (columns.has(extra.name)) problems.push(`${where}: join table extra "${extra.name}" has the name of a field of ${model.name}`);
    else columns.set(extra.name, extra);
  }
  const visibility = probeVisibility(model, [...columns.values()], problems);
  const invisible = (name: string, use: 'projected' | 'compared') => invisibleBecause(model, visibility, name, use);
  const shown = (name: string) => invisible(name, 'projected') === undefined;
  const universe = [...related.projectable, ...extras.map((e) => e.name)].filter(shown);
  const projectable = resolveList(
    decl.options.projectable_fields ?? ['*'],
    related.projectable.filter(shown),
    universe,
    (name) =>
      `${where}.options.projectable_fields names "${name}", ` +
      (invisible(name, 'projected') ??
        `which is not a projectable field of ${model.name} or a join table extra` + propertyHint(name, columns.values())),
    problems,
  );
  const capability = (list: RelationOptionList, use: 'sort' | 'condition') =>
    resolveCapability(
      decl.options[list] ?? [],
      projectable,
      columns,
      use,
      `${where}.options.${list}`,
      "is not in this relation's projectable_fields",
      (name) => invisible(name, 'compared'),
      problems,
    );
  return Object.freeze({
    ...related,
    label,
    columns,
    projectable,
    sortable: capability('sortable_fields', 'sort'),
    searchable: capability('searchable_fields', 'condition'),
    filterable: capability('filterable_fields', 'condition'),
  });
}

function buildRelation(
  owner: ModelClass,
  ownerFields: TableFields,
  label: string,
  relation: Relation,
  decl: RelationDeclaration,
  ctx: CatalogContext,
): RelationCatalog | undefined {
  const where = `${owner.name}.getExpandableRelations().${relation.name}`;
  const kind = relationKind(owner, relation);
  checkMapping(where, relation, kind, decl, ctx.problems);
  const related = ctx.scopeOf(relation.relatedModelClass, label);
  const relatedFields = ctx.fields(relation.relatedModelClass, relation.relatedModelClass.tableName);
  const ownerKeys = keyColumns(ownerFields, relation.ownerProp.cols, `${where} (join)`, ctx);
  const relatedKeys = keyColumns(relatedFields, relation.relatedProp.cols, `${where} (join)`, ctx);
  const joined = kind === 'many-to-many' || kind === 'has-one-through' ? joinTable(relation, where, ctx) : undefined;
  if (related === undefined || ownerKeys === undefined || relatedKeys === undefined) return undefined;
  ctx.problems.push(...arrayKeyProblems(where, [...ownerKeys, ...relatedKeys]));
  const modify = (relation as unknown as { modify?: RelationModifier | null }).modify;
  const through =
    joined === undefined
      ? undefined
      : Object.freeze({ ...joined.through, keysAsText: keysAsText(relatedKeys, joined.through.relatedKeys) });
  return Object.freeze({
    name: relation.name,
    kind,
    cardinality: kind === 'has-many' || kind === 'many-to-many' ? 'many' : 'one',
    scope: relationScope(where, label, decl, related, joined?.extras ?? [], ctx.problems),
    ownerKeys,
    relatedKeys,
    keysAsText: keysAsText(ownerKeys, through?.ownerKeys ?? relatedKeys),
    ...(through === undefined ? {} : { through }),
    ...(typeof modify === 'function' ? { modify } : {}),
    relations: ctx.relationsOf(relation.relatedModelClass),
  });
}

/** `User.getExpandableRelations()` -> Map { 'posts' => relation catalog }, problems added to `ctx`. */
export function buildRelations(name: string, model: ModelClass, fields: TableFields, ctx: CatalogContext): Map<string, RelationCatalog> {
  const relations = new Map<string, RelationCatalog>();
  const defined = model.getRelations();
  for (const [relationName, decl] of readRelationDeclarations(model, ctx.problems)) {
    const relation = Object.prototype.hasOwnProperty.call(defined, relationName) ? defined[relationName] : undefined;
    if (relation === undefined) {
      const known = Object.keys(defined).join(', ') || 'none';
      ctx.problems.push(
        `${model.name}.getExpandableRelations() names "${relationName}", which is not a relation of ${model.name} (relations: ${known})`,
      );
      continue;
    }
    const built = buildRelation(model, fields, `${name}.${relationName}`, relation, decl, ctx);
    if (built !== undefined) relations.set(relationName, built);
  }
  return relations;
}
