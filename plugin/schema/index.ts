export { buildCatalog } from './catalog';
export { elementOf } from './fields';
export { usesOwnQueryBuilder } from './model-class';
export type * from './types';
