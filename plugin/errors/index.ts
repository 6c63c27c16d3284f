export { problemCodes, problemType, problemTypeBase, type ProblemCode } from './codes';
export { QueryError, problem, raise, type Problem, type ProblemBody } from './query-error';
export { isUnavailable } from './unavailable';
