// The demo server's error surface (docs/errors.md, "The demo server's own answers"): every 4xx and 5xx it
// sends is problem+json with a documented code, through its own listener (server/http-server.ts)
// over a raw socket: unknown methods on every kind of path are 405 with `Allow: GET, HEAD`, never
// 501; paths nothing serves are 404; what Node's parser refuses is 400, 414, 431 or 408; a fault
// in the server's own middleware is 500 with the request's X-Request-Id.

import { expect } from 'chai';
import Koa from 'koa';
import pino from 'pino';
import { createHttpServer } from '../../server/http-server';
import { requestLogger } from '../../server/logging';
import { serverProblems } from '../../server/problems';
import { expectValidProblem } from '../support/problems';
import type { TestDatabase } from '../support/db';
import { demoDatabase, serveDemo, type DemoServer } from '../support/demo-server';
import { rawExchange, type RawAnswer } from '../support/raw-socket';

const request = (method: string, target: string, headers = 'Host: demo.example\r\n'): string =>
  `${method} ${target} HTTP/1.1\r\n${headers}\r\n`;

/** Asserts a valid problem with `code` and `status`; returns the body. */
function expectCode(answer: RawAnswer, status: number, code: string, what: string): Record<string, unknown> {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).to.equal(status);
  const body = expectValidProblem(answer, what);
  expect(body.code, what).to.equal(code);
  return body;
}

