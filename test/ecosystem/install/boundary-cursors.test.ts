// Installs the packed package into a host whose models hide things (host-app-cursors: staff e-mail
// addresses masked in $formatJson, a uuid primary key that is not projectable) and checks that no
// cursor gives them away (docs/query-language.md, "Cursors: cursor"): a cursor holds neither the
// address it was sorted by nor the key of the default order, in any decoding; forged and tampered
// cursors are 400 INVALID_CURSOR naming no field, type or value; a host listing [new, old] secrets
// opens the cursors of a host that had [old]; without a secret, one start-up warning and cursors that
// do not cross processes. Slow (npm install); needs the npm registry or a warm npm cache.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { copyHostSources, installHost, pack, root, startHost, stopHost, typeCheck } from './hosts';

const hostSources = join(root, 'test', 'ecosystem', 'install', 'host-app-cursors');
const hostDependencies = ['koa', 'objection', 'knex', 'knex-pglite', '@electric-sql/pglite', '@types/koa'];

const OLD = 'the-secret-the-host-sealed-cursors-with-last-month';
const NEW = 'the-secret-the-host-seals-cursors-with-from-today';

const STAFF = ['ada.lovelace@staff.example', 'cy.young@staff.example', 'eve.secret@staff.example', 'gus.hidden@staff.example'];
const UUIDS = [
  '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  '6fa459ea-ee8a-3ca4-894e-db77e160355e',
  '9c5b94b1-35ad-49bb-b118-8e8fc24abf80',
  'd9428888-122b-11e1-b85c-61cd3cbb3210',
  'f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
];

interface Envelope {
  readonly data: Record<string, unknown>[];
  readonly next_cursor: string | null;
  readonly prev_cursor: string | null;
}

/** Every reading of a cursor a client could try: as sent, base64url and base64 decoded to UTF-8 and Latin-1, URL-decoded. */
function readings(cursor: string): { texts: string[]; bytes: Buffer[] } {
  const bytes = [Buffer.from(cursor, 'base64url'), Buffer.from(cursor, 'base64')];
  const texts = [
    cursor,
    decodeURIComponent(cursor),
    ...bytes.flatMap((b) => [b.toString('utf8'), b.toString('latin1'), b.toString('hex')]),
  ];
  return { texts: texts.map((t) => t.toLowerCase()), bytes };
}

/** Fails when any reading of `cursor` holds one of `secrets` (text), or one of `raw` (bytes). */
function expectNothingIn(cursor: string, secrets: readonly string[], raw: readonly Buffer[] = []): void {
  const { texts, bytes } = readings(cursor);
  for (const secret of secrets) {
    for (const text of texts) expect(text, `a reading of ${cursor}`).to.not.include(secret.toLowerCase());
  }
  for (const needle of raw) for (const b of bytes) expect(b.includes(needle), `the bytes of ${cursor}`).to.equal(false);
}

/** An uuid's text forms (with and without dashes) and its 16 bytes. */
const uuidForms = (uuid: string): { texts: string[]; bytes: Buffer } => ({
  texts: [uuid, uuid.replace(/-/g, '')],
  bytes: Buffer.from(uuid.replace(/-/g, ''), 'hex'),
});

