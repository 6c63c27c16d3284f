export { problemCodes, problemType, problemTypeBase, type ProblemCode } from './codes';
export { QueryError, problem, raise, type Problem, type ProblemBody, type ProblemEntry } from './query-error';
export { isUnavailable } from './unavailable';
export { serverBusy } from './server-busy';
export { maxDetailLength, maxErrorsBytes, maxListedProblems, problemBody } from './problem-body';
