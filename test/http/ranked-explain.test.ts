// Ranked search uses the indexes the docs show (docs/query-language.md, "Ranked search: match and
// similar"): on a table of 100,000 notes, PostgreSQL's plan of a `match` reads the GIN index on
// the weighted document and a `similar` the trigram index on the title (a Bitmap Index Scan each),
// whatever else the request asks (relevance order, a cursor page, a total).

import { expect } from 'chai';
import supertest from 'supertest';
import { expectOk, objectOf, startApp, type TestApp } from '../support/app';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/db';
import { createRankedTables, rankedCollections } from './ranked-models';

const ROWS = 100_000;

/** The notes: common words everywhere, `zebra` in one note of ten thousand. */
async function fillNotes(knex: TestDatabase['knex']): Promise<void> {
  await createRankedTables(knex, true);
  await knex.raw(
    `insert into notes (id, title, body)
     select i, case when i % 10000 = 0 then 'zebra crossing ' || i else 'note number ' || i end,
       (array['replica lag grows', 'koa middleware', 'boil the pasta', 'search ranks documents'])[1 + i % 4]
     from generate_series(100, ? + 99) as i`,
    [ROWS],
  );
  await knex.raw('analyze notes');
}

describe('ranked search plans on 100,000 rows', function () {
  let db: TestDatabase;
  let app: TestApp;

  before(async function () {
    // A plan is PostgreSQL's own choice: the server's planner, with its statistics, is what hosts run.
    if (testDbKind() !== 'postgres') this.skip();
    db = await createTestDatabase({ empty: true, trigram: true, prepare: fillNotes });
    app = await startApp(db.knex, { collections: rankedCollections, admin: { explain: true }, authorize: () => true });
  });

  after(async function () {
    await app?.close();
    await db?.destroy();
  });

  const plans = async (query: string): Promise<string[]> => {
    const res = await supertest(app.origin).get(`/api/_explain/notes?${query}&explain=plan`);
    expectOk(res);
    return ((objectOf(res).plan as unknown[]) ?? []).map((plan) => JSON.stringify(plan));
  };

  /** A Bitmap Index Scan node on `index` in a plan's JSON. */
  const indexScan = (index: string) => new RegExp(`"Node Type":"Bitmap Index Scan"[^{}]*"Index Name":"${index}"`);

  for (const query of [
    'match=zebra',
    'match=zebra&fields=id,_relevance&per-page=5',
    'match=zebra%20crossing&sort[_relevance]=desc&cursor=',
  ]) {
    it(`${query}: a Bitmap Index Scan on the document's GIN index`, async function () {
      const planned = await plans(query);
      expect(planned[0]).to.match(indexScan('notes_document'));
    });
  }

  for (const query of ['similar[title]=zebra%20crosing', 'similar[title]=zebra%20crosing&fields=id,_similarity&per-page=5']) {
    it(`${query}: a Bitmap Index Scan on the title's trigram index`, async function () {
      const planned = await plans(query);
      expect(planned[0]).to.match(indexScan('notes_title_trgm'));
    });
  }

  it('finds the notes through the index', async function () {
    const res = await supertest(app.origin).get('/api/notes?match=zebra&fields=id');
    expectOk(res);
    expect(JSON.parse(res.text)).to.have.length(ROWS / 10000);
  });
});
