// The harness of the hostile classes aimed at the demo server itself (its listener and its own
// layers, not only the plugin): the demo app on the demo data, served open and guarded by an API
// token, through server/http-server.ts with short timeouts, and the checks every answer must pass:
// an answer at all, below 500, a valid problem for a 4xx, `Allow: GET, HEAD` on a 405; and the
// server still answering /health when a class is done.

import { expect } from 'chai';
import { expectValidProblem } from '../support/problems';
import type { TestDatabase } from '../support/db';
import { demoDatabase, serveDemo, type DemoServer } from '../support/demo-server';
import { rawExchange, type RawAnswer, type RawOptions } from '../support/raw-socket';

export const TOKEN = 'hostile-token';

export type DemoKind = 'open' | 'guarded';

export interface DemoServers {
  /** Sends raw bytes to one server and applies every check; returns the answer. */
  send(kind: DemoKind, bytes: string | Buffer, what: string, options?: RawOptions): Promise<RawAnswer>;
  /** Counts of statuses per class, for the suite's log line. */
  readonly statuses: Map<number, number>;
}

/** The checks every answer passes, whatever was sent. */
export function expectAcceptable(answer: RawAnswer, what: string, head = false): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).to.be.below(500);
  if (answer.status === 405) expect(answer.headers.allow, `${what}: Allow`).to.equal('GET, HEAD');
  if (answer.status < 400) return;
  expect(answer.headers['content-type'], `${what}: content-type`).to.match(/^application\/problem\+json\b/);
  // A HEAD answer has the headers of the GET and no body to read.
  if (!head) expectValidProblem(answer, what);
}

/** Registers the suite's hooks: one demo database, two servers. Usable inside `it`. */
export function useDemoServers(): DemoServers {
  let db: TestDatabase | undefined;
  const servers = new Map<DemoKind, DemoServer>();
  const statuses = new Map<number, number>();
  // Short, so that a head that never ends is answered (408) well within a request's time.
  const timeouts = { headersTimeoutMs: 1500, requestTimeoutMs: 3000, timeoutCheckMs: 200 };

  before(async function () {
    this.timeout(120000);
    db = await demoDatabase(30);
    servers.set('open', await serveDemo(db.knex, { explain: true }, timeouts));
    servers.set('guarded', await serveDemo(db.knex, { apiToken: TOKEN, explain: true }, timeouts));
  });

  afterEach(async function () {
    // Whatever a class sent, both servers still answer.
    for (const [kind, server] of servers) {
      const health = await rawExchange(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(health.status, `${kind} server /health afterwards`).to.equal(200);
    }
  });

  after(async function () {
    for (const server of servers.values()) await server.close();
    await db?.destroy();
  });

  async function send(kind: DemoKind, bytes: string | Buffer, what: string, options: RawOptions = {}): Promise<RawAnswer> {
    const server = servers.get(kind);
    if (server === undefined) throw new Error('setup failed');
    const answer = await rawExchange(server.port, bytes, { timeoutMs: 8000, ...options });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expectAcceptable(answer, `${kind}: ${what}`, options.head === true);
    return answer;
  }

  return { send, statuses };
}
