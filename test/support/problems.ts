// Asserts the problem+json body of an error response (decisions 29 and the contract's problem format).

import { expect } from 'chai';
import supertest from 'supertest';
import { objectOf, asRow, Row } from './app';

/** Status and fixed title of every code, as the contract documents them. */
export const PROBLEM_CODES = {
  MALFORMED_PARAMETER: { status: 400, title: 'Malformed query parameter' },
  FIELD_NOT_ALLOWED: { status: 400, title: 'Field not allowed' },
  INVALID_VALUE: { status: 400, title: 'Invalid value' },
  UNKNOWN_RELATION: { status: 400, title: 'Unknown relation' },
  UNKNOWN_ALIAS: { status: 400, title: 'Unknown alias' },
  DUPLICATE_PARAMETER: { status: 400, title: 'Duplicate parameter' },
  CONFLICTING_PARAMETERS: { status: 400, title: 'Conflicting parameters' },
  PAGE_SIZE_TOO_LARGE: { status: 400, title: 'Page size too large' },
  LIMIT_EXCEEDED: { status: 400, title: 'Limit exceeded' },
  INVALID_CURSOR: { status: 400, title: 'Invalid cursor' },
  UNAUTHORIZED: { status: 401, title: 'Unauthorized' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  UNKNOWN_COLLECTION: { status: 404, title: 'Unknown collection' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  INTERNAL_ERROR: { status: 500, title: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  SERVER_BUSY: { status: 503, title: 'Server busy' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

const PROBLEM_KEYS = ['type', 'title', 'status', 'detail', 'code', 'parameter', 'allowed', 'errors', 'errors_omitted'];
const ENTRY_KEYS = ['code', 'parameter', 'detail', 'allowed', 'allowed_from'];

export interface ExpectedEntry {
  readonly code: ProblemCode;
  readonly parameter?: string;
  /** A list is compared as a set; a number exactly. */
  readonly allowed?: readonly (string | number)[] | number;
}

export interface ExpectedProblem extends ExpectedEntry {
  /** Every entry of `errors`, in order. Default: exactly one entry equal to the top-level problem. */
  readonly errors?: readonly ExpectedEntry[];
  /** The exact detail, when the test fixes it (e.g. one the authorize hook supplied). */
  readonly detail?: string;
}

export function problemType(code: ProblemCode): string {
  return `https://koa-query-modifiers.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

function expectAllowed(actual: unknown, expected: ExpectedEntry['allowed'], where: string): void {
  if (expected === undefined) return;
  if (typeof expected === 'number') {
    expect(actual, `${where}.allowed`).to.equal(expected);
  } else {
    expect(actual, `${where}.allowed`).to.be.an('array');
    expect(actual, `${where}.allowed`).to.have.members([...expected]);
  }
}

/** An entry's allowed list: its own, or (`allowed_from`) the one of the earlier entry it names. */
function allowedOf(entries: readonly Row[], entry: Row, where: string): unknown {
  if (entry.allowed_from === undefined) return entry.allowed;
  expect(entry.allowed, `${where}: allowed and allowed_from`).to.equal(undefined);
  const from = entries[Number(entry.allowed_from)];
  expect(from?.allowed, `${where}.allowed_from names an entry with a list`).to.be.an('array');
  return from?.allowed;
}

function expectEntry(entries: readonly Row[], entry: Row, expected: ExpectedEntry, where: string): void {
  expect(
    Object.keys(entry).every((key) => ENTRY_KEYS.includes(key)),
    `${where} keys ${Object.keys(entry).join(',')}`,
  ).to.equal(true);
  expect(entry.code, `${where}.code`).to.equal(expected.code);
  if (expected.parameter !== undefined) expect(entry.parameter, `${where}.parameter`).to.equal(expected.parameter);
  expect(entry.detail, `${where}.detail`).to.be.a('string').and.not.equal('');
  expectAllowed(allowedOf(entries, entry, where), expected.allowed, where);
}

/** Asserts status, content type and body of a problem response; returns the body for extra checks. */
export function expectProblem(res: supertest.Response, expected: ExpectedProblem): Row {
  const { status, title } = PROBLEM_CODES[expected.code];
  expect(res.status, `HTTP status (body: ${res.text.slice(0, 200)})`).to.equal(status);
  expect(res.headers['content-type'], 'content-type').to.match(/^application\/problem\+json\b/);
  const body = objectOf(res);
  expect(
    Object.keys(body).every((key) => PROBLEM_KEYS.includes(key)),
    `problem keys ${Object.keys(body).join(',')}`,
  ).to.equal(true);
  expect(body.type, 'type').to.equal(problemType(expected.code));
  expect(body.title, 'title').to.equal(title);
  expect(body.status, 'status in body').to.equal(status);
  expect(body.code, 'code').to.equal(expected.code);
  expect(body.detail, 'detail').to.be.a('string').and.not.equal('');
  if (expected.detail !== undefined) expect(body.detail, 'detail').to.equal(expected.detail);
  if (expected.parameter !== undefined) expect(body.parameter, 'parameter').to.equal(expected.parameter);
  expectAllowed(body.allowed, expected.allowed, 'problem');
  if (status === 400) {
    const errors: unknown = body.errors;
    expect(errors, 'errors').to.be.an('array');
    const entries = (errors as unknown[]).map(asRow);
    const wanted = expected.errors ?? [expected];
    expect(
      entries.map((e) => e.code),
      'errors[].code',
    ).to.deep.equal(wanted.map((w) => w.code));
    wanted.forEach((w, i) => expectEntry(entries, asRow(entries[i]), w, `errors[${i}]`));
    // The top level repeats the first problem found.
    const first = asRow(entries[0]);
    expect(body.code, 'top-level code = errors[0].code').to.equal(first.code);
    expect(body.parameter, 'top-level parameter = errors[0].parameter').to.equal(first.parameter);
  }
  return body;
}

/** GET-and-assert shorthand: awaits the request, then `expectProblem`. */
export async function expectProblemAt(test: supertest.Test, expected: ExpectedProblem): Promise<Row> {
  return expectProblem(await test, expected);
}
