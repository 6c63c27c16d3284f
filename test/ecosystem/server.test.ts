// The demo server's ecosystem features: /health and /ready without the API token, one structured
// pino line per request with its request id, and CORS from CORS_ORIGIN. Compression, the API token
// and the error surface have suites of their own (server-*.test.ts).

import { expect } from 'chai';
import type Koa from 'koa';
import type { Knex } from 'knex';
import pino from 'pino';
import supertest from 'supertest';
import { cachesFromEnv, createApp, cursorSecretFromEnv, serverTimingFromEnv, type AppOptions } from '../../server/app';
import { corsFromEnv } from '../../server/cors';
import { createLogger } from '../../server/logging';
import type { TestDatabase } from '../support/db';
import { demoDatabase } from '../support/demo-server';

type LogLine = Record<string, unknown>;

/** A pino logger whose lines land in `lines`, parsed. */
function memoryLogger(lines: LogLine[]): pino.Logger {
  return pino({ level: 'info' }, { write: (text: string) => void lines.push(JSON.parse(text) as LogLine) });
}

const TOKEN = 'test-token';

describe('demo server: probes, logs, CORS', function () {
  let db: TestDatabase;
  let lines: LogLine[];
  let app: Koa;
  const request = (): supertest.Agent => supertest.agent(app.callback());

  before(async function () {
    this.timeout(120000);
    db = await demoDatabase();
  });

  after(async function () {
    await db?.destroy();
  });

  async function start(options: Partial<AppOptions> = {}): Promise<void> {
    lines = [];
    app = await createApp({ knex: db.knex, apiToken: TOKEN, logger: memoryLogger(lines), ...options });
  }

  const requestLines = (): LogLine[] => lines.filter((l) => l.msg === 'request');

  describe('probes', function () {
    before(() => start());

    it('GET /health answers 200 {status: ok} without the API token', async function () {
      const res = await request().get('/health').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('GET /ready answers 200 when the database answers, without the API token', async function () {
      const res = await request().get('/ready').expect(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
      await request().get('/api/users').expect(401);
    });
  });

  describe('request logs', function () {
    beforeEach(() => start());

    it('writes one line per request with id, method, path, collection, status, duration and statement count', async function () {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      const res = await request().get('/api/users?expand[posts]=p&p_limit=2&limit=3').set(auth).set('X-Request-Id', 'req-42').expect(200);
      expect(res.headers['x-request-id']).to.equal('req-42');
      const [line, ...others] = requestLines();
      expect(others).to.have.length(0);
      expect(line).to.include({ requestId: 'req-42', method: 'GET', path: '/api/users', collection: 'users', status: 200, level: 30 });
      expect(line?.durationMs).to.be.a('number').and.to.be.at.least(0);
      expect(line?.statements).to.be.a('number').and.to.be.at.least(2);
      expect(line).not.to.have.property('code');
      expect(line).to.include({ lane: 'cheap' });
    });

    it('says which lane a request ran in: a sort by a count is heavy', async function () {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      await request().get('/api/users?fields=id&count[posts]&sort[posts_count]=desc&per-page=5').set(auth).expect(200);
      await request().get('/api/users?filter[id]=1').set(auth).expect(200);
      expect(requestLines().map((line) => line.lane)).to.deep.equal(['heavy', 'cheap']);
    });

    it('generates a request id when none (or an unusable one) is sent, and echoes it', async function () {
      const first = await request().get('/health');
      expect(first.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const second = await request().get('/health').set('X-Request-Id', 'has spaces and "quotes"');
      expect(second.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(requestLines().map((l) => l.requestId)).to.deep.equal([first.headers['x-request-id'], second.headers['x-request-id']]);
    });

    it('logs the problem code of a 4xx at warn level', async function () {
      await request().get('/api/users?filter[nope]=1').set('Authorization', `Bearer ${TOKEN}`).expect(400);
      await request().get('/api/users').expect(401);
      const [bad, unauthorized] = requestLines();
      expect(bad).to.include({ status: 400, code: 'FIELD_NOT_ALLOWED', collection: 'users', level: 40 });
      expect(unauthorized).to.include({ status: 401, code: 'UNAUTHORIZED', level: 40 });
    });

    it('is quiet under NODE_ENV=test or LOG_LEVEL=silent, and follows LOG_LEVEL otherwise', function () {
      expect(createLogger({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }).level).to.equal('silent');
      expect(createLogger({ LOG_LEVEL: 'silent' }).level).to.equal('silent');
      expect(createLogger({ LOG_LEVEL: 'debug' }).level).to.equal('debug');
      expect(createLogger({ LOG_LEVEL: 'bogus' }).level).to.equal('info');
      expect(createLogger({}).level).to.equal('info');
    });
  });

  describe('Server-Timing', function () {
    it('is on unless NODE_ENV=production', function () {
      expect(serverTimingFromEnv({})).to.equal(true);
      expect(serverTimingFromEnv({ NODE_ENV: 'development' })).to.equal(true);
      expect(serverTimingFromEnv({ NODE_ENV: 'production' })).to.equal(false);
    });

    it('is sent with the setting, and not without it', async function () {
      const auth = `Bearer ${TOKEN}`;
      await start({ plugin: { serverTiming: serverTimingFromEnv({ NODE_ENV: 'development' }) } });
      const timed = await request().get('/api/users?limit=1').set('Authorization', auth).expect(200);
      expect(timed.headers['server-timing']).to.match(/^parse;dur=\d+\.\d\d, query;dur=\d+\.\d\d, serialize;dur=\d+\.\d\d$/);
      await start({ plugin: { serverTiming: serverTimingFromEnv({ NODE_ENV: 'production' }) } });
      const untimed = await request().get('/api/users?limit=1').set('Authorization', auth).expect(200);
      expect(untimed.headers['server-timing']).to.equal(undefined);
    });
  });

  describe('cache settings', function () {
    it('reads PLAN_CACHE and TOTALS_CACHE_SECONDS, and refuses values that are not numbers of the right kind', function () {
      expect(cachesFromEnv({})).to.deep.equal({});
      expect(cachesFromEnv({ PLAN_CACHE: '0', TOTALS_CACHE_SECONDS: '2.5' })).to.deep.equal({
        planCache: 0,
        totalsCache: { ttlSeconds: 2.5 },
      });
      expect(() => cachesFromEnv({ PLAN_CACHE: '-1' })).to.throw(/PLAN_CACHE must be a whole number/);
      // A number is entries, as before; with KiB or MiB it is bytes.
      expect(cachesFromEnv({ PLAN_CACHE: '500' })).to.deep.equal({ planCache: 500 });
      expect(cachesFromEnv({ PLAN_CACHE: '16MiB' })).to.deep.equal({ planCache: { maxBytes: 16 * 1024 * 1024 } });
      expect(cachesFromEnv({ PLAN_CACHE: '64KiB' })).to.deep.equal({ planCache: { maxBytes: 64 * 1024 } });
      for (const wrong of ['8MB', '1.5MiB', 'MiB', '8 MiB'])
        expect(() => cachesFromEnv({ PLAN_CACHE: wrong })).to.throw(/PLAN_CACHE must be/);
      expect(() => cachesFromEnv({ TOTALS_CACHE_SECONDS: '0' })).to.throw(/TOTALS_CACHE_SECONDS must be a number of seconds above 0/);
      expect(() => cachesFromEnv({ TOTALS_CACHE_SECONDS: 'soon' })).to.throw(/TOTALS_CACHE_SECONDS/);
    });

    it('reads CURSOR_SECRET, several separated by commas while rotating, and refuses a short one naming the variable', function () {
      const secret = 'a secret of at least thirty-two characters';
      expect(cursorSecretFromEnv({})).to.equal(undefined);
      expect(cursorSecretFromEnv({ CURSOR_SECRET: '' })).to.equal(undefined);
      expect(cursorSecretFromEnv({ CURSOR_SECRET: secret })).to.equal(secret);
      expect(cursorSecretFromEnv({ CURSOR_SECRET: `${secret}!,${secret}` })).to.deep.equal([`${secret}!`, secret]);
      for (const wrong of ['short', `${secret},short`, `${secret},`]) {
        expect(() => cursorSecretFromEnv({ CURSOR_SECRET: wrong }))
          .to.throw(/^CURSOR_SECRET must be at least 32 characters long/)
          .with.property('message')
          .that.does.not.include('short');
      }
    });

    it('warns once at start-up, at warn level, when CURSOR_SECRET is not set, and not when it is', async function () {
      const warnings = (): LogLine[] => lines.filter((l) => l.level === 40 && String(l.msg).includes('cursorSecret'));
      await start();
      expect(warnings()).to.have.length(1);
      expect(warnings()[0]?.msg).to.include('will not survive a restart');
      await start({ cursorSecret: cursorSecretFromEnv({ CURSOR_SECRET: 'a secret of at least thirty-two characters' }) });
      expect(warnings()).to.deep.equal([]);
    });

    it('a server with kept totals answers with the same envelope', async function () {
      await start({ apiToken: undefined, caches: cachesFromEnv({ TOTALS_CACHE_SECONDS: '5', PLAN_CACHE: '64KiB' }) });
      const first = await request().get('/api/users?per-page=2&page=2').set('Host', 'demo.example').expect(200);
      const second = await request().get('/api/users?per-page=2&page=2').set('Host', 'demo.example').expect(200);
      expect(second.body).to.deep.equal(first.body);
      expect(first.body.total).to.be.a('number').above(2);
    });
  });

  describe('the index at /', function () {
    it('links the admin UI, which answers there', async function () {
      await start({ apiToken: undefined });
      const home = await request().get('/').expect(200);
      const admin = String((home.body as { admin?: unknown }).admin);
      expect(admin).to.match(/^http:\/\/127\.0\.0\.1:\d+\/admin\/$/);
      const page = await request().get(new URL(admin).pathname).expect(200);
      expect(page.type).to.equal('text/html');
    });

    it('is a page whose first link opens the admin UI when a browser asks for HTML', async function () {
      await start({ apiToken: undefined });
      const home = await request().get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
      expect(home.type).to.equal('text/html');
      expect(home.headers.vary).to.match(/\bAccept\b/);
      const first = /<a href="([^"]+)">([^<]*<strong>[^<]*<\/strong>|[^<]*)/.exec(home.text);
      expect(first?.[1]).to.match(/^http:\/\/127\.0\.0\.1:\d+\/admin\/$/);
      expect(home.text).to.contain('Open the admin UI');
    });

    it('has no admin link when the admin UI is off', async function () {
      await start({ apiToken: undefined, admin: false });
      const home = await request().get('/').expect(200);
      expect(home.body).not.to.have.property('admin');
    });
  });

  describe('TRUST_PROXY', function () {
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' };

    it('with trustProxy, page URLs and the index at / name the forwarded scheme and host', async function () {
      await start({ apiToken: undefined, trustProxy: true });
      const page = await request().get('/api/users?per-page=2').set(forwarded).expect(200);
      expect(page.body).to.include({ path: 'https://api.example.com/api/users' });
      expect(page.body.next_page_url).to.equal('https://api.example.com/api/users?per-page=2&page=2');
      const home = await request().get('/').set('Accept', 'application/json').set(forwarded).expect(200);
      expect(JSON.stringify(home.body)).to.include('https://api.example.com/api/users');
    });

    it('without it (the default), forwarded headers are ignored', async function () {
      await start({ apiToken: undefined });
      const page = await request().get('/api/users?per-page=2').set(forwarded).set('Host', 'demo.example').expect(200);
      expect(page.body).to.include({ path: 'http://demo.example/api/users' });
    });
  });

  describe('CORS', function () {
    it('is off without CORS_ORIGIN', async function () {
      expect(corsFromEnv(undefined)).to.equal(undefined);
      expect(corsFromEnv('  ')).to.equal(undefined);
      await start({ apiToken: undefined });
      const res = await request().get('/api/users?limit=1').set('Origin', 'https://app.example').expect(200);
      expect(res.headers['access-control-allow-origin']).to.equal(undefined);
    });

    it('allows the configured origin on the API routes and answers preflight', async function () {
      await start({ apiToken: undefined, cors: corsFromEnv('https://app.example') });
      const res = await request().get('/api/users?limit=1').set('Origin', 'https://app.example').expect(200);
      expect(res.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(res.headers['access-control-expose-headers']).to.match(/X-Result-Truncated/);
      const preflight = await request()
        .options('/api/users')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).to.equal(204);
      expect(preflight.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(preflight.headers['access-control-allow-methods']).to.equal('GET,HEAD');
    });

    it('accepts a comma-separated list of origins and answers only those', async function () {
      await start({ apiToken: undefined, cors: corsFromEnv('https://a.example, https://b.example') });
      const allowed = await request().get('/api/users?limit=1').set('Origin', 'https://b.example').expect(200);
      expect(allowed.headers['access-control-allow-origin']).to.equal('https://b.example');
      const other = await request().get('/api/users?limit=1').set('Origin', 'https://c.example').expect(200);
      expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });
});

describe('demo server: database outage', function () {
  let db: TestDatabase;
  let outage: () => Promise<void>;
  let knex: Knex;
  let lines: LogLine[];
  let app: Koa;

  before(async function () {
    this.timeout(120000);
    db = await demoDatabase();
    ({ knex, outage } = await db.connectWithOutage());
    lines = [];
    app = await createApp({ knex, logger: memoryLogger(lines) });
    await outage();
  });

  after(async function () {
    await db?.destroy();
  });

  it('GET /ready answers 503 SERVICE_UNAVAILABLE problem+json while /health stays 200', async function () {
    const ready = await supertest(app.callback()).get('/ready');
    expect(ready.status).to.equal(503);
    expect(ready.type).to.equal('application/problem+json');
    expect(ready.body).to.include({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(ready.headers['retry-after'], 'a 503 tells when to try again').to.equal('1');
    await supertest(app.callback()).get('/health').expect(200);
  });

  it('logs a 503 from the API with the full database error, tagged with the request id', async function () {
    lines.length = 0;
    const res = await supertest(app.callback()).get('/api/users').set('X-Request-Id', 'down-1');
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('1');
    const request = lines.find((l) => l.msg === 'request');
    expect(request).to.include({ requestId: 'down-1', status: 503, code: 'SERVICE_UNAVAILABLE', level: 50 });
    expect(request?.err).to.be.an('object').that.has.property('message').that.is.a('string');
    expect(request?.err).to.have.property('stack').that.is.a('string');
    // One error line per failed request: the plugin's own message is kept at debug level.
    expect(lines.filter((l) => typeof l.level === 'number' && l.level >= 50)).to.have.length(1);
  });
});
