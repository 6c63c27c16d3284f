export { changeTriggersScript } from './change-sql';
export { SharedCache, type SharedCacheSettings } from './shared-cache';
export { allTablesRead } from './tables';
export type { CachedAnswer, SharedCacheClient } from './types';
export { runCached, type Answer, type CachedRun } from './cached-run';
