// Differential test of ranked search (docs/query-language.md, "Ranked search: match and similar"):
// fast-check generates `match` texts in web-search syntax (words in several forms, phrases, `or`,
// `-word`, words English ignores), `similar[title]` texts with typos, a filter, the sorts the ranks
// allow, `_relevance` / `_similarity` in fields, limit/offset slices and cursor walks; each answer
// must equal ranked-reference.ts's, which asks PostgreSQL only for one record's match and rank.
// Fixed seed by default; FC_SEED=<n> replays or explores another seed, FC_RUNS=<n> sets the count.

import fc from 'fast-check';
import { expect } from 'chai';
import supertest from 'supertest';
import { expectOk, rowsOf, startApp, type TestApp } from '../support/app';
import { walkForward } from '../support/cursor-walk';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { createRankedTables, rankedCollections } from '../http/ranked-models';
import { evaluateRanked, rankedQuery, type NoteRow, type RankedSpec } from './ranked-reference';

const WORDS = ['replica', 'replicas', 'replication', 'postgres', 'index', 'indexes', 'koa', 'pasta', 'search', 'searching', 'rank', 'lag'];
const IGNORED = ['the', 'of', 'and'];

/** 150 notes whose titles and bodies are drawn from WORDS (and words English ignores), some bodies NULL. */
function noteRows(): NoteRow[] {
  let state = 7;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const phrase = (length: number) => Array.from({ length }, () => (next(5) === 0 ? IGNORED[next(3)] : WORDS[next(WORDS.length)])).join(' ');
  return Array.from({ length: 150 }, (_, i) => ({
    id: 1000 + i,
    title: phrase(1 + next(3)),
    body: next(6) === 0 ? null : phrase(next(6)),
  }));
}

const wordArb = fc.constantFrom(...WORDS);
const termArb = fc.oneof(
  { arbitrary: wordArb, weight: 5 },
  { arbitrary: wordArb.map((w) => `-${w}`), weight: 1 },
  { arbitrary: fc.tuple(wordArb, wordArb).map(([a, b]) => `"${a} ${b}"`), weight: 1 },
  { arbitrary: fc.constantFrom(...IGNORED), weight: 1 },
);
const matchArb = fc
  .array(termArb, { minLength: 1, maxLength: 3 })
  .chain((terms) =>
    fc
      .array(fc.boolean(), { minLength: terms.length, maxLength: terms.length })
      .map((ors) => terms.map((t, i) => (i > 0 && ors[i] ? `or ${t}` : t)).join(' ')),
  );
/** A word with one letter dropped or doubled: a typo `similar` should forgive. */
const similarArb = fc.tuple(wordArb, wordArb, fc.nat(5)).map(([a, b, at]) => `${a.slice(0, at)}${a.slice(at + 1)} ${b}`);

const specArb: fc.Arbitrary<RankedSpec> = fc
  .record({
    match: fc.option(matchArb, { nil: null }),
    similar: fc.option(similarArb, { nil: null, freq: 3 }),
    minId: fc.option(fc.integer({ min: 1000, max: 1150 }), { nil: null, freq: 2 }),
    sortPick: fc.nat(4),
    rankField: fc.boolean(),
    paging: fc.oneof(
      fc.record({ kind: fc.constant('limit' as const), limit: fc.integer({ min: 1, max: 40 }), offset: fc.nat(30) }),
      fc.record({ kind: fc.constant('cursor' as const), perPage: fc.integer({ min: 1, max: 9 }) }),
    ),
  })
  .filter((s) => s.match !== null || s.similar !== null)
  .map(({ match, similar, minId, sortPick, rankField, paging }): RankedSpec => {
    const sorts: RankedSpec['sort'][] = ['none', 'id:desc'];
    if (match !== null) sorts.push('_relevance:asc', '_relevance:desc');
    if (similar !== null) sorts.push('_similarity:desc');
    const sort = sorts[sortPick % sorts.length] ?? 'none';
    const ranks = rankField ? [...(match === null ? [] : ['_relevance']), ...(similar === null ? [] : ['_similarity'])] : [];
    return { match, similar, minId, sort, fields: ['id', 'title', ...ranks], paging };
  });

describe('ranked search differential', function () {
  let db: TestDatabase;
  let app: TestApp;
  const rows = noteRows();

  before(async function () {
    db = await createTestDatabase({
      empty: true,
      trigram: true,
      prepare: async (knex) => {
        await createRankedTables(knex, true);
        await knex('notes').insert(rows);
      },
    });
    app = await startApp(db.knex, { collections: rankedCollections });
  });

  after(async function () {
    await app.close();
    await db.destroy();
  });

  it('answers every generated match / similar request as the reference does', async function () {
    const get = (path: string) => supertest(app.origin).get(path);
    const seed = Number(process.env.FC_SEED ?? 20261127);
    const numRuns = Number(process.env.FC_RUNS ?? 120);
    const all = await db.knex<NoteRow>('notes').select('id', 'title', 'body');
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const path = `/api/notes?${rankedQuery(spec)}`;
        const expected = await evaluateRanked(db.knex, all, spec, 0.3);
        if (expected.kind === 'refused') {
          const res = await get(path);
          expect(res.status, `${path}: ${res.text.slice(0, 200)}`).to.equal(400);
          expect((res.body as { code: string }).code, path).to.equal('INVALID_VALUE');
          return;
        }
        if (spec.paging.kind === 'cursor') {
          const walk = await walkForward(get, path, 400);
          expect(walk.records, path).to.deep.equal(expected.records);
          return;
        }
        const res = await get(path);
        expectOk(res, path);
        expect(rowsOf(res), path).to.deep.equal(expected.records);
      }),
      { seed, numRuns, endOnFailure: true },
    );
  });
});
