export { ResponseBudget, type BudgetPart } from './budget';
export { largestContributor, type Contributor, type MeasuredPart } from './contributor';
export { compileQuery, type CompiledQuery } from './compiled';
export type { CompiledExpansion, CompiledScope } from './types';
export { compiledBytes, stringBytes } from './footprint';
export {
  planQueries,
  rootStatements,
  type EstimateQueries,
  type ModelQuery,
  type PlannedQueries,
  type RootStatements,
  type Row,
  type Runnable,
  type ScopeHook,
} from './query';
export { cursorSqlAt, keyAlias, keyTexts, type CursorSql } from './seek';
export { planSummary, type CompiledSummary, type CompiledSummaryItem } from './summary';
export { batchAfter, readExportBatch, type ExportBatch } from './export-batch';
