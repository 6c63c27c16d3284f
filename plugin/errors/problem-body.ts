// The problem+json body of a list of problems. Every problem is counted, but the body is capped so
// that its size stays bounded instead of multiplying the query string: the first problems in full
// (at most 20, and no more than 16 KB of them), each allowed list once, details of a bounded
// length, and the number of the problems left out.

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

/**
 * `errors` stops before an entry that would take its JSON past this many bytes (the first entry
 * always stays): twenty problems that each echo a long key could otherwise be twenty times the key.
 */
export const maxErrorsBytes = 16 * 1024;

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

function entryOf(p: Problem): ProblemEntry {
  const entry: ProblemEntry = { code: p.code, detail: cutDetail(p.detail) };
  if (p.parameter !== undefined) entry.parameter = p.parameter;
  if (p.allowed !== undefined) entry.allowed = p.allowed;
  return entry;
}

/**
 * The first problems as `errors` entries, in order, up to maxListedProblems and maxErrorsBytes.
 * Example: two unknown fields in `filter` give two entries, the first with `allowed: ['id', 'name']`,
 * the second with `allowed_from: 0`.
 */
export function problemEntries(problems: readonly Problem[]): ProblemEntry[] {
  const lists: { readonly list: readonly (string | number)[]; readonly at: number }[] = [];
  const entries: ProblemEntry[] = [];
  // `[]`, then each entry and its comma.
  let bytes = 2;
  for (const p of problems.slice(0, maxListedProblems)) {
    const entry = entryOf(p);
    const { allowed } = p;
    const earlier = Array.isArray(allowed) ? lists.find((l) => sameList(l.list, allowed)) : undefined;
    if (earlier !== undefined) {
      delete entry.allowed;
      entry.allowed_from = earlier.at;
    }
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (entries.length > 0 && bytes + size > maxErrorsBytes) break;
    if (Array.isArray(allowed) && earlier === undefined) lists.push({ list: allowed, at: entries.length });
    entries.push(entry);
    bytes += size;
  }
  return entries;
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
  if (problems.length > body.errors.length) body.errors_omitted = problems.length - body.errors.length;
  return body;
}