describe('sealed cursors in a host app built from the packed package', function () {
  this.timeout(300000);
  let workDir: string;
  let hostDir: string;
  const running: ChildProcess[] = [];

  before(function () {
    if (!existsSync(join(root, 'dist', 'plugin', 'index.js'))) throw new Error('build first: npm run build');
    workDir = mkdtempSync(join(tmpdir(), 'kqm-install-cursors-'));
    hostDir = join(workDir, 'host');
  });

  after(async function () {
    for (const child of running) await stopHost(child);
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  type Get = (path: string) => supertest.Test;
  const hosts = new Map<string, Get>();

  /** A running host with `CURSOR_SECRET` set to `secrets` (none: unset), started once per list unless `fresh`; its requests. */
  async function host(secrets: readonly string[], fresh = false): Promise<Get> {
    const kept = hosts.get(secrets.join(','));
    if (kept !== undefined && !fresh) return kept;
    // An empty DATABASE_URL: the host's database is its own in-memory PGlite.
    const started = await startHost(hostDir, { DATABASE_URL: '', CURSOR_SECRET: secrets.join(',') });
    running.push(started.child);
    const agent = supertest.agent(`http://127.0.0.1:${started.port}`);
    const get: Get = (path) => agent.get(path);
    hosts.set(secrets.join(','), get);
    return get;
  }

  const page = async (get: Get, path: string): Promise<Envelope> => {
    const res = await get(path);
    if (res.status !== 200) expect.fail(`${path}: ${res.status} ${res.text}`);
    return res.body as Envelope;
  };

  /** The cursors of a whole walk, forward and back, and the records met on the way forward. */
  async function walk(get: Get, query: string): Promise<{ cursors: string[]; records: unknown[] }> {
    const cursors: string[] = [];
    const records: unknown[] = [];
    let envelope = await page(get, `${query}&cursor=`);
    records.push(...envelope.data);
    while (envelope.next_cursor !== null) {
      cursors.push(envelope.next_cursor);
      envelope = await page(get, `${query}&cursor=${envelope.next_cursor}`);
      records.push(...envelope.data);
    }
    for (let back = envelope.prev_cursor; back !== null; back = (await page(get, `${query}&cursor=${back}`)).prev_cursor)
      cursors.push(back);
    return { cursors, records };
  }

  it("installs the tarball with the host's own libraries and type-checks the host (cursorSecret in the published types)", function () {
    installHost(hostDir, [pack(workDir).tarball, ...hostDependencies]);
    copyHostSources(hostSources, hostDir);
    expect(typeCheck(hostDir)).to.deep.equal([]);
  });

  it('sorted by an e-mail address the model masks, the cursors hold no address in any reading', async function () {
    const get = await host([NEW]);
    const { cursors, records } = await walk(get, '/api/members?sort[email]&per-page=1');
    expect(records.map((r) => (r as { email: string }).email)).to.deep.equal([
      '***@staff.example',
      'ben@customer.example',
      '***@staff.example',
      'dee@customer.example',
      '***@staff.example',
      'fay@customer.example',
      '***@staff.example',
    ]);
    expect(cursors).to.have.length(12);
    for (const cursor of cursors) expectNothingIn(cursor, [...STAFF, ...STAFF.map((e) => e.split('@')[0] ?? e), 'staff', 'email']);
  });

  it("a uuid key the collection does not project: the default order's cursors give it away in no reading", async function () {
    const get = await host([NEW]);
    const { cursors, records } = await walk(get, '/api/accounts?per-page=2');
    expect(records).to.deep.equal([
      { name: 'Acme', plan: 'gold' },
      { name: 'Globex', plan: 'free' },
      { name: 'Initech', plan: 'gold' },
      { name: 'Umbrella', plan: 'free' },
      { name: 'Hooli', plan: 'gold' },
    ]);
    expect(cursors).to.have.length(4);
    const forms = UUIDS.map(uuidForms);
    for (const cursor of cursors) {
      expectNothingIn(
        cursor,
        forms.flatMap((f) => f.texts),
        forms.map((f) => f.bytes),
      );
      expectNothingIn(cursor, ['id:asc', 'uuid']);
    }
  });

  it('forged and tampered cursors are 400 INVALID_CURSOR naming no field, type or value', async function () {
    const get = await host([NEW]);
    const real = (await page(get, '/api/members?sort[email]&per-page=2&cursor=')).next_cursor ?? expect.fail('a next cursor');
    const bytes = Buffer.from(real, 'base64url');
    const flipped = (at: number): string => {
      const copy = Buffer.from(bytes);
      copy[at] = (copy[at] ?? 0) ^ 0x20;
      return copy.toString('base64url');
    };
    const readable = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged: [string, string][] = [
      // The readable forms a client could write, as cursors once were: a range oracle on the address and the key.
      ['/api/members?sort[email]', readable({ sort: ['email:asc', 'id:asc'], dir: 'next', at: ['eve', '1'] })],
      ['/api/members?sort[email]', readable(['next', ['email:asc', 'id:asc'], ['eve', '1']])],
      ['/api/accounts', readable({ sort: ['id:asc'], dir: 'next', at: [UUIDS[2]] })],
      ['/api/accounts', readable(['prev', ['id:asc'], ['ffffffff-ffff-ffff-ffff-ffffffffffff']])],
      // A real cursor with a byte changed (nonce, content, tag), cut short, sent to another collection or sort.
      ['/api/members?sort[email]', flipped(0)],
      ['/api/members?sort[email]', flipped(20)],
      ['/api/members?sort[email]', flipped(bytes.length - 1)],
      ['/api/members?sort[email]', real.slice(0, -4)],
      ['/api/accounts', real],
      ['/api/members?sort[name]', real],
      ['/api/members', real],
      ['/api/members?sort[email]', '%7B%7B%7B%7B%7B%7B%7Ba%7D%7D%7D%7D%7D%7D%7D'],
    ];
    const words = ['email', 'name', 'id', 'uuid', 'text', 'integer', 'staff', 'eve', ...UUIDS];
    for (const [path, cursor] of forged) {
      const res = await get(`${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}`);
      const what = `${path} cursor=${cursor}`;
      expect(res.status, `${what}: ${res.text}`).to.equal(400);
      expect(res.type, what).to.equal('application/problem+json');
      const body = res.body as { code: string; parameter: string; detail: string; errors: { code: string; detail: string }[] };
      expect([body.code, body.parameter], what).to.deep.equal(['INVALID_CURSOR', 'cursor']);
      for (const detail of [body.detail, ...body.errors.map((e) => e.detail)]) {
        for (const word of words) expect(detail.toLowerCase(), `${what}: ${detail}`).to.not.match(new RegExp(`\\b${word}\\b`));
      }
      expect(res.text, what).to.not.include(cursor.slice(0, 24));
    }
  });

  it('rotation: a host with [new, old] opens the cursors of a host with [old] and seals with new; [new] alone refuses old ones', async function () {
    const before = await host([OLD]);
    const during = await host([NEW, OLD]);
    const after = await host([NEW]);
    const query = '/api/members?sort[name]&fields=name&per-page=3';
    const first = await page(before, `${query}&cursor=`);
    const old = first.next_cursor ?? expect.fail('a next cursor');
    const second = await page(during, `${query}&cursor=${old}`);
    expect(second.data.map((r) => r.name)).to.deep.equal(['Dee', 'Eve', 'Fay']);
    expect((await page(before, `${query}&cursor=${old}`)).data).to.deep.equal(second.data);
    // The same position, sealed with the new secret: another cursor, which [old] alone cannot open.
    const fresh = (await page(during, `${query}&cursor=`)).next_cursor ?? expect.fail('a next cursor');
    expect(fresh).to.not.equal(old);
    expect((await page(after, `${query}&cursor=${fresh}`)).data).to.deep.equal(second.data);
    expect((await page(during, `${query}&cursor=${second.prev_cursor ?? ''}`)).data).to.deep.equal(first.data);
    expect((await before(`${query}&cursor=${fresh}`)).status).to.equal(400);
    const refused = await after(`${query}&cursor=${old}`);
    expect([refused.status, (refused.body as { code: string }).code]).to.deep.equal([400, 'INVALID_CURSOR']);
    for (const get of [before, during, after]) expect((await get('/host/warnings')).body).to.deep.equal([]);
  });

  it('without a secret: one warning at start-up, and a cursor of one process does not open in another', async function () {
    const one = await host([]);
    const other = await host([], true);
    const warnings = (await one('/host/warnings')).body as string[];
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.include('cursorSecret').and.to.include('restart');
    const query = '/api/accounts?per-page=2';
    const cursor = (await page(one, `${query}&cursor=`)).next_cursor ?? expect.fail('a next cursor');
    expect((await page(one, `${query}&cursor=${cursor}`)).data).to.have.length(2);
    const res = await other(`${query}&cursor=${cursor}`);
    expect([res.status, (res.body as { code: string }).code]).to.deep.equal([400, 'INVALID_CURSOR']);
  });
});
