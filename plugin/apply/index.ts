export { planQueries, type ModelQuery, type PlannedQueries, type ScopeHook } from './query';
