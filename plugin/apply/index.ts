export { planQueries, rootStatements, type ModelQuery, type PlannedQueries, type RootStatements, type ScopeHook } from './query';
