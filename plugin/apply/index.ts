export { compileQuery, type CompiledExpansion, type CompiledQuery, type CompiledScope } from './compiled';
export { compiledBytes, stringBytes } from './footprint';
export { planQueries, rootStatements, type ModelQuery, type PlannedQueries, type RootStatements, type ScopeHook } from './query';
