// Ranked search over HTTP (docs/query-language.md, "Ranked search: match and similar"): `match`
// with `_relevance` and its default order, web-search syntax, a stored tsvector column, `similar`
// with `_similarity`, cursors over relevance order, and the refusals. Expected ranks are asked of
// the database directly, so the order checked is PostgreSQL's own.

import { expect } from 'chai';
import supertest from 'supertest';
import { expectOk, idsOf, objectOf, rowsOf, startApp, asRows, type Row, type TestApp } from '../support/app';
import { walkBack, walkForward } from '../support/cursor-walk';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { expectProblemAt } from '../support/problems';
import { createRankedTables, rankedCollections } from './ranked-models';

const DOCUMENT =
  "setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B')";

describe('ranked search: match and similar', function () {
  let db: TestDatabase;
  let app: TestApp;
  const get = (path: string) => supertest(app.origin).get(path);

  before(async function () {
    db = await createTestDatabase({ empty: true, trigram: true, prepare: (knex) => createRankedTables(knex, true) });
    app = await startApp(db.knex, { collections: rankedCollections, admin: {} });
  });

  after(async function () {
    await app.close();
    await db.destroy();
  });

  it('_meta tells the document, the index found on it and the fields similar takes', async function () {
    const notes = objectOf(await get('/api/_meta/notes'));
    expect(notes.match).to.deep.equal({
      language: 'english',
      fields: [
        { name: 'title', weight: 'A' },
        { name: 'body', weight: 'B' },
      ],
      index: 'notes_document',
    });
    expect(notes.similar).to.deep.equal({ fields: ['title', 'body'], threshold: 0.3 });
    const memos = objectOf(await get('/api/_meta/memos'));
    expect(memos.match).to.deep.equal({ language: 'simple', column: 'document', index: 'memos_document' });
    expect(memos).to.not.have.property('similar');
    expect(objectOf(await get('/api/_meta/tags'))).to.not.have.property('match');
  });

  it('the OpenAPI document offers match, similar[...] and the ranks in fields and sort', async function () {
    const document = objectOf(await get('/api/openapi.json'));
    const text = JSON.stringify(document);
    const parameters = (collection: string): Row[] =>
      asRows(((document.paths as Row)[`/api/${collection}`] as Row).parameters).filter((p) => typeof p.name === 'string');
    const named = (collection: string, name: string) => parameters(collection).find((p) => p.name === name);
    expect(named('notes', 'match')).to.not.equal(undefined);
    expect(Object.keys(((named('notes', 'similar') as Row).schema as Row).properties as Row)).to.deep.equal(['title', 'body']);
    expect(named('tags', 'match')).to.equal(undefined);
    expect(((named('notes', 'fields') as Row).schema as { items: { enum: string[] } }).items.enum).to.include.members([
      '_relevance',
      '_similarity',
    ]);
    expect(text).to.include('"_relevance"');
  });

  /** The notes matching `text`, best first, as PostgreSQL ranks them. */
  const ranked = async (text: string): Promise<{ id: number; rank: number }[]> => {
    const result = await db.knex.raw<{ rows: { id: number; rank: number }[] }>(
      `select id, ts_rank(${DOCUMENT}, websearch_to_tsquery('english', ?)) as rank from notes
       where (${DOCUMENT}) @@ websearch_to_tsquery('english', ?) order by rank desc, id`,
      [text, text],
    );
    return result.rows;
  };

  const rowsAt = async (path: string): Promise<Row[]> => {
    const res = await get(path);
    expectOk(res, path);
    return rowsOf(res);
  };

  it('match finds words by their stems, best first, with _relevance as PostgreSQL ranks them', async function () {
    const rows = await rowsAt('/api/notes?match=replica&fields=id,_relevance');
    const expected = await ranked('replica');
    expect(idsOf(rows)).to.deep.equal(expected.map((r) => r.id));
    expect(idsOf(rows)).to.have.members([1, 2, 3, 6]);
    expect(rows.map((r) => r._relevance)).to.deep.equal(expected.map((r) => r.rank));
    // A title (weight A) counts more than a body (weight B).
    expect(idsOf(rows).slice(0, 2)).to.have.members([1, 6]);
  });

  it('_relevance comes with the records a model builds through its own JSON', async function () {
    const rows = await rowsAt('/api/shouted?match=replica&fields=id,title,_relevance&limit=2');
    const expected = (await ranked('replica')).slice(0, 2);
    expect(rows.map((r) => r._relevance)).to.deep.equal(expected.map((r) => r.rank));
    expect(idsOf(rows)).to.deep.equal(expected.map((r) => r.id));
    expect(String(rows[0]?.title)).to.equal(String(rows[0]?.title).toUpperCase());
  });

  it('match reads web-search syntax: a phrase, or, -word', async function () {
    expect(idsOf(await rowsAt('/api/notes?fields=id&match=%22replica%20lag%22'))).to.have.members([6]);
    expect(idsOf(await rowsAt('/api/notes?fields=id&match=pasta%20or%20trigram'))).to.have.members([4, 5]);
    expect(idsOf(await rowsAt('/api/notes?fields=id&match=replica%20-postgresql'))).to.have.members([2, 6]);
    expect(idsOf(await rowsAt('/api/notes?fields=id&match=replica%20postgresql'))).to.have.members([1, 3]);
  });

  it('a sort replaces the relevance order; sort[_relevance] orders by it', async function () {
    expect(idsOf(await rowsAt('/api/notes?fields=id&match=replica&sort[id]=desc'))).to.deep.equal([6, 3, 2, 1]);
    const expected = await ranked('replica');
    const ascending = [...expected].sort((a, b) => a.rank - b.rank || a.id - b.id).map((r) => r.id);
    expect(idsOf(await rowsAt('/api/notes?fields=id&match=replica&sort[_relevance]=asc'))).to.deep.equal(ascending);
  });

  it('match composes with filters and totals', async function () {
    const res = await get('/api/notes?fields=id&match=replica&filter[id]=>=3&per-page=1');
    expectOk(res);
    const body = objectOf(res);
    expect(body.total).to.equal(2);
    expect(idsOf(asRows(body.data))).to.deep.equal([(await ranked('replica')).filter((r) => r.id >= 3)[0]?.id]);
  });

  it('match composes with a scope hook (the builder path)', async function () {
    const hooked = await startApp(db.knex, {
      collections: rankedCollections,
      scope: (_ctx, collection, query) => (collection === 'notes' ? query.where('id', '<>', 1) : undefined),
    });
    try {
      const res = await supertest(hooked.origin).get('/api/notes?match=replica&fields=id,_relevance');
      expectOk(res);
      const expected = (await ranked('replica')).filter((r) => r.id !== 1);
      expect(idsOf(rowsOf(res))).to.deep.equal(expected.map((r) => r.id));
      expect(rowsOf(res).map((r) => r._relevance)).to.deep.equal(expected.map((r) => r.rank));
      const tags = await supertest(hooked.origin).get(
        '/api/tags?fields=id&filter[id]=1&expand[notes]=n&n_match=replica&n_fields=id,_relevance',
      );
      expectOk(tags);
      const tagged = (await ranked('replica')).filter((r) => [1, 3, 4, 6, 7].includes(r.id));
      expect(asRows(rowsOf(tags)[0]?.notes)).to.deep.equal(tagged.map((r) => ({ id: r.id, _relevance: r.rank })));
    } finally {
      await hooked.close();
    }
  });

  it('<alias>_match keeps the related records whose document matches, best first, with _relevance', async function () {
    const rows = await rowsAt('/api/tags?fields=id&expand[notes]=n&n_match=replica');
    const tagged = (await ranked('replica')).filter((r) => [1, 3, 4, 6, 7].includes(r.id));
    expect(rows.map((r) => r.id)).to.deep.equal([1, 2]);
    expect(idsOf(asRows(rows[0]?.notes))).to.deep.equal(tagged.map((r) => r.id));
    expect(asRows(rows[1]?.notes)).to.deep.equal([]);
    // Through a per-parent window, and with the ranks shown.
    const windowed = await rowsAt('/api/tags?fields=id&expand[notes]=n&n_match=replica&n_fields=id,_relevance&n_limit=2');
    expect(asRows(windowed[0]?.notes)).to.deep.equal(tagged.slice(0, 2).map((r) => ({ id: r.id, _relevance: r.rank })));
    // A sort behind the alias replaces the relevance order.
    const sorted = await rowsAt('/api/tags?fields=id&expand[notes]=n&n_match=replica&n_sort[id]=desc');
    expect(idsOf(asRows(sorted[0]?.notes))).to.deep.equal(tagged.map((r) => r.id).sort((a, b) => b - a));
  });

  it('match on a stored tsvector column', async function () {
    const rows = await rowsAt('/api/memos?match=quick&fields=id,_relevance');
    expect(idsOf(rows)).to.deep.equal([3, 1]);
  });

  it('a cursor walk over relevance order visits every matching record once, both ways', async function () {
    const extra = Array.from({ length: 45 }, (_, i) => ({
      id: 100 + i,
      title: i % 3 === 0 ? 'replica notes' : 'notes',
      body: i % 5 === 0 ? 'replica replica' : i % 2 === 0 ? 'a replica' : 'nothing here',
    }));
    await db.knex('notes').insert(extra);
    try {
      const expected = (await ranked('replica')).map((r) => r.id);
      const forward = await walkForward(get, '/api/notes?fields=id,_relevance&match=replica&per-page=4&cursor=');
      expect(idsOf(forward.records)).to.deep.equal(expected);
      const last = forward.pages[forward.pages.length - 1];
      if (last === undefined) throw new Error('no page');
      const back = await walkBack(get, last);
      expect(idsOf(back.records)).to.deep.equal(expected);
    } finally {
      await db.knex('notes').where('id', '>=', 100).delete();
    }
  });

  it('similar keeps titles like the text, most similar first, with _similarity', async function () {
    const rows = await rowsAt('/api/notes?similar[title]=postgres%20replika&fields=id,_similarity');
    const expected = await db.knex.raw<{ rows: { id: number; s: number }[] }>(
      'select id, similarity(title, ?) as s from notes where similarity(title, ?) >= 0.3 order by s desc, id',
      ['postgres replika', 'postgres replika'],
    );
    expect(expected.rows.length).to.be.greaterThan(0);
    expect(idsOf(rows)).to.deep.equal(expected.rows.map((r) => r.id));
    expect(rows.map((r) => r._similarity)).to.deep.equal(expected.rows.map((r) => r.s));
  });

  it('refuses match without a declaration, text without a word, and the ranks without what makes them', async function () {
    await expectProblemAt(get('/api/tags?match=db'), { code: 'FIELD_NOT_ALLOWED', parameter: 'match' });
    await expectProblemAt(get('/api/notes?match=%2D%2D%20%22%22'), { code: 'INVALID_VALUE', parameter: 'match' });
    await expectProblemAt(get('/api/notes?match='), { code: 'INVALID_VALUE', parameter: 'match' });
    // Only words English ignores: no search term, though every character is a letter.
    await expectProblemAt(get('/api/notes?match=the%20of'), { code: 'INVALID_VALUE', parameter: 'match' });
    await expectProblemAt(get('/api/tags?expand[notes]=n&n_match=the'), { code: 'INVALID_VALUE', parameter: 'n_match' });
    await expectProblemAt(get('/api/notes?fields=id,_relevance'), { code: 'FIELD_NOT_ALLOWED', parameter: 'fields' });
    await expectProblemAt(get('/api/tags?expand[notes]=n&n_fields=id,_relevance'), { code: 'FIELD_NOT_ALLOWED', parameter: 'n_fields' });
    await expectProblemAt(get('/api/notes?sort[_similarity]=desc&match=replica'), {
      code: 'FIELD_NOT_ALLOWED',
      parameter: 'sort[_similarity]',
    });
  });

  it('refuses similar on a field that is not a searchable text field', async function () {
    await expectProblemAt(get('/api/notes?similar[id]=1'), {
      code: 'FIELD_NOT_ALLOWED',
      parameter: 'similar[id]',
      allowed: ['title', 'body'],
    });
    await expectProblemAt(get('/api/memos?similar[text]=fox'), { code: 'FIELD_NOT_ALLOWED', parameter: 'similar[text]', allowed: [] });
  });
});

describe('ranked search without pg_trgm', function () {
  let db: TestDatabase;
  let app: TestApp;
  const told: string[] = [];

  before(async function () {
    db = await createTestDatabase({ empty: true, prepare: (knex) => createRankedTables(knex, false) });
    app = await startApp(db.knex, { collections: rankedCollections, logger: { error: () => undefined, info: (m) => told.push(m) } });
  });

  after(async function () {
    await app.close();
    await db.destroy();
  });

  it('start-up says similar is off', function () {
    expect(told.filter((m) => m.includes('similar[...] is off'))).to.have.length(1);
  });

  it('similar is FIELD_NOT_ALLOWED; match works without an index', async function () {
    await expectProblemAt(supertest(app.origin).get('/api/notes?similar[title]=replica'), {
      code: 'FIELD_NOT_ALLOWED',
      parameter: 'similar[title]',
    });
    const res = await supertest(app.origin).get('/api/notes?match=replica&fields=id');
    expectOk(res);
    expect(idsOf(rowsOf(res))).to.have.members([1, 2, 3, 6]);
  });
});
