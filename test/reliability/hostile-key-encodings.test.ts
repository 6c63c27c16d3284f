// Hostile class 8, odd percent-encodings of keys: modifier keys with their brackets, `!`, spaces and
// letters written raw, percent-encoded (either case) or encoded twice, with broken escapes (`%E0`,
// a lone `%`, `%G1`, an overlong or surrogate sequence) put anywhere in them. Each answer must be
// the one docs/query-language.md, "How the query string is read" decides, worked out here from the key alone:
// - a key that decodes to a key of this API is that key: the same answer as the key written plainly;
// - a key that decodes to a foreign key that would be ours once its escapes are decoded again
//   (encoded twice, up to four times) is 400 MALFORMED_PARAMETER naming the decoded key;
// - a key that cannot be decoded is 400 MALFORMED_PARAMETER naming the key as sent when it has an
//   encoded bracket or reads as ours once its ASCII escapes are decoded, again up to four rounds
//   (`between%255Bid%E0%255D` has a bracket encoded twice);
// - a key left over that starts with an expansion alias of the request and `_` names no alias
//   modifier: 400 MALFORMED_PARAMETER (docs/query-language.md, "Aliases and alias modifiers");
// - any other key is ignored: the answer without it.
// So a key naming a modifier is never silently dropped: no unfiltered collection for a broken filter.

import { expect } from 'chai';
import fc from 'fast-check';
import type { RawResponse } from './http';
import { enc, useHostileApps } from './hostile-harness';

/** Keys as a client means them, with a value that changes the answer, and the pair an alias needs. */
const MEANT: readonly { readonly key: string; readonly value: string; readonly context?: string; readonly alias?: string }[] = [
  { key: 'filter[id]', value: '3' },
  { key: 'filter[and! id]', value: '3' },
  { key: 'filter[or! id]', value: '3' },
  { key: 'in[id]', value: '1,2' },
  { key: 'between[id]', value: '2,4' },
  { key: 'search[name]', value: 'a' },
  { key: 'sort[id]', value: 'desc' },
  { key: 'fields', value: 'id' },
  { key: 'fields!', value: 'name' },
  { key: 'expand[posts]', value: 'p' },
  { key: 'p_filter[id]', value: '1', context: 'expand[posts]=p', alias: 'p' },
  { key: 'p_fields', value: 'id', context: 'expand[posts]=p', alias: 'p' },
  { key: 'limit', value: '2' },
];

// ---- docs/query-language.md, "How the query string is read", restated without plugin/syntax ----

const WORDS = [
  'filter',
  'in',
  'between',
  'search',
  'sort',
  'expand',
  'fields',
  'fields!',
  'page',
  'per-page',
  'page-size',
  'limit',
  'offset',
];
const SCOPED = ['filter', 'in', 'between', 'search', 'sort', 'fields', 'fields!'];

