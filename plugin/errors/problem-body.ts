// The problem+json body of a list of problems. Every problem is counted, but the body is capped so
// that its size follows the query string instead of multiplying it: the first problems in full,
// each allowed list once, details of a bounded length, and the number of the problems left out.

import { problemCodes, problemType, type ProblemCode } from './codes';

/** One problem found in a request, e.g. `{code: 'FIELD_NOT_ALLOWED', parameter: 'filter[or bogus]', ...}`. */
export interface Problem {
  readonly code: ProblemCode;
  readonly parameter?: string;
  readonly detail: string;
  readonly allowed?: readonly (string | number)[] | number;
}

/** One entry of `errors`: a problem, with `allowed_from` instead of a list an earlier entry holds. */
export interface ProblemEntry {
  code: ProblemCode;
  detail: string;
  parameter?: string;
  allowed?: readonly (string | number)[] | number;
  /** The index in `errors` of the entry whose `allowed` list this problem shares. */
  allowed_from?: number;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  parameter?: string;
  allowed?: readonly (string | number)[] | number;
  errors?: ProblemEntry[];
  /** How many problems were found beyond those in `errors`. */
  errors_omitted?: number;
}

/** At most this many problems are listed in `errors`; the rest are counted in `errors_omitted`. */
export const maxListedProblems = 20;

/** Details longer than this (only an echo of long client text makes one) are cut, ending in `…`. */
export const maxDetailLength = 500;

/** `'x'.repeat(600)` -> its first 499 characters and `…`; shorter text unchanged. */
export function cutDetail(detail: string): string {
  if (detail.length <= maxDetailLength) return detail;
  let end = maxDetailLength - 1;
  // Never split a surrogate pair: half a character is not text.
  const last = detail.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${detail.slice(0, end)}…`;
}

const sameList = (a: readonly (string | number)[], b: readonly (string | number)[]): boolean =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The first problems as `errors` entries. Example: two unknown fields in `filter` give two entries,
 * the first with `allowed: ['id', 'name']`, the second with `allowed_from: 0`.
 */
export function problemEntries(problems: readonly Problem[]): ProblemEntry[] {
  const lists: { readonly list: readonly (string | number)[]; readonly at: number }[] = [];
  return problems.slice(0, maxListedProblems).map((p, at) => {
    const entry: ProblemEntry = { code: p.code, detail: cutDetail(p.detail) };
    if (p.parameter !== undefined) entry.parameter = p.parameter;
    const { allowed } = p;
    if (!Array.isArray(allowed)) {
      if (allowed !== undefined) entry.allowed = allowed;
      return entry;
    }
    const earlier = lists.find((l) => sameList(l.list, allowed));
    if (earlier === undefined) {
      lists.push({ list: allowed, at });
      entry.allowed = allowed;
    } else {
      entry.allowed_from = earlier.at;
    }
    return entry;
  });
}

/**
 * The body for `problems` answered with `status`: the first problem at the top level, and for a 400
 * every problem in `errors` (capped as above).
 */
export function problemBody(problems: readonly [Problem, ...Problem[]], status: number): ProblemBody {
  const [first] = problems;
  const body: ProblemBody = {
    type: problemType(first.code),
    title: problemCodes[first.code].title,
    status,
    detail: cutDetail(first.detail),
    code: first.code,
  };
  if (first.parameter !== undefined) body.parameter = first.parameter;
  if (first.allowed !== undefined) body.allowed = first.allowed;
  if (status !== 400) return body;
  body.errors = problemEntries(problems);
  if (problems.length > maxListedProblems) body.errors_omitted = problems.length - maxListedProblems;
  return body;
}
