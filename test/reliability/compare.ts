// Compares an API answer with the reference evaluator's: records, their order, their keys and the
// keys' order (JSON text equality), the truncation header, and the pagination envelope.

import { expect } from 'chai';
import { ENVELOPE_KEYS, SIMPLE_ENVELOPE_KEYS } from '../support/envelope-keys';
import { RawResponse } from './http';
import { Expected } from './reference';
import type { ExpectedSummary } from './reference-summary';

/**
 * `facets` and `stats` last, as the reference computed them; an `avg` (a number, or a numeric field's
 * text) within rounding of the exact mean. Returns the body without them.
 */
export function expectSummaryOnly(body: Record<string, unknown>, expected: ExpectedSummary | undefined, what: string): void {
  expectSummary(body, expected, what);
}

function expectSummary(body: Record<string, unknown>, expected: ExpectedSummary | undefined, what: string): Record<string, unknown> {
  const { facets, stats, ...rest } = body;
  if (expected === undefined) {
    expect([facets, stats], `${what}: no facets or stats`).to.deep.equal([undefined, undefined]);
    return rest;
  }
  const wantedKeys = Object.keys(expected);
  expect(Object.keys(body).slice(-wantedKeys.length), `${what}: facets and stats last`).to.deep.equal(wantedKeys);
  expectSameJson(facets, expected.facets, `${what}: facets`);
  const sent = (stats ?? {}) as Record<string, Record<string, unknown>>;
  const wanted = expected.stats ?? {};
  expect(Object.keys(sent), `${what}: stats fields`).to.deep.equal(Object.keys(wanted));
  for (const [field, values] of Object.entries(wanted)) {
    const { avg, ...exact } = values;
    const { avg: sentAvg, ...sentExact } = sent[field] ?? {};
    expectSameJson(sentExact, exact, `${what}: stats[${field}]`);
    if (avg === null || avg === undefined) expect(sentAvg ?? null, `${what}: stats[${field}].avg`).to.equal(avg === undefined ? null : avg);
    else expect(Number(sentAvg), `${what}: stats[${field}].avg`).to.be.closeTo(avg, Math.abs(avg) * 1e-12 + 1e-12);
  }
  return rest;
}

/** The apps under differential test cap unpaginated answers this low, so the cap and `X-Result-Truncated` matter on 23 rows. */
export const DIFFERENTIAL_MAX_ROWS = 20;

/** Exact JSON equality, keys in order; on failure a readable diff, and the request named. */
function expectSameJson(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return;
  expect(actual, what).to.deep.equal(expected);
  // Equal as values, so only the key order differs.
  expect.fail(
    `${what}: same values, different key order:\n  actual   ${JSON.stringify(actual).slice(0, 600)}\n  expected ${JSON.stringify(expected).slice(0, 600)}`,
  );
}

function expectLinks(links: unknown, expected: Extract<Expected, { kind: 'page' }>['envelope'], what: string): void {
  expect(links, `${what}: links`).to.be.an('array');
  const list = links as { url: unknown; label: unknown; active: unknown }[];
  const first = list[0];
  const last = list[list.length - 1];
  expect(first, `${what}: links[0]`).to.deep.equal({ url: expected.prev_page_url, label: '&laquo; Previous', active: false });
  expect(last, `${what}: last link`).to.deep.equal({ url: expected.next_page_url, label: 'Next &raquo;', active: false });
  const active = list.filter((l) => l.active === true).map((l) => l.label);
  const current = expected.current_page <= expected.last_page ? [String(expected.current_page)] : [];
  expect(active, `${what}: active links`).to.deep.equal(current);
}

/** A refusal: 400 FIELD_NOT_ALLOWED with exactly the reference's problems, each its parameter, words and `allowed`. */
function expectRefused(res: RawResponse, expected: Extract<Expected, { kind: 'refused' }>, what: string): void {
  if (res.status !== 400) expect.fail(`${what}: expected 400, got ${res.status}: ${res.text.slice(0, 600)}`);
  expect(res.headers['content-type'], `${what}: content type`).to.match(/^application\/problem\+json/);
  const body = res.body as { code?: unknown; errors?: Record<string, unknown>[] };
  expect(body.code, `${what}: code`).to.equal('FIELD_NOT_ALLOWED');
  const errors = body.errors ?? [];
  // An entry whose list equals an earlier one's names that entry instead (`allowed_from`).
  const entries = errors.map((entry) => {
    const { allowed_from: from, ...rest } = entry;
    return typeof from === 'number' ? { ...rest, allowed: errors[from]?.allowed } : rest;
  });
  const wanted = expected.problems.map((p) => ({
    code: 'FIELD_NOT_ALLOWED',
    detail: p.detail,
    parameter: p.parameter,
    allowed: p.allowed,
  }));
  expectSameJson(entries, wanted, `${what}: problems`);
}

/** Asserts that `res` is the answer `expected` describes. */
export function expectAnswer(res: RawResponse, expected: Expected, request: string): void {
  const what = `GET ${request}`;
  if (expected.kind === 'cursor-walk') throw new Error('a cursor walk takes several requests: test/support/cursor-walk.ts follows it');
  if (expected.kind === 'refused') {
    expectRefused(res, expected, what);
    return;
  }
  if (res.status !== 200) expect.fail(`${what}: expected 200, got ${res.status}: ${res.text.slice(0, 600)}`);
  if (expected.kind === 'array') {
    expectSameJson(res.body, expected.records, what);
    expect(res.headers['x-result-truncated'], `${what}: X-Result-Truncated`).to.equal(expected.truncated ? 'true' : undefined);
    return;
  }
  expect(res.body, what).to.be.an('object');
  const body = expectSummary(res.body as Record<string, unknown>, expected.summary, what);
  if (expected.kind === 'simple-page') {
    expect(Object.keys(body), `${what}: simple envelope keys`).to.deep.equal(SIMPLE_ENVELOPE_KEYS);
    expectSameJson(body, expected.envelope, what);
    return;
  }
  const estimated = expected.envelope.total_is_estimate === undefined ? [] : ['total_is_estimate'];
  expect(Object.keys(body), `${what}: envelope keys`).to.deep.equal([...ENVELOPE_KEYS, ...estimated]);
  const { links, ...rest } = body;
  expectSameJson(rest, expected.envelope, what);
  expectLinks(links, expected.envelope, what);
  expect(res.headers['x-result-truncated'], `${what}: X-Result-Truncated on a page`).to.equal(undefined);
}
