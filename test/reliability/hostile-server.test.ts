// Hostile classes 5 and 10, aimed at the demo server (demo-harness.ts): generated method tokens on
// generated paths, with and without the API token (class 5), and generated request lines and
// headers that are malformed, oversized or odd, paths under the prefix included (class 10). Beyond
// the harness's checks (an answer, below 500, a valid problem, `Allow: GET, HEAD` on a 405), class 5
// knows which answer each request must get.

import http from 'node:http';
import { expect } from 'chai';
import fc from 'fast-check';
import { TOKEN, useDemoServers, type DemoKind } from './demo-harness';

const runs = Number(process.env.HOSTILE_RUNS ?? 300);
const seed = (own: number): number => Number(process.env.FC_SEED ?? own);

/** What the demo server serves for GET (explain is on in both servers). */
const SERVED = new Set([
  '/',
  '/health',
  '/ready',
  '/admin',
  '/admin/',
  '/admin/index.html',
  '/api/openapi.json',
  '/api/_meta',
  ...['users', 'posts', 'phones', 'roles'].flatMap((c) => [`/api/${c}`, `/api/_meta/${c}`, `/api/_explain/${c}`]),
]);

/** The methods @koa/router implements: on a path nothing serves they are a 404, any other a 405. */
const ROUTER_METHODS = new Set(['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE']);

/** The status class 5 expects: docs/errors.md, "METHOD_NOT_ALLOWED" as the demo server applies it. */
function expectedStatus(method: string, path: string, kind: DemoKind, withToken: boolean): number {
  if (!http.METHODS.includes(method)) return 400;
  if (method === 'CONNECT') return 405;
  if (kind === 'guarded' && !withToken && path !== '/health' && path !== '/ready') return 401;
  const served = SERVED.has(path);
  if (method === 'GET' || method === 'HEAD') return !served ? 404 : path === '/admin' ? 302 : 200;
  return served || !ROUTER_METHODS.has(method) ? 405 : 404;
}

