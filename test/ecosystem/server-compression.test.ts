// The demo server's compression (server/compression.ts; issue 11 point 4): bodies of 1 KB or more in
// the coding the client weighs highest, brotli or gzip; small bodies, clients that accept no coding
// offered, and clients that refuse even identity (`identity;q=0`, `*;q=0`, `br;q=-1`, which answered
// 500 under koa-compress) get the body as it is, never a 5xx.

import { expect } from 'chai';
import type Koa from 'koa';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { createLogger } from '../../server/logging';
import type { TestDatabase } from '../support/db';
import { demoDatabase } from '../support/demo-server';

describe('demo server: compression', function () {
  let db: TestDatabase;
  let app: Koa;
  let plain: unknown;
  const get = (path: string, acceptEncoding?: string): supertest.Test => {
    const test = supertest(app.callback()).get(path);
    // superagent asks for gzip unless told otherwise; undefined means no header at all.
    return acceptEncoding === undefined ? test.unset('Accept-Encoding') : test.set('Accept-Encoding', acceptEncoding);
  };

  before(async function () {
    this.timeout(120000);
    db = await demoDatabase();
    app = await createApp({ knex: db.knex, logger: createLogger({ LOG_LEVEL: 'silent' }) });
    plain = (await get('/api/users?limit=50').expect(200)).body;
  });

  after(async function () {
    await db?.destroy();
  });

  it('compresses a large JSON body when the client accepts gzip or br, and the body reads the same', async function () {
    for (const encoding of ['gzip', 'br']) {
      const res = await get('/api/users?limit=50', encoding).expect(200);
      expect(res.headers['content-encoding']).to.equal(encoding);
      expect(res.headers.vary).to.match(/Accept-Encoding/i);
      expect(res.body).to.deep.equal(plain);
    }
  });

  it('sends small bodies, and bodies to clients that ask for none, as they are', async function () {
    const small = await get('/health', 'gzip').expect(200);
    expect(small.headers['content-encoding']).to.equal(undefined);
    for (const header of [undefined, '', 'identity', 'x-gzip', 'compress, deflate']) {
      const res = await get('/api/users?limit=50', header).expect(200);
      expect(res.headers['content-encoding'], String(header)).to.equal(undefined);
      expect(res.body, String(header)).to.deep.equal(plain);
    }
  });

  it('follows the weights: the highest above 0 wins, br before gzip when equal, identity when weighed higher', async function () {
    const cases: readonly (readonly [string, string | undefined])[] = [
      ['gzip;q=0.5, br;q=0.8', 'br'],
      ['br;q=0.1, gzip;q=0.2', 'gzip'],
      ['gzip, br;q=0', 'gzip'],
      ['gzip, br', 'br'],
      ['*', 'br'],
      ['*;q=0.5, br;q=0', 'gzip'],
      ['GZIP', 'gzip'],
      ['gzip ; q=0.3 , BR;Q=0.2', 'gzip'],
      ['identity, gzip;q=0.5', undefined],
      ['identity;q=0.5, gzip', 'gzip'],
      ['br;q=1.000', 'br'],
      ['br;q=0.000, gzip;q=0.001', 'gzip'],
    ];
    for (const [header, wanted] of cases) {
      const res = await get('/api/users?limit=50', header).expect(200);
      expect(res.headers['content-encoding'], header).to.equal(wanted);
      expect(res.body, header).to.deep.equal(plain);
    }
  });

  it('answers identity, never a 5xx, when the client refuses every coding offered and identity too', async function () {
    const refusals = [
      'identity;q=0',
      '*;q=0',
      'br;q=-1',
      'identity;q=0, *;q=0',
      'gzip;q=0, br;q=0, identity;q=0',
      'br;q=-1, gzip;q=-1',
      'gzip;q=2',
      'br;q=abc',
      'gzip;level=9',
      ';q=1',
      ',,,',
      'br;q=0.0001',
    ];
    for (const header of refusals) {
      const res = await get('/api/users?limit=50', header);
      expect(res.status, header).to.equal(200);
      expect(res.headers['content-encoding'], header).to.equal(undefined);
      expect(res.body, header).to.deep.equal(plain);
      // Every other kind of body over 1 KB too: the admin page, the OpenAPI document, a problem.
      for (const path of ['/admin/', '/api/openapi.json', `/api/users?${Array.from({ length: 40 }, (_, i) => `sort[no${i}]`).join('&')}`]) {
        const other = await get(path, header);
        expect(other.status, `${path} ${header}`).to.be.oneOf([200, 400]);
        expect(other.headers['content-encoding'], `${path} ${header}`).to.equal(undefined);
        expect(Number(other.headers['content-length']), `${path} is over 1 KB`).to.be.above(1024);
      }
    }
  });
});