/** Whether a decoded key belongs to the query language (a valid or a malformed use of a modifier). */
function isOurs(key: string): boolean {
  if (key === 'per_page' || key === 'page_size') return true;
  const match = /^(?:([A-Za-z][A-Za-z0-9]*)_)?([a-z]+(?:-[a-z]+)?!?)(\[.*)?$/s.exec(key);
  if (match === null) return false;
  const [, alias, word = ''] = match;
  if (!WORDS.includes(word)) return false;
  return alias === undefined || SCOPED.includes(word) || word === 'expand';
}

function decodeOnce(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

const decodeAscii = (text: string): string =>
  text.replace(/\+/g, ' ').replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The text with its ASCII escapes decoded again, round after round, up to `rounds` rounds. */
function roundsOf(text: string, rounds: number): string[] {
  const texts: string[] = [];
  for (let round = 0, last = text; round < rounds; round++) {
    const next = decodeAscii(last);
    if (next === last) break;
    texts.push(next);
    last = next;
  }
  return texts;
}

const hasEncodedBracket = (text: string): boolean => /%5[BbDd]/.test(text);

type Expected =
  { readonly kind: 'as'; readonly key: string } | { readonly kind: 'malformed'; readonly parameter: string } | { readonly kind: 'ignored' };

/** `alias`: the expansion alias the request declares besides this key, if any. */
function expectedFor(raw: string, alias: string | undefined): Expected {
  const once = decodeOnce(raw);
  const key = once ?? raw;
  if (once !== undefined && isOurs(once)) return { kind: 'as', key: once };
  // Up to four rounds of decoding in all: a key encoded up to four times.
  const claimed =
    once !== undefined
      ? roundsOf(once, 3).some(isOurs)
      : hasEncodedBracket(raw) ||
        [decodeAscii(raw), ...roundsOf(decodeAscii(raw), 3)].some((text) => hasEncodedBracket(text) || isOurs(text));
  if (claimed || (alias !== undefined && key.startsWith(`${alias}_`))) return { kind: 'malformed', parameter: key };
  return { kind: 'ignored' };
}

// ---- generated spellings ---------------------------------------------------------------------

const hex = (ch: string): string => ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');

/** How one character is written: as itself (a space as `+`), `%XX`, `%xx`, or encoded twice. */
type Spelling = 'raw' | 'upper' | 'lower' | 'twice' | 'plus';
const spell = (ch: string, how: Spelling): string => {
  switch (how) {
    case 'raw':
      return ch === ' ' ? '+' : ch;
    case 'upper':
      return `%${hex(ch)}`;
    case 'lower':
      return `%${hex(ch).toLowerCase()}`;
    case 'twice':
      return `%25${hex(ch)}`;
    // `%2B` is a plus sign, not a space: the key then means something else.
    case 'plus':
      return ch === ' ' ? '%2B' : ch;
  }
};

const BROKEN = ['%E0', '%C3%28', '%', '%%', '%G1', '%2', '%5', '%ED%A0%80', '%C0%AF', '%FF', '%F0%9F', '%25', '%E0%5D', '%5B%E0', '%2525'];

const spellingArb = fc.constantFrom<Spelling>('raw', 'upper', 'lower', 'twice');
const requestArb = fc.record({
  meant: fc.constantFrom(...MEANT),
  brackets: spellingArb,
  bang: spellingArb,
  space: fc.constantFrom<Spelling>('raw', 'upper', 'twice', 'plus'),
  letter: fc.option(fc.tuple(fc.nat(), spellingArb), { freq: 3 }),
  broken: fc.option(fc.tuple(fc.nat(), fc.constantFrom(...BROKEN)), { freq: 2 }),
});

type GeneratedRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** The key as the generated client writes it. */
function spelled({ meant, brackets, bang, space, letter, broken }: GeneratedRequest): string {
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points on purpose: the generator recases and re-encodes whole characters
  const chars = [...meant.key];
  const letters = chars.flatMap((ch, i) => (/[a-z]/.test(ch) ? [i] : []));
  const encodedLetter = letter === null ? -1 : letters[letter[0] % letters.length];
  const tokens = chars.map((ch, i) => {
    if (ch === '[' || ch === ']') return spell(ch, brackets);
    if (ch === '!') return spell(ch, bang);
    if (ch === ' ') return spell(ch, space);
    return i === encodedLetter && letter !== null ? spell(ch, letter[1]) : ch;
  });
  if (broken !== null) tokens.splice(broken[0] % (tokens.length + 1), 0, broken[1]);
  return tokens.join('');
}

const query = (context: string | undefined, pair: string | undefined): string =>
  [context, pair].filter((p): p is string => p !== undefined).join('&');

function problemOf(res: RawResponse): { code?: unknown; parameter?: unknown; errors?: unknown[] } {
  return res.body as { code?: unknown; parameter?: unknown; errors?: unknown[] };
}

describe('hostile input: odd percent-encodings of keys (class 8)', function () {
  const h = useHostileApps();

  it('a key that names a modifier is applied or refused, never dropped; other keys are ignored', async function () {
    this.timeout(300000);
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const { meant } = request;
        const raw = spelled(request);
        const expected = expectedFor(raw, meant.alias);
        seen.set(expected.kind, (seen.get(expected.kind) ?? 0) + 1);
        const res = await h.send(query(meant.context, `${raw}=${meant.value}`));
        const what = `${raw} (meant ${meant.key}; expected ${JSON.stringify(expected)}): ${res.status} ${res.text.slice(0, 300)}`;
        if (expected.kind === 'malformed') {
          expect(res.status, what).to.equal(400);
          const body = problemOf(res);
          expect([body.code, body.parameter, body.errors?.length], what).to.deep.equal(['MALFORMED_PARAMETER', expected.parameter, 1]);
          return;
        }
        const same = await h.send(query(meant.context, expected.kind === 'as' ? `${enc(expected.key)}=${meant.value}` : undefined));
        expect(res.status, what).to.equal(same.status);
        expect(res.body, what).to.deep.equal(same.body);
      }),
      { seed: Number(process.env.FC_SEED ?? 8888), numRuns: Number(process.env.HOSTILE_RUNS ?? 400) },
    );
    console.log(`    odd encodings: ${JSON.stringify(Object.fromEntries(seen))}`);
    for (const kind of ['as', 'malformed', 'ignored']) expect(seen.get(kind) ?? 0, `generated keys expected ${kind}`).to.be.greaterThan(10);
  });

  it('pinned: the examples of issue 11', async function () {
    for (const [key, parameter] of [
      ['filter%5Bname%E0%5D', 'filter%5Bname%E0%5D'],
      ['filter%255Bname%255D', 'filter%5Bname%5D'],
      ['filter%5Bor%E0%20name%5D', 'filter%5Bor%E0%20name%5D'],
      ['fields%2521', 'fields%21'],
      ['filter[name%]', 'filter[name%]'],
      ['between%255Bname%E0%255D', 'between%255Bname%E0%255D'],
    ] as const) {
      const res = await h.send(`${key}=Kate`);
      expect([res.status, problemOf(res).code, problemOf(res).parameter], key).to.deep.equal([400, 'MALFORMED_PARAMETER', parameter]);
    }
    // An alias's modifier with a broken escape is a mistake, as `p_page` is
    // (docs/query-language.md, "Aliases and alias modifiers").
    const res = await h.send('expand[posts]=p&p_%E0fields=id');
    expect([res.status, problemOf(res).code, problemOf(res).parameter]).to.deep.equal([400, 'MALFORMED_PARAMETER', 'p_%E0fields']);
  });
});
