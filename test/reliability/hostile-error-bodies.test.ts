// Hostile class 11, error-body amplification: generated long query strings full of mistakes (unknown
// fields in every modifier and alias form, several in one search key, invalid values and list items,
// unknown relations and directions, malformed and repeated keys), with names and values that are
// long or that JSON must escape. However many problems, the 400 body stays within the bound
// docs/errors.md states: 24 KB plus twice the first problem's `parameter` and `allowed` (the top
// level repeats it), so at most four bytes per byte of query string (JSON escapes a control
// character's `%01` as `\u0001`) plus 24 KB and the catalog's list.

import { expect } from 'chai';
import fc from 'fast-check';
import { enc, useHostileApps } from './hostile-harness';

/** The bound of docs/errors.md ("A capped body"). */
const BODY_CONSTANT = 24 * 1024;

const jsonBytes = (value: unknown): number => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/** Text a name or value is made of: plain, long, or what JSON escapes (controls, quotes, backslashes). */
const textArb = fc.oneof(
  fc.constantFrom('nickname', 'x', 'zz', 'name', 'id'),
  fc
    .tuple(fc.constantFrom('a', '"', '\\', '\u0001', '\u001f', 'é', '\u2028', '😀', '<'), fc.integer({ min: 1, max: 400 }))
    .map(([ch, n]) => ch.repeat(n)),
  fc.string({ minLength: 1, maxLength: 40 }),
);

/** One mistake, as a query-string segment (or two, for alias forms that need their expansion). */
const mistakeArb = fc.oneof(
  textArb.map((t) => `filter[${enc(t)}]=1`),
  textArb.map((t) => `filter[or+${enc(t)}]=1`),
  textArb.map((t) => `in[${enc(t)}]=1,2`),
  textArb.map((t) => `between[${enc(t)}]=1,2`),
  textArb.map((t) => `sort[${enc(t)}]=desc`),
  textArb.map((t) => `sort[name]=${enc(t)}`),
  fc.array(textArb, { minLength: 1, maxLength: 30 }).map((ts) => `search[${ts.map(enc).join(',')}]=x`),
  fc.array(textArb, { minLength: 1, maxLength: 30 }).map((ts) => `fields=${ts.map(enc).join(',')}`),
  fc.array(textArb, { minLength: 1, maxLength: 30 }).map((ts) => `in[id]=${ts.map(enc).join(',')}`),
  textArb.map((t) => `filter[id]=${enc(t)}`),
  textArb.map((t) => `between[created_at]=${enc(t)},${enc(t)}`),
  textArb.map((t) => `expand[${enc(t)}]`),
  textArb.map((t) => `expand[posts]=p&p_filter[${enc(t)}]=1`),
  fc.array(textArb, { minLength: 1, maxLength: 30 }).map((ts) => `expand[posts]=p&p_search[${ts.map(enc).join(',')}]=x`),
  textArb.map((t) => `filter[${enc(t)}`),
  textArb.map((t) => `filter[${enc(t)}%E0]=1`),
  textArb.map((t) => `filter[${enc(t)}+name]=1`),
  fc.constantFrom('page=0', 'per-page=1000', 'limit=-1', 'fields!=', 'per_page=5', 'sort[name]', 'filter[name]=%FF'),
);

const requestArb = fc.record({
  mistakes: fc.array(mistakeArb, { minLength: 1, maxLength: 120 }),
  lenient: fc.boolean(),
  collection: fc.constantFrom('users', 'users', 'posts'),
});

describe('hostile input: error-body amplification (class 11)', function () {
  const h = useHostileApps();

  it("a 400 body is at most 24 KB plus twice its first problem's parameter and allowed list", async function () {
    this.timeout(300000);
    const worst = { ratio: 0, beyondEcho: 0, body: 0 };
    let refused = 0;
    let omitted = 0;
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ mistakes, lenient, collection }) => {
        const query = mistakes.join('&');
        const res = await h.send(query, lenient ? 'lenient' : 'strict', collection);
        if (res.status < 400) return;
        refused += 1;
        const body = res.body as { parameter?: string; allowed?: unknown; errors_omitted?: number };
        if (body.errors_omitted !== undefined) omitted += 1;
        const bytes = Buffer.byteLength(res.text);
        const beyondEcho = bytes - 2 * (jsonBytes(body.parameter) + jsonBytes(body.allowed));
        worst.ratio = Math.max(worst.ratio, bytes / query.length);
        worst.beyondEcho = Math.max(worst.beyondEcho, beyondEcho);
        worst.body = Math.max(worst.body, bytes);
        const what = `${bytes}-byte body for a ${query.length}-byte query ${query.slice(0, 200)}`;
        expect(beyondEcho, what).to.be.at.most(BODY_CONSTANT);
        expect(bytes, what).to.be.at.most(4 * query.length + BODY_CONSTANT + 2 * jsonBytes(body.allowed));
      }),
      { seed: Number(process.env.FC_SEED ?? 1111), numRuns: Number(process.env.HOSTILE_RUNS ?? 300) },
    );
    console.log(
      `    error bodies: ${refused} refused (${omitted} with errors_omitted); largest ${worst.body} bytes, ` +
        `${worst.beyondEcho} beyond the echoed parameter and list, ${worst.ratio.toFixed(1)} bytes per query byte at most`,
    );
    expect(refused, 'generated requests refused').to.be.greaterThan(100);
    expect(omitted, 'generated requests with more problems than listed').to.be.greaterThan(10);
  });
});
