export { parseQueryString, querySegments, type QueryPair } from './query-string';
export { describeQuery } from './describe';
export type * from './types';
export * from './vocabulary';
export { readCursorContent, writeCursorContent, type CursorDirection, type CursorToken } from './cursor';
