// The hostile-input harness shared by hostile.test.ts and injection.test.ts: a fixture database whose
// statements are all captured (knex `query` event), the plugin served twice (default caps, and caps
// raised so huge inputs reach SQL), and `send`, which applies the checks every hostile request must
// pass: below 500, a valid problem for errors, no SQL for a refused request, no input text in SQL
// (a random marker goes into generated names and values), no hidden column leaked, nothing logged.

import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createTestDatabase, TestDatabase } from '../support/db';
import { closeIdleSockets, rawGet, RawResponse } from './http';
import { expectValidProblem } from '../support/problems';
import { serve, Served } from './server';

export interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** Goes into every generated name and value; must never show up in SQL text. */
export const MARK = `kqmZ${randomBytes(4).toString('hex')}`;

/** encodeURIComponent, also for the characters it leaves alone but a URL parser may rewrite. */
export const enc = (text: string): string =>
  encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Hidden column values of the fixture (users.password_hash, posts.secret_note). */
const HIDDEN_VALUES = /hash-\d+-secret|secret of post/;

function decoded(path: string): string {
  try {
    return decodeURIComponent(path.replace(/\+/g, ' '));
  } catch {
    return path;
  }
}

/**
 * No hidden value ever leaves the server, and no hidden column name either, except where the
 * client wrote it itself (a problem names the offending parameter as sent).
 */
function expectNoLeak(res: RawResponse, path: string, what: string): void {
  expect(res.text, `${what}: leaks a hidden value`).to.not.match(HIDDEN_VALUES);
  if (!decoded(path).includes('password_hash') && !path.includes('password_hash')) {
    expect(res.text, `${what}: names a hidden column`).to.not.include('password_hash');
  }
  const body = res.body as { allowed?: unknown; errors?: { allowed?: unknown }[] } | undefined;
  const lists = [body?.allowed, ...(Array.isArray(body?.errors) ? body.errors.map((e) => e.allowed) : [])];
  for (const list of lists) {
    if (Array.isArray(list)) expect(list, `${what}: allowed lists a hidden column`).to.not.include('password_hash');
  }
}

export function codeOf(res: RawResponse): unknown {
  return (res.body as { code?: unknown } | undefined)?.code;
}

export type Caps = 'strict' | 'lenient';

export interface HostileApps {
  /** Every statement run so far, in order. */
  readonly statements: readonly Statement[];
  readonly db: TestDatabase;
  origin(caps: Caps): string;
  /** GET `/api/<collection>?<query>` (query sent as written) and apply every check. */
  send(query: string, caps?: Caps, collection?: string): Promise<RawResponse>;
}

/** Registers the suite's before/after hooks; the returned object is usable inside `it`. */
export function useHostileApps(): HostileApps {
  let db: TestDatabase | undefined;
  const served = new Map<Caps, Served>();
  const statements: Statement[] = [];
  const logged: string[] = [];
  let prototypeBefore: string[] = [];

  before(async function () {
    this.timeout(120000);
    prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    db = await createTestDatabase();
    db.knex.on('query', (q: { sql: string; bindings?: unknown[] }) => statements.push({ sql: q.sql, bindings: q.bindings ?? [] }));
    const logger = { error: (message: string, error?: unknown) => logged.push(`${message} ${String(error)}`) };
    served.set('strict', await serve(db.knex, { logger }));
    // Caps raised so that huge lists and values travel all the way into SQL bindings.
    served.set(
      'lenient',
      await serve(db.knex, { logger, limits: { maxQueryLength: 4_000_000, maxClauses: 50_000, maxListItems: 50_000, maxExpansions: 5 } }),
    );
  });

  after(async function () {
    this.timeout(60000);
    closeIdleSockets();
    // Whatever the requests were, the data is intact and Object.prototype gained nothing.
    const intact: unknown = await db?.knex.raw(
      'select (select count(*) from users)::int as users, (select count(*) from posts)::int as posts',
    );
    const prototypeAfter = Object.getOwnPropertyNames(Object.prototype).sort();
    for (const app of served.values()) await app.close();
    await db?.destroy();
    expect((intact as { rows: unknown[] } | undefined)?.rows[0], 'the fixture rows afterwards').to.deep.equal({ users: 23, posts: 11 });
    expect(prototypeAfter, 'Object.prototype afterwards').to.deep.equal(prototypeBefore);
  });

  const origin = (caps: Caps): string => {
    const app = served.get(caps);
    if (!app) throw new Error('setup failed');
    return app.origin;
  };

  async function send(query: string, caps: Caps = 'strict', collection = 'users'): Promise<RawResponse> {
    const path = `/api/${collection}?${query}`;
    const first = statements.length;
    const res = await rawGet(origin(caps), path);
    const ran = statements.slice(first);
    const what = `${caps} GET ${path.slice(0, 400)}${path.length > 400 ? `… (${path.length} chars)` : ''}`;
    expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.be.below(500);
    expectNoLeak(res, path, what);
    if (res.status >= 400) {
      expectValidProblem(res, what);
      // Values are checked before any SQL runs
      // (docs/query-language.md, "Accepted forms per column type"): a refused request costs no
      // statement.
      expect(
        ran.map((s) => s.sql),
        `${what}: statements run for a refused request`,
      ).to.deep.equal([]);
    } else {
      expect(res.body, `${what}: JSON body`).to.not.equal(undefined);
    }
    for (const s of ran) {
      expect(s.sql.toLowerCase(), `${what}: input text in SQL`).to.not.include(MARK.toLowerCase());
    }
    expect(logged, `${what}: database errors logged`).to.deep.equal([]);
    return res;
  }

  return {
    statements,
    get db() {
      if (!db) throw new Error('setup failed');
      return db;
    },
    origin,
    send,
  };
}
