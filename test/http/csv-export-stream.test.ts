// A whole-list CSV export (docs/query-language.md, "Export as CSV") over the fixture: the records come
// in batches in the request's order, primary key last, as the JSON answer orders them; the scope hook
// restricts every batch and the count; limits.maxExportRows refuses a longer list before anything is
// sent; a batch that fails cuts the connection; hidden fields never appear and masked ones come masked.

import { get as httpGet, type IncomingMessage } from 'node:http';
import { expect } from 'chai';
import type { Context } from 'koa';
import supertest from 'supertest';
import type { ModelQuery } from '../../plugin';
import { expectOk, idsOf, range, rowsOf, useApp } from '../support/app';
import { csvRecords } from '../support/csv';
import { expectProblem } from '../support/problems';
import { createTokens, maskEmail, secretCollections } from './visibility-models';

/** The ids a CSV answer lists, in order. */
const csvIds = (text: string): number[] => csvRecords(text).records.map((r) => Number(r.id));

/** What a client reading `url` to its end receives, and whether the response was complete. */
function readToEnd(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete }));
    }).on('error', reject);
  });
}

describe('CSV export of a whole list', function () {
  const hooked: string[] = [];
  /** Restricts users to `x-max-id` when sent; `x-fail-at: N` makes the Nth statement planned for the request fail in the database. */
  const scope = (ctx: Context, collection: string, query: ModelQuery): void => {
    if (collection !== 'users') return;
    hooked.push(collection);
    const max = ctx.get('x-max-id');
    if (max !== '') query.where('users.id', '<=', Number(max));
    const state = ctx.state as { planned?: number };
    state.planned = (state.planned ?? 0) + 1;
    if (ctx.get('x-fail-at') === String(state.planned)) query.whereRaw('1 / (select 0) = 1');
  };
  const logged: string[] = [];
  const h = useApp({
    scope,
    limits: { exportBatchRows: 4, maxExportRows: 15 },
    logger: { error: (message: string) => void logged.push(message) },
  });

  beforeEach(function () {
    hooked.length = 0;
  });

  for (const sort of ['', '&sort[status]=desc', '&sort[role]&sort[name]=desc', '&sort[score]=desc&filter[active]=true']) {
    it(`comes in batches in the order the JSON answer has${sort === '' ? ' (the default order)' : `: ${sort.slice(1)}`}`, async function () {
      const json = idsOf(rowsOf(await h.get(`/api/users?fields=id,name${sort}&limit=1000`).set('x-max-id', '15')));
      hooked.length = 0;
      const res = await h.get(`/api/users?format=csv&fields=id,name${sort}`).set('x-max-id', '15');
      expectOk(res);
      expect(csvIds(res.text)).to.deep.equal(json);
      // Batches of about four records: the hook restricted each batch's statement (the first's also counted).
      expect(hooked.length).to.be.within(Math.ceil(json.length / 6), Math.ceil(json.length / 4) + 1);
      expect(hooked.length).to.be.greaterThan(1);
    });
  }

  it('applies the scope to the count: what the scope leaves within maxExportRows is exported', async function () {
    const res = await h.get('/api/users?format=csv&fields=id').set('x-max-id', '15');
    expectOk(res);
    expect(csvIds(res.text)).to.deep.equal(range(1, 15));
  });

  it('refuses a list longer than maxExportRows before anything is sent, and exports it page by page', async function () {
    const refused = await h.get('/api/users?format=csv&fields=id');
    expectProblem(refused, { code: 'LIMIT_EXCEEDED', allowed: 15 });
    expect(String(refused.body.detail)).to.match(/More than 15 records match/);
    expectProblem(await h.get('/api/users?format=csv&fields=id').set('x-max-id', '16'), { code: 'LIMIT_EXCEEDED' });
    const page = await h.get('/api/users?format=csv&fields=id&per-page=20&page=2');
    expect(csvIds(page.text)).to.deep.equal([21, 22, 23]);
    expect(csvIds((await h.get('/api/users?format=csv&fields=id&filter[id]=>10')).text)).to.deep.equal(range(11, 23));
  });

  it('refuses expansions, naming each; count stays a column', async function () {
    expectProblem(await h.get('/api/users?format=csv&expand[posts]=p&p_fields=id&expand[phone]').set('x-max-id', '3'), {
      code: 'CONFLICTING_PARAMETERS',
      errors: [
        { code: 'CONFLICTING_PARAMETERS', parameter: 'expand[posts]' },
        { code: 'CONFLICTING_PARAMETERS', parameter: 'expand[phone]' },
      ],
    });
    const counted = await h.get('/api/users?format=csv&fields=id&count[posts]').set('x-max-id', '3');
    expectOk(counted);
    const json = rowsOf(await h.get('/api/users?fields=id&count[posts]').set('x-max-id', '3'));
    expect(csvRecords(counted.text).records).to.deep.equal(json.map((r) => ({ id: String(r.id), posts_count: String(r.posts_count) })));
  });

  it('cuts the connection when a later batch fails: the client sees an incomplete answer, not a whole file', async function () {
    const whole = await readToEnd(`${h.origin}/api/users?format=csv&fields=id&filter[id]=<=12`);
    expect([whole.status, whole.complete, csvIds(whole.text)]).to.deep.equal([200, true, range(1, 12)]);
    const cut = await readToEnd(`${h.origin}/api/users?format=csv&fields=id&filter[id]=<=12`, { 'x-fail-at': '3' });
    expect(cut.status).to.equal(200);
    expect(cut.complete, 'the response was ended as if complete').to.equal(false);
    expect(cut.text.startsWith('id\r\n1\r\n2\r\n3\r\n4\r\n')).to.equal(true);
    expect(logged).to.include('koa-query-modifiers: an export failed after it started; its connection is cut');
    // A failure in the first batch is an ordinary answer: nothing had been sent.
    const first = await h.get('/api/users?format=csv&fields=id&filter[id]=<=12').set('x-fail-at', '1');
    expect(first.status).to.equal(500);
  });

  it('answers HEAD with the headers and no body', async function () {
    const res = await supertest(h.origin).head('/api/users?format=csv').set('x-max-id', '5');
    expectOk(res);
    expect(res.headers['content-type']).to.equal('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="users.csv"');
  });
});

