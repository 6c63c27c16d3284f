// The OpenAPI document checked by a tool nobody on the project wrote: Prism (@stoplight/prism-cli),
// run as a validating proxy (`prism proxy <document> <upstream> --errors`) in front of the demo
// server. Every request of a corpus (each modifier, expansions and alias modifiers, cursors, totals,
// the service routes, errors) goes through it: Prism must find no request it calls invalid that the
// server answers, and no response that breaks the document. A deliberately broken document must
// make it report mismatches, so this check can fail.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import supertest from 'supertest';
import type { TestDatabase } from '../support/db';
import { demoDatabase, serveDemo, type DemoServer } from '../support/demo-server';
import type { Json } from './openapi-support';
import { invalidRequests, validRequests } from './prism-corpus';
import { freePort } from '../support/free-port';

interface Prism {
  readonly origin: string;
  stop(): void;
}

/** `prism proxy <document> <upstream> --errors` on a free port; resolves once it listens. */
async function startPrism(document: string, upstream: string): Promise<Prism> {
  const cli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, 'proxy', document, upstream, '--errors', '--port', String(port), '--host', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((listening, failed) => {
    const timer = setTimeout(() => failed(new Error(`Prism did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        listening();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`Prism exited with ${String(code)}:\n${output}`));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

interface Violation {
  readonly location: string[];
  readonly message: string;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
  /** What Prism reported in `sl-violations` (none: the request and its response fit the document). */
  readonly violations: Violation[];
}

/** Page URLs left out: Prism forwards the query string rewritten (percent-encoded, `key=` for `key`), and links repeat it. */
function withoutUrls(value: unknown): unknown {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? '<url>' : value;
  if (Array.isArray(value)) return value.map(withoutUrls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutUrls(item)]));
}

async function send(origin: string, path: string): Promise<Answer> {
  // identity: Prism forwards the client's Accept-Encoding, and this compares bodies as the server wrote them.
  const res = await supertest(origin).get(path).set('Accept-Encoding', 'identity');
  const header = res.headers['sl-violations'];
  const violations = typeof header === 'string' ? (JSON.parse(header) as Violation[]) : [];
  // A request Prism refuses itself (422) names its violations in the body, without the header.
  const refused = (res.body as { validation?: Violation[] } | undefined)?.validation;
  const own = res.status === 422 && Array.isArray(refused) ? refused.map((v) => ({ ...v, location: ['request', ...v.location] })) : [];
  return { status: res.status, body: withoutUrls(res.body), violations: [...violations, ...own] };
}

const describeViolations = (path: string, answer: Answer): string =>
  `${path} -> ${answer.status}: ${answer.violations.map((v) => `${v.location.join('.')} ${v.message}`).join('; ') || JSON.stringify(answer.body).slice(0, 300)}`;

describe('OpenAPI document under Prism as a validating proxy in front of the demo server', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let demo: DemoServer;
  let folder: string;
  const prisms: Prism[] = [];
  let prism: Prism;
  let document: Json;

  before(async function () {
    db = await demoDatabase();
    demo = await serveDemo(db.knex, { explain: true });
    folder = mkdtempSync(join(tmpdir(), 'kqm-prism-'));
    document = (await supertest(demo.origin).get('/api/openapi.json').expect(200)).body as Json;
    writeFileSync(join(folder, 'openapi.json'), JSON.stringify(document));
    prism = await startPrism(join(folder, 'openapi.json'), demo.origin);
    prisms.push(prism);
  });

  after(async function () {
    for (const p of prisms) p.stop();
    await demo?.close();
    await db?.destroy();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('forwards every valid request of the corpus and finds no request or response mismatch', async function () {
    const failures: string[] = [];
    for (const path of await validRequests(demo.origin)) {
      const direct = await send(demo.origin, path);
      expect(direct.status, `${path} is in the valid corpus`).to.equal(200);
      const proxied = await send(prism.origin, path);
      if (proxied.status !== 200 || proxied.violations.length > 0) failures.push(describeViolations(path, proxied));
      else expect(proxied.body, path).to.deep.equal(direct.body);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('on every invalid request, either refuses it itself (a request violation) or passes on the refusal, which fits the document', async function () {
    const failures: string[] = [];
    let caught = 0;
    for (const path of invalidRequests) {
      const direct = await send(demo.origin, path);
      expect(direct.status, `${path} is in the invalid corpus`).to.be.within(400, 499);
      const proxied = await send(prism.origin, path);
      const requestSide = proxied.violations.every((v) => v.location[0] === 'request');
      if (proxied.status === 422 && proxied.violations.length > 0 && requestSide) caught += 1;
      else if (proxied.status !== direct.status || proxied.violations.length > 0) failures.push(describeViolations(path, proxied));
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    // The document is precise enough that Prism itself refuses some (malformed values of typed parameters).
    expect(caught).to.be.above(3);
  });

  it('reports mismatches against a deliberately broken document, so this check can fail', async function () {
    const broken = JSON.parse(JSON.stringify(document)) as {
      components: { schemas: Record<string, Json>; parameters: Record<string, Json> };
    };
    // The records' ids become strings, and at most 2 records per page are allowed.
    const users = broken.components.schemas['record.users'] as { properties: Record<string, Json> };
    users.properties.id = { type: 'string' };
    (broken.components.parameters['per-page'] as { schema: Json }).schema = { type: 'integer', minimum: 1, maximum: 2 };
    writeFileSync(join(folder, 'broken.json'), JSON.stringify(broken));
    const wrong = await startPrism(join(folder, 'broken.json'), demo.origin);
    prisms.push(wrong);
    const response = await send(wrong.origin, '/api/users?limit=2');
    expect(response.status, describeViolations('limit=2', response)).to.equal(500);
    expect(response.violations.map((v) => v.location.join('.'))).to.include('response.body.0.id');
    const request = await send(wrong.origin, '/api/users?per-page=5');
    expect(request.status).to.equal(422);
    expect(request.violations.map((v) => v.location.join('.'))).to.deep.equal(['request.query.per-page']);
  });
});
