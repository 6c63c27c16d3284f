export { validateQuery, type ValidationLimits } from './validate';
export { coerceValue } from './values';
export type * from './types';
export { defaultTotalMode, type TotalSettings } from './total';
export { checkCursor, sortSignature, UNFIT_VALUE } from './cursor';
export { bucketKind, defaultFacetLimit, facetable, maxFacetLimit, maxSummaries, statsable } from './summary';
