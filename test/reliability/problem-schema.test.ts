// The problem+json schema itself: the copy published in docs/reliability.md is the one the tests
// load, and it rejects what the contract rules out (so a body that passes it means something).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { expect } from 'chai';
import { loadProblemSchema } from '../support/problems';
import { repoRoot } from '../support/repo-root';

const valid = {
  type: 'https://koa-query-modifiers.dev/problems/field-not-allowed',
  title: 'Field not allowed',
  status: 400,
  detail: 'sort[x]: "x" cannot be sorted on',
  code: 'FIELD_NOT_ALLOWED',
  parameter: 'sort[x]',
  allowed: ['id', 'name'],
  errors: [{ code: 'FIELD_NOT_ALLOWED', parameter: 'sort[x]', detail: 'sort[x]: "x" cannot be sorted on', allowed: ['id', 'name'] }],
};

describe('the problem+json schema', function () {
  const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(loadProblemSchema());

  it('is published verbatim in docs/reliability.md', function () {
    const doc = readFileSync(join(repoRoot, 'docs', 'reliability.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The problem+json schema'));
    const match = /```json\n([\s\S]*?)\n```/.exec(section);
    expect(match, 'a ```json block in the schema section').to.not.equal(null);
    expect(JSON.parse(match?.[1] ?? 'null')).to.deep.equal(loadProblemSchema());
  });

  it('accepts a well-formed problem of every status', function () {
    expect(validate(valid), JSON.stringify(validate.errors)).to.equal(true);
    const unavailable = {
      type: 'https://koa-query-modifiers.dev/problems/service-unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: 'The database is not answering right now',
      code: 'SERVICE_UNAVAILABLE',
    };
    expect(validate(unavailable), JSON.stringify(validate.errors)).to.equal(true);
    const internal = {
      type: 'https://koa-query-modifiers.dev/problems/internal-error',
      title: 'Internal server error',
      status: 500,
      detail: 'The server failed to answer this request; the error has been logged',
      code: 'INTERNAL_ERROR',
    };
    expect(validate(internal), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...internal, status: 400 }), 'INTERNAL_ERROR is a 500').to.equal(false);
    const headTooLarge = {
      type: 'https://koa-query-modifiers.dev/problems/limit-exceeded',
      title: 'Limit exceeded',
      status: 431,
      detail: 'The request line and headers are longer than 16384 bytes',
      code: 'LIMIT_EXCEEDED',
      allowed: 16384,
    };
    expect(validate(headTooLarge), JSON.stringify(validate.errors)).to.equal(true);
    const entry = valid.errors[0];
    const capped = {
      ...valid,
      errors: [entry, ...Array.from({ length: 19 }, () => ({ ...entry, allowed: undefined, allowed_from: 0 }))],
      errors_omitted: 5,
    };
    expect(validate(JSON.parse(JSON.stringify(capped))), JSON.stringify(validate.errors)).to.equal(true);
    expect(
      validate({
        ...valid,
        code: 'LIMIT_EXCEEDED',
        title: 'Limit exceeded',
        type: 'https://koa-query-modifiers.dev/problems/limit-exceeded',
        allowed: 8192,
        errors: [{ code: 'LIMIT_EXCEEDED', detail: 'too long', allowed: 8192 }],
      }),
      JSON.stringify(validate.errors),
    ).to.equal(true);
  });

  const broken: readonly [string, Record<string, unknown>][] = [
    ['a 400 without errors', { ...valid, errors: undefined }],
    ['a status that does not belong to the code', { ...valid, status: 404 }],
    ['a title that does not belong to the code', { ...valid, title: 'Bad Request' }],
    ['a type that does not belong to the code', { ...valid, type: 'https://koa-query-modifiers.dev/problems/invalid-value' }],
    ['an unknown code', { ...valid, code: 'OOPS' }],
    ['an extra key (e.g. a stack trace)', { ...valid, stack: 'Error: at ...' }],
    ['an empty detail', { ...valid, detail: '' }],
    ['allowed as an object', { ...valid, allowed: { id: true } }],
    ['an errors entry with an extra key', { ...valid, errors: [{ ...valid.errors[0], sql: 'select 1' }] }],
    ['an empty errors list', { ...valid, errors: [] }],
    ['more than 20 errors entries', { ...valid, errors: Array.from({ length: 21 }, () => valid.errors[0]) }],
    ['errors_omitted without errors', { ...valid, status: 404, errors: undefined, errors_omitted: 3 }],
    ['an entry with both allowed and allowed_from', { ...valid, errors: [{ ...valid.errors[0], allowed_from: 0 }] }],
    ['a detail longer than 500 characters', { ...valid, detail: 'x'.repeat(501) }],
  ];
  for (const [name, body] of broken) {
    it(`rejects ${name}`, function () {
      expect(validate(JSON.parse(JSON.stringify(body)))).to.equal(false);
    });
  }
});
