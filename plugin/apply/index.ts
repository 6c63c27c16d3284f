export {
  planQueries, rootStatements, type EstimateQueries, type ModelQuery, type PlannedQueries, type RootStatements, type Row, type Runnable, type ScopeHook,
} from './query';
