export { queryModifiers, type QueryModifiersRouter } from './router';
export type {
  QueryModifiersOptions,
  QueryModifiersLogger,
  AuthorizeResult,
  ReplicaOptions,
  ReplicaServer,
  SharedCacheOptions,
} from './options';
export type { SharedCacheClient } from './shared-cache';
export { optionsSchema } from './options-schema';
export { QueryError, problemCodes, type Problem, type ProblemBody, type ProblemCode } from './errors';
export type { ModelQuery } from './apply';
export { buildOpenApiDocument, type OpenApiDocument, type OpenApiInfo } from './openapi';
export type { RelationDeclaration as ExpandableRelation } from './schema/declarations';
export type { RequestReport } from './middleware';
export type { ReplicaStatus } from './replicas';
export type { IndexAdvice, IndexAdviceReport } from './advice';
