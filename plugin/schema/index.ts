export { buildCatalog } from './catalog';
export type * from './types';
