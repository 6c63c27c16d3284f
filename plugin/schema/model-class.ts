// What the plugin reads from a host's model class without assuming which copy of objection defined
// it: the host's objection is a peer dependency, and a class from another copy must not be mistaken
// for something else by an `instanceof` against ours. Everything is asked of the model's own base.

import type { Relation } from 'objection';
import type { ModelClass, RelationKind } from './types';

/**
 * Objection's `Model` at the root of `model`'s class chain (whichever copy of objection it is): the
 * exported wrapper class where there is one (objection wraps its native class so that transpiled
 * classes can extend it, and sets the default `QueryBuilder` on the wrapper), else the root.
 */
export function baseModel(model: ModelClass): ModelClass {
  const chain: ModelClass[] = [model];
  for (;;) {
    const parent: unknown = Object.getPrototypeOf(chain[chain.length - 1]);
    if (typeof parent !== 'function' || parent === Function.prototype) break;
    chain.push(parent as ModelClass);
  }
  const root = chain[chain.length - 1] as ModelClass;
  const wrapper = chain.length > 1 ? (chain[chain.length - 2] as ModelClass) : undefined;
  return wrapper !== undefined && Object.prototype.hasOwnProperty.call(wrapper, 'QueryBuilder') ? wrapper : root;
}

/** What the plugin relies on; a model from an objection without it cannot be served correctly. */
const required: readonly [string, (base: ModelClass) => boolean][] = [
  ['Model.query()', (base) => typeof base.query === 'function'],
  ['Model.getRelations()', (base) => typeof base.getRelations === 'function'],
  [
    'Model.columnNameToPropertyName()',
    (base) => typeof (base as { columnNameToPropertyName?: unknown }).columnNameToPropertyName === 'function',
  ],
  ['Model.HasOneThroughRelation', (base) => typeof base.HasOneThroughRelation === 'function'],
  /* eslint-disable @typescript-eslint/no-unnecessary-condition -- a model from another objection (an old or foreign copy) may lack what the types promise: that is what this list checks */
  [
    'QueryBuilder#toKnexQuery()',
    (base) => typeof (base.QueryBuilder?.prototype as { toKnexQuery?: unknown } | undefined)?.toKnexQuery === 'function',
  ],
  /* eslint-enable @typescript-eslint/no-unnecessary-condition */
  ['Model#$formatJson()', (base) => typeof base.prototype.$formatJson === 'function'],
];

/** The problems of a model whose objection is too old (or not objection at all), for the start-up error. */
export function objectionProblems(model: ModelClass): string[] {
  const base = baseModel(model);
  const missing = required.filter(([, has]) => !has(base)).map(([name]) => name);
  if (missing.length === 0) return [];
  return [
    `${model.name} comes from an objection without ${missing.join(', ')}; install objection 3 (a peer dependency of this plugin) and define the models with it`,
  ];
}

/** The relation's kind, asked of the relation classes of the model's own objection. */
export function relationKind(model: ModelClass, relation: Relation): RelationKind {
  const relationObject: object = relation;
  if (relationObject instanceof model.HasOneThroughRelation) return 'has-one-through';
  if (relationObject instanceof model.ManyToManyRelation) return 'many-to-many';
  if (relationObject instanceof model.BelongsToOneRelation) return 'belongs-to';
  if (relationObject instanceof model.HasOneRelation) return 'has-one';
  return 'has-many';
}

/** A model whose queries are its objection's own, so statement text alone is what a builder would run. */
export function usesOwnQueryBuilder(model: ModelClass): boolean {
  const base = baseModel(model);
  return model.QueryBuilder === base.QueryBuilder && model.query === base.query;
}

/** The model's names of virtual attributes (`static virtualAttributes = ['fullName']`). */
export function virtualAttributes(model: ModelClass): readonly string[] {
  const declared: unknown = (model as { virtualAttributes?: unknown }).virtualAttributes;
  return Array.isArray(declared) ? declared.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * True when the model changes what its JSON looks like (`$formatJson`, `$toJson`, `toJSON`, or
 * virtual attributes): its records are then built through the model
 * (docs/configuration.md, "Your models as they are").
 */
export function customisesJson(model: ModelClass): boolean {
  const base = baseModel(model).prototype as unknown as Record<string, unknown>;
  const own = model.prototype as unknown as Record<string, unknown>;
  return virtualAttributes(model).length > 0 || ['$formatJson', '$toJson', 'toJSON'].some((method) => own[method] !== base[method]);
}

/**
 * The model's own JSON of `properties` (its field values in their JSON form): built with `fromJson`
 * and turned back with `toJSON()`, so `$parseJson`, `$formatJson`, `$omitFromJson`, virtual
 * attributes and an overridden `toJSON` all apply (docs/configuration.md, "Your models as they are"). Records are built this way, and
 * the start-up probe (visibility.ts) goes through the very same call. Not an object: `{}`.
 */
export function modelJson(model: ModelClass, properties: Record<string, unknown>): Readonly<Record<string, unknown>> {
  // `properties` is handed over: a host's `$parseJson` may change it.
  const json: unknown = model.fromJson(properties, { skipValidation: true }).toJSON();
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
}
