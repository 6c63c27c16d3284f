export { changeTriggersScript } from './change-sql';
export { SharedCache } from './shared-cache';
export { allTablesRead } from './tables';
export type { CachedAnswer, SharedCacheClient, SharedCacheSettings } from './types';
export { runCached, type Answer, type CachedRun } from './cached-run';
