export { buildCatalog } from './catalog';
export { usesOwnQueryBuilder } from './model-class';
export type * from './types';
