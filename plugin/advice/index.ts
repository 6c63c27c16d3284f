export { indexAdvice, warnAboutIndexes, type IndexAdviceOptions } from './advise';
export type { IndexAdvice, IndexAdviceReport } from './types';
