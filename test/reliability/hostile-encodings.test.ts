// Hostile class 4, Accept-Encoding (demo-harness.ts): generated lists of codings (known, unknown,
// wildcards, identity, any case) with generated weights (valid, out of range, negative, not numbers,
// extra parameters) on large and small answers of every kind the demo server sends. Beyond the
// harness's checks: the status is the one the same request gets without the header, the body once
// decoded is the same bytes, and a coding is used only when the header names it or `*`.

import { expect } from 'chai';
import fc from 'fast-check';
import { useDemoServers, type DemoKind } from './demo-harness';
import type { RawAnswer } from '../support/raw-socket';

const runs = Number(process.env.HOSTILE_RUNS ?? 300);

/** Answers of every kind: large JSON, HTML, the OpenAPI document, a large 400, and small ones. */
const TARGETS: readonly (readonly [DemoKind, string])[] = [
  ['open', '/api/users?limit=50'],
  ['open', '/admin/'],
  ['open', '/api/openapi.json'],
  ['open', '/'],
  ['open', '/health'],
  ['open', `/api/users?${Array.from({ length: 40 }, (_, i) => `sort[no${i}]`).join('&')}`],
  ['open', '/api/nope'],
  ['open', '/api/users?per-page=30&expand[posts]=p'],
  ['guarded', '/api/users?limit=50'],
];

/** The header's members as (lower-case name, parameters), read as plainly as possible. */
const membersOf = (header: string): { name: string; params: string[] }[] =>
  header.split(',').map((member) => {
    const [name = '', ...params] = member.split(';').map((part) => part.trim());
    return { name: name.toLowerCase(), params };
  });

/** Whether the header refuses `coding` outright: `coding;q=0`, or `*;q=0` when it does not name it. */
function refuses(header: string, coding: string): boolean {
  const zero = (params: readonly string[]): boolean => params.length === 1 && /^q=0(\.0{0,3})?$/i.test(params[0] ?? '');
  const members = membersOf(header);
  const named = members.filter((m) => m.name === coding);
  return named.length > 0 ? named.some((m) => zero(m.params)) : members.some((m) => m.name === '*' && zero(m.params));
}

/** Whether the header plainly accepts gzip or br: named once, without a weight. */
const plainlyAccepts = (header: string): boolean =>
  ['gzip', 'br'].some((coding) => {
    const named = membersOf(header).filter((m) => m.name === coding);
    return named.length === 1 && named[0]?.params.length === 0;
  });

const request = (target: string, acceptEncoding: string | undefined): string =>
  `GET ${target} HTTP/1.1\r\nHost: demo.example\r\n${acceptEncoding === undefined ? '' : `Accept-Encoding: ${acceptEncoding}\r\n`}\r\n`;

describe('hostile Accept-Encoding (reliability)', function () {
  const h = useDemoServers();

  it('never answers 5xx, and sends the same body, in a coding the client named or as it is', async function () {
    this.timeout(300000);
    const baseline = new Map<string, RawAnswer>();
    for (const [kind, target] of TARGETS) baseline.set(`${kind} ${target}`, await h.send(kind, request(target, undefined), target));
    const large = TARGETS.filter(([kind, target]) => (baseline.get(`${kind} ${target}`)?.bytes.length ?? 0) >= 1024);
    expect(large.length, 'answers large enough to be compressed').to.be.at.least(5);

    const codingArb = fc.oneof(
      {
        arbitrary: fc.constantFrom('gzip', 'br', 'identity', '*', 'deflate', 'compress', 'zstd', 'x-gzip', 'GZIP', 'Br', 'IDENTITY', ''),
        weight: 5,
      },
      { arbitrary: fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,8}$/), weight: 1 },
    );
    const weightArb = fc.oneof(
      { arbitrary: fc.constant(''), weight: 3 },
      { arbitrary: fc.constantFrom(';q=0', ';q=1', ';q=0.5', ';q=0.001', ';q=1.000', ';Q=0.8', ';q=0.', ' ; q=0.3'), weight: 3 },
      {
        arbitrary: fc.constantFrom(
          ';q=-1',
          ';q=2',
          ';q=abc',
          ';q=',
          ';q=0.0001',
          ';q = 0.5',
          ';q=1.5',
          ';level=9',
          ';q=0.5;q=1',
          ';q=NaN',
          ';q=1e0',
        ),
        weight: 2,
      },
      { arbitrary: fc.double({ min: -2, max: 3, noNaN: true }).map((q) => `;q=${q}`), weight: 1 },
    );
    const headerArb = fc.oneof(
      {
        arbitrary: fc
          .array(
            fc.tuple(codingArb, weightArb).map(([c, w]) => `${c}${w}`),
            { maxLength: 6 },
          )
          .chain((members) => fc.constantFrom(',', ', ', ' , ', ',,').map((separator) => members.join(separator))),
        weight: 9,
      },
      {
        arbitrary: fc.constantFrom('identity;q=0', '*;q=0', 'br;q=-1', 'identity;q=0, *;q=0', 'gzip;q=0, br;q=0, identity;q=0'),
        weight: 2,
      },
    );
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TARGETS), headerArb, async ([kind, target], header) => {
        const answer = await h.send(kind, request(target, header), `${target.slice(0, 80)} with Accept-Encoding: ${header}`);
        const what = `${kind} ${target.slice(0, 80)}, Accept-Encoding: ${JSON.stringify(header)}`;
        const plain = baseline.get(`${kind} ${target}`);
        expect(answer.status, what).to.equal(plain?.status);
        const coding = answer.headers['content-encoding'];
        seen.set(coding ?? 'identity', (seen.get(coding ?? 'identity') ?? 0) + 1);
        expect(coding, what).to.be.oneOf([undefined, 'gzip', 'br']);
        if (coding !== undefined) {
          expect(header.toLowerCase(), `${what}: ${coding} sent but not named`).to.match(
            new RegExp(`(^|[ ,])(${coding}|\\*)[ ;,]|(^|[ ,])(${coding}|\\*)$`),
          );
          expect(refuses(header, coding), `${what}: ${coding} sent though refused`).to.equal(false);
        } else if ((plain?.bytes.length ?? 0) >= 1024 && plainlyAccepts(header)) {
          expect.fail(`${what}: a large answer sent as it is, though the client plainly accepts a coding offered`);
        }
        expect(answer.headers.vary ?? '', what).to.match(/Accept-Encoding/i);
        expect(answer.text === plain?.text, `${what}: the body once decoded`).to.equal(true);
      }),
      { seed: Number(process.env.FC_SEED ?? 4404), numRuns: runs },
    );
    console.log(
      `    encodings: ${runs} generated requests; codings ${JSON.stringify(Object.fromEntries(seen))}; statuses ${JSON.stringify(Object.fromEntries(h.statuses))}`,
    );
    h.statuses.clear();
  });
});
