// The demo server's API token (server/auth.ts; issue 11 point 7): with API_TOKEN set, the token is
// asked for before anything else on every path and method but /health and /ready, so no 404 lists
// the collections, no 405 comes before the 401, and neither the index nor the admin page is served
// without it. Programs send it as a Bearer token, browsers as the password of Basic credentials;
// CORS preflights, which browsers send without credentials, are answered alike on every API path.

import { expect } from 'chai';
import { corsFromEnv } from '../../server/cors';
import { expectValidProblem } from '../support/problems';
import type { TestDatabase } from '../support/db';
import { demoDatabase, serveDemo, type DemoServer } from '../support/demo-server';
import { rawExchange, type RawAnswer } from '../support/raw-socket';

const TOKEN = 's3cret';
const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('demo server: the API token comes first', function () {
  let db: TestDatabase;
  let server: DemoServer;
  const send = (method: string, path: string, headers: Readonly<Record<string, string>> = {}): Promise<RawAnswer> => {
    const lines = Object.entries({ Host: 'demo.example', ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    return rawExchange(server.port, `${method} ${path} HTTP/1.1\r\n${lines}\r\n`, { head: method === 'HEAD' });
  };

  before(async function () {
    this.timeout(120000);
    db = await demoDatabase();
    server = await serveDemo(db.knex, { apiToken: TOKEN, explain: true, cors: corsFromEnv('https://app.example') });
  });

  after(async function () {
    await server?.close();
    await db?.destroy();
  });

  const guarded = [
    '/',
    '/admin',
    '/admin/',
    '/admin/index.html',
    '/admin/assets/none.js',
    '/api',
    '/api/users',
    '/api/users?filter[nope]=1',
    '/api/nope',
    '/api/_meta',
    '/api/_meta/users',
    '/api/_explain/users',
    '/api/openapi.json',
    '/nowhere',
  ];

  it('answers 401 with both challenges on every path and method without the token, and names nothing', async function () {
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'TRACE', 'PROPFIND', 'OPTIONS']) {
      for (const path of guarded) {
        const answer = await send(method, path);
        const what = `${method} ${path}`;
        expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).to.equal(401);
        expect(answer.headers['content-type'], what).to.match(/^application\/problem\+json/);
        const challenges = answer.headerLines.filter(([name]) => name.toLowerCase() === 'www-authenticate').map(([, value]) => value);
        expect(challenges, what).to.deep.equal(['Bearer', 'Basic realm="koa-query-modifiers demo", charset="UTF-8"']);
        expect(answer.headers.allow, `${what}: no Allow before the 401`).to.equal(undefined);
        if (method === 'HEAD') continue;
        const body = expectValidProblem(answer, what);
        expect(body).to.include({ code: 'UNAUTHORIZED', detail: 'This API needs an "Authorization: Bearer <token>" header.' });
        expect(answer.text, `${what}: a collection named`).not.to.match(/users|posts|phones|roles/);
      }
    }
  });

  it('refuses a wrong token, as Bearer or as Basic password', async function () {
    for (const authorization of [
      'Bearer nope',
      `Bearer ${TOKEN}x`,
      basic('admin', 'nope'),
      basic(TOKEN, ''),
      `Basic ${Buffer.from(TOKEN).toString('base64')}`,
      'Token s3cret',
      TOKEN,
    ]) {
      const answer = await send('GET', '/api/users', { Authorization: authorization });
      expect(expectValidProblem(answer, authorization)).to.include({ code: 'UNAUTHORIZED', detail: 'The token is not valid.' });
    }
  });

  it('answers /health and /ready without it, 405 included', async function () {
    for (const path of ['/health', '/ready']) {
      expect((await send('GET', path)).status, path).to.equal(200);
      const trace = await send('TRACE', path);
      expect(trace.status, `TRACE ${path}`).to.equal(405);
      expect(trace.headers.allow).to.equal('GET, HEAD');
    }
  });

  it('with the token, as Bearer or as the password of any user name, answers as without API_TOKEN', async function () {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer  ${TOKEN}`, basic('admin', TOKEN), basic('', TOKEN), basic('x', TOKEN)]) {
      const index = await send('GET', '/', { Authorization: authorization });
      expect(index.status, authorization).to.equal(200);
      expect(Object.keys((index.body as { collections: object }).collections)).to.deep.equal(['users', 'posts', 'phones', 'roles']);
      const page = await send('GET', '/admin/', { Authorization: authorization });
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
      const nope = await send('GET', '/api/nope', { Authorization: authorization });
      expect(expectValidProblem(nope, 'GET /api/nope').detail).to.equal(
        'There is no collection "nope"; collections: users, posts, phones, roles',
      );
      const post = await send('POST', '/api/users', { Authorization: authorization });
      expect(post.status).to.equal(405);
      expect(post.headers.allow).to.equal('GET, HEAD');
      const meta = await send('GET', '/api/_meta', { Authorization: authorization });
      expect(meta.body).to.include({ explain: true });
    }
  });

  describe('with CORS_ORIGIN', function () {
    const preflight = (path: string, method = 'GET', origin = 'https://app.example'): Promise<RawAnswer> =>
      send('OPTIONS', path, { Origin: origin, 'Access-Control-Request-Method': method });

    it('answers read preflights without the token, for a collection and for a name that is none alike', async function () {
      const [users, nope] = [await preflight('/api/users'), await preflight('/api/nope')];
      for (const answer of [users, nope]) {
        expect(answer.status).to.equal(204);
        expect(answer.headers['access-control-allow-origin']).to.equal('https://app.example');
        expect(answer.headers['access-control-allow-methods']).to.equal('GET,HEAD');
      }
    });

    it('leaves a preflight for another method or another path to the token', async function () {
      expect((await preflight('/api/users', 'DELETE')).status).to.equal(401);
      expect((await preflight('/', 'GET')).status).to.equal(401);
      expect((await preflight('/admin/', 'GET')).status).to.equal(401);
    });

    it('puts CORS headers on the 401, so the page can read it', async function () {
      const answer = await send('GET', '/api/users', { Origin: 'https://app.example' });
      expect(answer.status).to.equal(401);
      expect(answer.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(answer.headers['access-control-expose-headers']).to.match(/X-Request-Id/);
    });
  });
});
