export { buildCatalog } from './catalog';
export { regclassName } from './introspect';
export { elementOf } from './fields';
export { modelJson, usesOwnQueryBuilder } from './model-class';
export type * from './types';
