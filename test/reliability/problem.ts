// The published problem+json schema (docs/reliability.md, test/reliability/problem-schema.json) and
// the checks every error answer must pass: schema, content type, headers, and the rule that the
// top level repeats errors[0] (contract "Problem body").

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import { expect } from 'chai';
import { RawResponse } from './http';

/** The repository root, from test/reliability/ or dist/test/reliability/. */
export const repoRoot = resolve(__dirname, __dirname.includes(join('dist', 'test')) ? '../../..' : '../..');

export const problemSchemaPath = join(repoRoot, 'test', 'reliability', 'problem-schema.json');

export function loadProblemSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(problemSchemaPath, 'utf8')) as Record<string, unknown>;
}

const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(loadProblemSchema());

/** Asserts a 4xx/5xx answer is a valid problem; returns the body. */
export function expectValidProblem(res: RawResponse, request: string): Record<string, unknown> {
  const what = `${res.status} for ${request.slice(0, 300)}`;
  expect(res.headers['content-type'], `${what}: content-type`).to.match(/^application\/problem\+json\b/);
  expect(res.headers['x-content-type-options'], `${what}: nosniff`).to.equal('nosniff');
  expect(res.headers['cache-control'], `${what}: errors are not cached`).to.equal('no-store');
  const body = res.body;
  if (!validate(body)) {
    expect.fail(
      `${what}: body does not match the problem schema: ${JSON.stringify(validate.errors).slice(0, 800)}\n${res.text.slice(0, 800)}`,
    );
  }
  const problem = body as Record<string, unknown>;
  expect(problem.status, `${what}: status in body`).to.equal(res.status);
  if (res.status === 400) {
    const first = (problem.errors as Record<string, unknown>[])[0] ?? {};
    for (const key of ['code', 'parameter', 'detail', 'allowed']) {
      expect(problem[key], `${what}: top-level ${key} = errors[0].${key}`).to.deep.equal(first[key]);
    }
  }
  return problem;
}