describe('hostile requests to the demo server (reliability)', function () {
  const h = useDemoServers();

  // Class 5.
  it('answers generated methods on generated paths: never 501, 405 with Allow: GET, HEAD', async function () {
    this.timeout(300000);
    const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,10}$/);
    const methodArb = fc.oneof(
      { arbitrary: fc.constantFrom(...http.METHODS), weight: 5 },
      { arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'TRACE', 'QUERY', 'PURGE', 'M-SEARCH', 'PROPFIND'), weight: 3 },
      { arbitrary: token, weight: 1 },
      { arbitrary: fc.constantFrom(...http.METHODS).map((m) => m.toLowerCase()), weight: 1 },
    );
    const segment = fc.stringMatching(/^[a-z_]{1,8}$/);
    const pathArb = fc.oneof(
      {
        arbitrary: fc.constantFrom(...SERVED, '/api', '/api/', '/nowhere', '/admin/assets/none.js', '/api/users/x', '/api//users'),
        weight: 3,
      },
      { arbitrary: segment.map((s) => `/api/${s}`), weight: 1 },
      { arbitrary: segment.map((s) => `/${s}`), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(
        methodArb,
        pathArb,
        fc.constantFrom<DemoKind>('open', 'guarded'),
        fc.boolean(),
        async (method, path, kind, withToken) => {
          const authorization = withToken ? `Authorization: Bearer ${TOKEN}\r\n` : '';
          const target = method === 'CONNECT' && path === '/' ? 'demo.example:443' : path;
          const what = `${method} ${target}${withToken ? ' (token)' : ''}`;
          const answer = await h.send(kind, `${method} ${target} HTTP/1.1\r\nHost: demo.example\r\n${authorization}\r\n`, what, {
            head: method === 'HEAD',
          });
          expect(answer.status, `${kind}: ${what}: ${answer.text.slice(0, 200)}`).to.equal(expectedStatus(method, path, kind, withToken));
        },
      ),
      { seed: seed(4505), numRuns: runs },
    );
    console.log(`    methods: ${runs} generated requests; statuses ${JSON.stringify(Object.fromEntries(h.statuses))}`);
    h.statuses.clear();
  });

  // Class 10.
  it('answers generated malformed, oversized and odd request lines and headers with a 4xx problem or a 2xx, never a 5xx', async function () {
    this.timeout(300000);
    // Mostly well-formed, so that most requests reach the app with one odd part; each kind of
    // damage is still drawn often enough to be met in every run.
    const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>): fc.Arbitrary<T> =>
      fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: bad, weight: 1 });
    const methodArb = mostly(fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'TRACE'), fc.constantFrom('BREW', 'G ET', '', 'GET\t', 'get'));
    const oddPath = fc.constantFrom(
      '/api/%',
      '/api/%zz',
      '/api/..%2F..%2Fetc%2Fpasswd',
      '/api/users/..',
      '/api/../admin/',
      '/api//',
      '/api/users;x',
      '/api/users#frag',
      '/api/\x7f',
      '/api/\xff\xfe',
      '/api/users?%',
      '/api/users?filter[name]=%E0',
      '/api/us%00ers',
      '/api/%2e%2e/',
      '*',
      '//api/users',
      'http://demo.example/api/users',
      'api/users',
      '/api/users?a=1 b',
      '/api/users\\x',
      '/',
      '/health',
      '/api/users?limit=2',
      '/api/users?expand[posts]=p&p_filter[title]=%FF',
      '/admin/%2e%2e/%2e%2e/package.json',
      '/admin/..%5C..%5Cpackage.json',
      `/api/users?filter[name]=${'a'.repeat(20_000)}`,
      `/${'p/'.repeat(9000)}`,
      `/api/${'x'.repeat(70_000)}`,
    );
    const versionArb = mostly(
      fc.constantFrom('HTTP/1.1', 'HTTP/1.0'),
      fc.constantFrom('HTTP/1.2', 'HTTP/2.0', 'HTTP/1', 'http/1.1', '', 'HTTP/1.1 x', 'HTTP/01.1'),
    );
    const fixedHeader = fc.constantFrom(
      'Host:',
      'Host: a b',
      'X-Empty:',
      'Bad Header',
      'X: \x01',
      'X-Tab:\tv',
      ' folded',
      'Content-Length: -1',
      'Content-Length: abc',
      'Content-Length: 0',
      'Content-Length: 1, 2',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip',
      'Expect: 100-continue',
      'Connection: upgrade',
      'Upgrade: websocket',
      ': novalue',
      'X-\xff: v',
      'X: \xff\xfe',
      'Accept-Encoding: *;q=0',
      'Authorization: Basic ###',
      `Authorization: Bearer ${TOKEN}`,
      `Authorization: Bearer ${TOKEN}`,
      `X-Request-Id: ${'r'.repeat(300)}`,
      `X-Big: ${'b'.repeat(20_000)}`,
      `X-Huge: ${'h'.repeat(60_000)}`,
      'Host: demo.example',
    );
    const namedHeader = fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), fc.string({ maxLength: 40 }))
      .map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, '')}`);
    const requestArb = fc.record({
      method: methodArb,
      target: oddPath,
      version: versionArb,
      host: mostly(fc.constant(1), fc.constantFrom(0, 2)),
      headers: fc.array(fc.oneof({ arbitrary: fixedHeader, weight: 1 }, { arbitrary: namedHeader, weight: 2 }), { maxLength: 3 }),
      many: fc.option(fc.integer({ min: 50, max: 2500 }), { freq: 8 }),
      eol: mostly(fc.constant('\r\n'), fc.constantFrom('\n', '\r')),
      pieces: fc.option(fc.constant(4096), { freq: 6 }),
      kind: fc.constantFrom<DemoKind>('open', 'guarded'),
    });
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const lines = [
          `${r.method} ${r.target} ${r.version}`.trimEnd(),
          ...Array.from({ length: r.host }, () => 'Host: demo.example'),
          ...r.headers,
          ...Array.from({ length: r.many ?? 0 }, (_, i) => `X-N${i}: ${i}`),
        ];
        const bytes = Buffer.from(`${lines.join(r.eol)}${r.eol}${r.eol}`, 'latin1');
        const what = `${JSON.stringify(lines.join(' | ').slice(0, 240))} (${bytes.length} bytes)`;
        await h.send(r.kind, bytes, what, { head: r.method === 'HEAD', ...(r.pieces === null ? {} : { pieceBytes: r.pieces }) });
      }),
      { seed: seed(4510), numRuns: runs },
    );
    console.log(`    request heads: ${runs} generated requests; statuses ${JSON.stringify(Object.fromEntries(h.statuses))}`);
    h.statuses.clear();
  });
});