describe('demo server: error surface', function () {
  let db: TestDatabase;
  let server: DemoServer;
  const send = (bytes: string, options: { head?: boolean; pieceBytes?: number } = {}): Promise<RawAnswer> =>
    rawExchange(server.port, bytes, options);

  before(async function () {
    this.timeout(120000);
    db = await demoDatabase();
    server = await serveDemo(db.knex);
  });

  after(async function () {
    await server?.close();
    await db?.destroy();
  });

  describe('methods (405, never 501)', function () {
    const paths = [
      '/',
      '/health',
      '/ready',
      '/admin/',
      '/admin',
      '/admin/assets/none.js',
      '/api',
      '/api/',
      '/api/users',
      '/api/nope',
      '/api/_meta',
      '/nowhere',
    ];

    it('a method no router knows is 405 with Allow: GET, HEAD on every path', async function () {
      for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'QUERY', 'M-SEARCH', 'LOCK', 'MKCOL']) {
        for (const path of paths) {
          const answer = await send(request(method, path));
          expectCode(answer, 405, 'METHOD_NOT_ALLOWED', `${method} ${path}`);
          expect(answer.headers.allow, `${method} ${path}`).to.equal('GET, HEAD');
        }
      }
    });

    it('a method the server knows but does not serve is 405 on the paths it serves', async function () {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        for (const path of ['/', '/health', '/ready', '/admin/', '/admin', '/api/users', '/api/openapi.json']) {
          const answer = await send(request(method, path));
          const body = expectCode(answer, 405, 'METHOD_NOT_ALLOWED', `${method} ${path}`);
          expect(answer.headers.allow, `${method} ${path}`).to.equal('GET, HEAD');
          expect(body.detail).to.equal(`${method} is not allowed here; use GET or HEAD`);
        }
      }
    });

    it('CONNECT is answered 405 instead of a dropped connection', async function () {
      for (const target of ['example.com:443', '/api/users']) {
        const answer = await send(request('CONNECT', target));
        expectCode(answer, 405, 'METHOD_NOT_ALLOWED', `CONNECT ${target}`);
        expect(answer.headers.allow).to.equal('GET, HEAD');
        expect(answer.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      }
    });

    it('a method Node does not know at all is 400 MALFORMED_PARAMETER', async function () {
      for (const method of ['BREW', 'GETS', 'get']) expectCode(await send(request(method, '/health')), 400, 'MALFORMED_PARAMETER', method);
    });
  });

  describe('paths nothing serves (problem+json, never text/plain)', function () {
    it('/api, /api/, /api//users and /api/users/x are UNKNOWN_COLLECTION', async function () {
      for (const path of ['/api', '/api/', '/api//users', '/api/users/x'])
        expectCode(await send(request('GET', path)), 404, 'UNKNOWN_COLLECTION', path);
    });

    it('a path outside the prefix is a 404 problem too, and HEAD has its headers', async function () {
      for (const path of ['/nowhere', '/admin/assets/none.js', '/favicon.ico', '/api-docs']) {
        const body = expectCode(await send(request('GET', path)), 404, 'UNKNOWN_COLLECTION', path);
        expect(body.detail).to.equal(`Nothing is served at ${JSON.stringify(path)}; / lists what this server serves`);
      }
      const head = await send(request('HEAD', '/nowhere'), { head: true });
      expect(head.status).to.equal(404);
      expect(head.headers['content-type']).to.match(/^application\/problem\+json/);
      // POST on a path nothing serves is a 404 as under the prefix (the plugin's rule), not a 405.
      expectCode(await send(request('POST', '/nowhere')), 404, 'UNKNOWN_COLLECTION', 'POST /nowhere');
    });
  });

  describe("what Node's parser refuses", function () {
    it('a request it cannot read is 400 MALFORMED_PARAMETER with a request id', async function () {
      for (const bytes of [
        'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        'GARBAGE\r\n\r\n',
        'GET x HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
        'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
        'GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n',
        'GET / HTTP/1.1\r\nHo st: x\r\n\r\n',
      ]) {
        const answer = await send(bytes);
        expectCode(answer, 400, 'MALFORMED_PARAMETER', JSON.stringify(bytes));
        expect(answer.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
        expect(answer.headers.connection).to.equal('close');
      }
    });

    it('an HTTP/1.1 request needs exactly one Host (HTTP/1.0 needs none)', async function () {
      expectCode(await send('GET /health HTTP/1.1\r\n\r\n'), 400, 'MALFORMED_PARAMETER', 'no Host');
      expectCode(await send('GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'), 400, 'MALFORMED_PARAMETER', 'two Hosts');
      expect((await send('GET /health HTTP/1.0\r\n\r\n')).status).to.equal(200);
    });

    it('a request target over 16 KiB is 414 and header fields over 16 KiB are 431, however the bytes arrive', async function () {
      const target = `/api/users?filter[name]=${'a'.repeat(17 * 1024)}`;
      for (const pieceBytes of [undefined, 1000]) {
        const long = await send(request('GET', target), { pieceBytes });
        const body = expectCode(long, 414, 'LIMIT_EXCEEDED', `target in pieces of ${pieceBytes ?? 'all'}`);
        expect(body.detail).to.match(/at most 16384 are read/);
        expect(long.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
        const big = await send(request('GET', '/health', `Host: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n`), { pieceBytes });
        expectCode(big, 431, 'LIMIT_EXCEEDED', `headers in pieces of ${pieceBytes ?? 'all'}`);
      }
      // A query string under the target limit but over the plugin's own cap is the plugin's 400.
      const query = await send(request('GET', `/api/users?filter[name]=${'a'.repeat(9000)}`));
      expectCode(query, 400, 'LIMIT_EXCEEDED', '9 KB query string');
    });

    it("past the parser's own limit, a long request line is 414 and long headers 431", async function () {
      expectCode(await send(request('GET', `/${'a'.repeat(60 * 1024)}`)), 414, 'LIMIT_EXCEEDED', '60 KB request line');
      const headers = Array.from({ length: 40 }, (_, i) => `X-H${i}: ${'c'.repeat(1500)}\r\n`).join('');
      expectCode(await send(request('GET', '/health', `Host: x\r\n${headers}`)), 431, 'LIMIT_EXCEEDED', '60 KB of headers');
    });

    it('a request after a good one on the same connection is answered after it', async function () {
      const answer = await send(`${request('GET', '/health')}GARBAGE\r\n\r\n`);
      expect(answer.status, 'the first answer comes first').to.equal(200);
      expect(answer.text).to.equal('{"status":"ok"}');
    });
  });

  describe('a request head that does not arrive in time', function () {
    let slow: DemoServer;
    before(async function () {
      slow = await serveDemo(db.knex, {}, { headersTimeoutMs: 300, requestTimeoutMs: 1000, timeoutCheckMs: 100 });
    });
    after(() => slow?.close());

    it('is 408 LIMIT_EXCEEDED', async function () {
      const answer = await rawExchange(slow.port, 'GET /health HTTP/1.1\r\nHost: x\r\n', { timeoutMs: 5000 });
      expectCode(answer, 408, 'LIMIT_EXCEEDED', 'unfinished head');
    });
  });
});

