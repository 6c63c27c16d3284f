// The one error type for client mistakes, and its problem+json rendering. It carries `status` and
// `expose` so that even a bare Koa app renders it as a 4xx rather than a 500.

import { problemCodes, type ProblemCode } from './codes';
import { problemBody, type Problem, type ProblemBody } from './problem-body';

export type { Problem, ProblemBody, ProblemEntry } from './problem-body';

export function problem(
  code: ProblemCode,
  parameter: string | undefined,
  detail: string,
  allowed?: readonly (string | number)[] | number,
): Problem {
  const found: Problem = { code, detail };
  return Object.freeze({
    ...found,
    ...(parameter === undefined ? {} : { parameter }),
    ...(allowed === undefined ? {} : { allowed }),
  });
}

export class QueryError extends Error {
  readonly status: number;
  readonly expose = true;
  readonly problems: readonly Problem[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(problems: readonly Problem[], headers: Record<string, string> = {}) {
    const first = problems[0];
    if (first === undefined) throw new TypeError('QueryError needs at least one problem');
    super(first.detail);
    this.name = 'QueryError';
    this.problems = problems;
    this.headers = headers;
    const statuses = new Set(problems.map((p) => problemCodes[p.code].status));
    this.status = statuses.size === 1 ? problemCodes[first.code].status : 400;
  }

  get code(): ProblemCode {
    return this.firstProblem.code;
  }

  private get firstProblem(): Problem {
    return this.problems[0] as Problem;
  }

  /** The problem+json body; `errors` lists the problems of client-input (400) errors, capped (problem-body.ts). */
  toBody(): ProblemBody {
    return problemBody([this.firstProblem, ...this.problems.slice(1)], this.status);
  }
}

/** Throw a single-problem error, e.g. `raise('UNKNOWN_COLLECTION', undefined, 'No collection "x".')`. */
export function raise(
  code: ProblemCode,
  parameter: string | undefined,
  detail: string,
  allowed?: readonly (string | number)[] | number,
): never {
  throw new QueryError([problem(code, parameter, detail, allowed)]);
}
