// Runs every example exchange of README.md and docs/*.md against the demo app (server/app.ts on a
// fresh database seeded with the demo data) and fails, naming the file and line, when the server
// answers otherwise than the docs show.
//
// What counts as an example request, in a fenced block:
// - a request line `GET /api/users?...` (any method; the target starts with `/`). Lines that start
//   with spaces and `&` or `?` continue the target; the target ends at the line's end or at two
//   spaces, after which a comment may follow. `Name: value` lines right after it are headers.
// - in a sh/bash/shell/console block, a `curl` command with the URL in it (`-g`, `-s`, `-i`, `-H`,
//   `-X`, `-I` understood); the URL's host becomes the Host header. Other commands are ignored.
// Request lines without a host talk to localhost:3000, the demo server's address, so page URLs read
// as the docs show them. Targets are sent as written (brackets raw); only spaces and non-ASCII are
// percent-encoded, as a client must. `N,...,M` (or `N,…,M`) in a target sends every integer N..M,
// and so does a curl URL's `$(seq -s, N M)` (what a shell makes of it).
//
// The response shown for it: the lines after a request line in the same block, up to the next
// request line; or else the fenced blocks right after the block (only blank lines between) that
// start like a response. A response is an optional status line `HTTP/1.1 405 Method Not Allowed`,
// `Name: value` headers, then the body. A block of several requests may be followed by one block
// holding one body per request, in order. Checked:
// - the status: the status line's; else the body's `status` member when the body is an object that
//   has one (a problem); else 200. A request shown without any response must answer 2xx.
// - each header shown (by name, case-insensitive; other headers are not compared);
// - the body, when one is shown, as JSON. Objects must have exactly the members shown, in the
//   order shown. What the docs shorten with an ellipsis (`…` or `...`):
//   - an array element `…`, `...`, `"…"` or `"..."` stands for any run of elements (none too);
//   - a member `…` or `"…": "…"` in an object allows members that are not shown;
//   - a bare `…` as a value stands for any value;
//   - a string that differs from the answer matches when each ellipsis in it stands for any run of
//     characters (`"allowed: id, name, …"` matches by prefix).
// - a response that shows `Content-Type: text/csv` has a text body: the answer's text, its CRLF line
//   ends read as the docs' line ends, must equal every line shown (a line `…` stands for any lines).
//
// Examples that are not about the demo app as `npm start` runs it carry a marker on the line right
// before their block (blank lines may stand between):
//   <!-- example: not-demo <why> -->              not run (reported as pending)
//   <!-- example: options={"limits":{...}} -->    run on the demo app with these plugin options
//   <!-- example: env={"API_TOKEN":"s3cret"} -->  run on the demo app started with this environment
// `options=` and `env=` may both be given. A marker anywhere else, one that cannot be read, or
// anything that looks like an example and cannot be read fails the suite at its line.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { findProjectRoot } from '../../server/db';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { DemoApps, type Answer } from './demo-apps';
import { matchDoc, matchText } from './doc-match';
import { collectExamples, type DocExample } from './examples';

const root = findProjectRoot(__dirname);
const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const collected = files.map((file) => ({ file, ...collectExamples(file, readFileSync(join(root, file), 'utf8')) }));

/** Files whose examples the check must keep finding: if the format drifts, this says so. */
const MUST_HAVE_EXAMPLES = ['README.md', 'docs/query-language.md', 'docs/errors.md'];

function expectedStatus(example: DocExample): number | undefined {
  const shown = example.response;
  if (shown === undefined) return undefined;
  if (shown.status !== undefined) return shown.status;
  const body = shown.bodies[0];
  const status = body?.kind === 'object' ? body.members.find(([name]) => name === 'status')?.[1] : undefined;
  return status?.kind === 'literal' && typeof status.value === 'number' ? status.value : 200;
}

/** How the answer differs from what the docs show, or undefined when it does not. */
function difference(example: DocExample, answer: Answer): string | undefined {
  const shown = example.response;
  const status = expectedStatus(example);
  if (status === undefined)
    return answer.status >= 200 && answer.status < 300
      ? undefined
      : `the docs show no response, so it must succeed; the server answered ${answer.status}`;
  if (answer.status !== status) return `the docs show status ${status}, the server answered ${answer.status}`;
  if (shown?.reason !== undefined && shown.reason !== answer.reason)
    return `the docs show "${status} ${shown.reason}", the server answered "${status} ${answer.reason}"`;
  for (const [name, value] of shown?.headers ?? []) {
    const raw = answer.headers[name.toLowerCase()];
    const actual = Array.isArray(raw) ? raw.join(', ') : raw;
    if (actual === undefined) return `the docs show the header ${name}, the server sent none`;
    if (!matchText(value, actual)) return `the docs show "${name}: ${value}", the server sent "${name}: ${actual}"`;
  }
  if (shown?.text !== undefined) {
    const text = answer.text.replaceAll('\r\n', '\n');
    return matchText(shown.text, text) ? undefined : `the docs show the text body\n${shown.text}\n  the server sent\n${text}`;
  }
  const body = shown?.bodies[0];
  if (body === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return "the docs show a JSON body, the server's body is not JSON";
  }
  return matchDoc(body, parsed);
}

function pretty(answer: Answer): string {
  let text = answer.text;
  try {
    text = JSON.stringify(JSON.parse(answer.text), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  const lines = text.split('\n');
  return (lines.length > 80 ? [...lines.slice(0, 80), `… (${lines.length - 80} more lines)`] : lines).join('\n    ');
}

function titleOf(example: DocExample): string {
  const { method, target, line } = example.request;
  return `${example.file}:${line} ${method} ${target.length > 90 ? `${target.slice(0, 90)}…` : target}`;
}

describe('docs: every example request runs against the demo server as shown', function () {
  let db: TestDatabase | undefined;
  let apps: DemoApps | undefined;

  before(async function () {
    this.timeout(180_000);
    db = await createTestDatabase({ empty: true, trigram: true });
    await prepareDemoDatabase(db.knex);
    apps = new DemoApps(db.knex);
  });

  after(async function () {
    await apps?.close();
    await db?.destroy();
  });

  it(`finds examples in ${MUST_HAVE_EXAMPLES.join(', ')}`, function () {
    for (const file of MUST_HAVE_EXAMPLES) {
      const found = collected.find((c) => c.file === file)?.examples.filter((e) => e.setup.kind === 'demo') ?? [];
      expect(found.length, `${file}: no example request found; has the docs' format changed?`).to.be.greaterThan(0);
    }
  });

  for (const { file, examples, problems } of collected) {
    if (examples.length === 0 && problems.length === 0) continue;
    describe(`${file}: ${examples.length} example requests`, function () {
      for (const problem of problems) {
        it(`${file}:${problem.line} cannot be read as an example`, function () {
          throw new Error(`${file}:${problem.line}: ${problem.message}`);
        });
      }
      for (const example of examples) {
        const { setup } = example;
        if (setup.kind === 'not-demo') {
          it(`${titleOf(example)} (not-demo: ${setup.reason})`);
          continue;
        }
        it(titleOf(example), async function () {
          if (apps === undefined) throw new Error('the demo app did not start');
          const answer = await apps.send(setup, example.request);
          const differs = difference(example, answer);
          if (differs === undefined) return;
          const where = example.response === undefined ? '' : ` (response shown at line ${example.response.line})`;
          throw new Error(
            `${titleOf(example)}${where}\n  ${differs}\n  the server answered ${answer.status} ${answer.headers['content-type'] ?? ''}:\n    ${pretty(answer)}`,
          );
        });
      }
    });
  }
});