describe('demo server: a fault in its own middleware', function () {
  let origin: { port: number; close(): Promise<void> };
  const lines: Record<string, unknown>[] = [];

  before(async function () {
    const logger = pino({ level: 'info' }, { write: (text: string) => void lines.push(JSON.parse(text) as Record<string, unknown>) });
    // The server's layers as app.ts stacks them, over middleware that fails in each way there is.
    const app = new Koa();
    app.silent = true;
    app.use(requestLogger(logger));
    app.use(serverProblems());
    app.use(async (ctx, next) => {
      ctx.set('ETag', 'W/"half-done"');
      if (ctx.path === '/bug') throw new TypeError('Cannot read properties of undefined (reading "rows") at secret.internal:42');
      if (ctx.path === '/db-down')
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
      if (ctx.path === '/thrown-400') ctx.throw(400, 'That parameter is not for this path');
      await next();
    });
    const server = createHttpServer(app, logger);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const address = server.address();
    origin = {
      port: typeof address === 'object' && address !== null ? address.port : 0,
      close: () => new Promise<void>((closed) => server.close(() => closed())),
    };
  });

  after(() => origin?.close());

  it('answers 500 INTERNAL_ERROR problem+json, keeps X-Request-Id, logs the error on the request line', async function () {
    lines.length = 0;
    const answer = await rawExchange(origin.port, 'GET /bug HTTP/1.1\r\nHost: x\r\nX-Request-Id: fault-1\r\n\r\n');
    const body = expectCode(answer, 500, 'INTERNAL_ERROR', 'GET /bug');
    expect(body.detail).to.equal('The server failed to answer this request; the error has been logged');
    expect(answer.text).not.to.include('secret.internal');
    expect(answer.headers['x-request-id']).to.equal('fault-1');
    expect(answer.headers.etag, 'a header of the answer that was not sent').to.equal(undefined);
    const line = lines.find((l) => l.msg === 'request');
    expect(line).to.include({ requestId: 'fault-1', status: 500, code: 'INTERNAL_ERROR', level: 50 });
    expect((line?.err as { message?: string } | undefined)?.message).to.include('secret.internal');
  });

  it('answers a database that cannot serve 503 with Retry-After', async function () {
    const answer = await rawExchange(origin.port, 'GET /db-down HTTP/1.1\r\nHost: x\r\n\r\n');
    expectCode(answer, 503, 'SERVICE_UNAVAILABLE', 'GET /db-down');
    expect(answer.headers['retry-after']).to.equal('1');
    expect(answer.text).not.to.include('10.0.0.7');
  });

  it('answers a client error thrown the Koa way as a problem with its status', async function () {
    const answer = await rawExchange(origin.port, 'GET /thrown-400 HTTP/1.1\r\nHost: x\r\n\r\n');
    const body = expectCode(answer, 400, 'MALFORMED_PARAMETER', 'GET /thrown-400');
    expect(body.detail).to.equal('That parameter is not for this path');
  });

  it('answers what nothing handled 404, not text/plain', async function () {
    expectCode(await rawExchange(origin.port, 'GET /else HTTP/1.1\r\nHost: x\r\n\r\n'), 404, 'UNKNOWN_COLLECTION', 'GET /else');
  });
});
