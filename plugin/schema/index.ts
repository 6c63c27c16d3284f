export { buildCatalog } from './catalog';
export { elementOf } from './fields';
export { modelJson, usesOwnQueryBuilder } from './model-class';
export type * from './types';
export { readIndexes, type IndexKey, type TableIndex } from './indexes';