describe('CSV export: batches bounded by limits.maxResponseBytes', function () {
  const statements: string[] = [];
  const h = useApp({ limits: { maxResponseBytes: 1024 } }, {});

  it('reads as many batches as the byte budget needs, nothing repeated or skipped', async function () {
    h.db.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
    try {
      const res = await h.get('/api/users?format=csv&sort[name]=desc');
      expectOk(res);
      const pages: number[] = [];
      for (let page = 1; page <= 12; page++)
        pages.push(...idsOf(rowsOf(await h.get(`/api/users?sort[name]=desc&limit=2&offset=${(page - 1) * 2}`))));
      expect(csvIds(res.text)).to.deep.equal(pages);
      // A user's record holds about 300 bytes of JSON: a few per batch, so many batches.
      expect(statements.filter((sql) => sql.includes('__kqm_bytes')).length).to.be.greaterThan(5);
    } finally {
      h.db.knex.removeAllListeners('query');
    }
  });
});

describe('CSV export: hidden and masked fields', function () {
  const h = useApp({ collections: secretCollections, limits: { exportBatchRows: 2 } }, { prepare: createTokens });

  it('never writes a field the model hides, and writes a masked one as the model masks it', async function () {
    const json = rowsOf(await h.get('/api/users?limit=1000'));
    const res = await h.get('/api/users?format=csv');
    expectOk(res);
    const { header, records } = csvRecords(res.text);
    expect(header).to.not.include('password_hash');
    expect(res.text).to.not.include('-secret');
    expect(records.map((r) => r.email)).to.deep.equal(json.map((r) => r.email));
    expect(records[0]?.email).to.equal(maskEmail('alice@example.com'));
    // The uuid key the model's JSON removes still orders the batches, and is never written.
    const tokens = await h.get('/api/tokens?format=csv&sort[label]');
    expect(tokens.text).to.equal('label,n\r\na,5\r\na,3\r\na,1\r\nb,4\r\nb,2\r\n');
    const tokenJson = rowsOf(await h.get('/api/tokens?sort[label]'));
    expect(csvRecords(tokens.text).records).to.deep.equal(tokenJson.map((r) => ({ label: r.label, n: String(r.n) })));
  });
});
