export { DEFAULT_MIN_ROWS, indexAdvice, warnAboutIndexes, type IndexAdviceOptions } from './advise';
export { adviseScans, type ScanAdvice } from './scans';
export type { IndexAdvice, IndexAdviceReport } from './types';
