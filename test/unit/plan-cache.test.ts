// The plan cache keeps what answering a query string again needs and nothing more: the heap an
// entry holds is what the cache counts for it (so `planCache.maxBytes` bounds its memory), and that
// is about what the query string's text costs. Heap figures are read after forced collections.

import { expect } from 'chai';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { LruMap } from '../../plugin/caches';
import { prepareQuery, type PreparedQuery } from '../../plugin/prepared';
import { limits, people } from './catalog-stub';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The plugin's default caps: 50 clauses, 500 list items. */
const caps = { ...limits, maxClauses: 50, maxListItems: 500 };

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A flat copy, as a query string read from a request is, so nothing else keeps its text alive. */
const flat = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const weigh = (_: string, prepared: PreparedQuery): number => prepared.bytes;

const ENTRIES = 1000;

const numbers = (i: number, count: number): string => Array.from({ length: count }, (_, k) => i * 1000 + k).join(',');

/** Kinds of query strings, the i-th of each distinct, with the parts an entry keeps (values, lists, patterns). */
const KINDS: readonly [string, (i: number) => string][] = [
  ['a short filter', (i) => `filter[id]=${i}`],
  ['a 500-item in list', (i) => `fields=id,name&in[id]=${numbers(i, 500)}`],
  ['50 long text values', (i) => Array.from({ length: 50 }, (_, k) => `filter[or+name]=${i}-${k}-${'x'.repeat(100)}`).join('&')],
  [
    'long search terms and an expansion',
    (i) => `search[name]=*${'ab'.repeat(600)}${i}*&expand[notes]=n&n_search[title]=${'cd'.repeat(600)}${i}*`,
  ],
  [
    'per-parent windows on expansions',
    (i) =>
      `expand[notes]=n&n_limit=${(i % 50) + 1}&n_offset=${i}&n_filter[title]=${'ef'.repeat(200)}${i}&expand[tags]=t&t_limit=2&expand[nicknames]=k&k_offset=${i}`,
  ],
  ['values outside Latin-1', (i) => `filter[name]=<>${encodeURIComponent('ж'.repeat(400))}${i}&sort[name]=desc&per-page=20&page=2`],
];

/** Fills a cache with ENTRIES distinct query strings of one kind; the heap it holds and what it counts. */
function fill(make: (i: number) => string, round: number): { readonly measured: number; readonly counted: number; readonly text: number } {
  let text = 0;
  let map: LruMap<string, PreparedQuery> | undefined = new LruMap({ maxBytes: Number.POSITIVE_INFINITY }, weigh);
  const before = heapAfterGc();
  for (let i = 0; i < ENTRIES; i++) {
    const queryString = flat(make(round * ENTRIES + i));
    text += queryString.length;
    prepareQuery(people, caps, queryString, map);
  }
  const after = heapAfterGc();
  // Read after measuring, so the cache is certainly alive when the full heap is read.
  const counted = map.bytes / ENTRIES;
  expect(map.size).to.equal(ENTRIES);
  // eslint-disable-next-line no-useless-assignment -- drops the last reference, so the heap can be measured without the map
  map = undefined;
  return { measured: (after - before) / ENTRIES, counted, text: text / ENTRIES };
}

describe('plan cache entries', function () {
  // Each test fills caches with thousands of prepared queries and collects garbage several times.
  this.timeout(60000);
  for (const [label, make] of KINDS) {
    it(`${label}: an entry holds no more than the cache counts for it, and about its text`, function () {
      // A first round warms up the code; the smaller of two more is read (a collection's leftovers only add).
      fill(make, 0);
      const rounds = [fill(make, 1), fill(make, 2)];
      const measured = Math.min(...rounds.map((r) => r.measured));
      const { counted, text } = rounds[1]!;
      // A kept parse (pairs, clauses, operands) or a second copy of the text shows up here.
      expect(measured, `heap per entry; counted ${counted.toFixed(0)}`).to.be.at.most(counted * 1.1 + 128);
      // Text twice (the key, and the values as bindings), the SQL around them, the select list.
      expect(counted, `counted per entry; query string ${text.toFixed(0)} characters`).to.be.at.most(3 * 2 * text + 1024);
    });
  }

  it('a flood of distinct long query strings holds the cache to maxBytes', function () {
    const maxBytes = 4 * 1024 * 1024;
    const make = KINDS[2]![1];
    fill(make, 10);
    let map: LruMap<string, PreparedQuery> | undefined = new LruMap({ maxBytes }, weigh);
    const before = heapAfterGc();
    for (let i = 0; i < 3000; i++) prepareQuery(people, caps, flat(make(i)), map);
    const after = heapAfterGc();
    const { size, bytes } = map;
    // eslint-disable-next-line no-useless-assignment -- drops the last reference, so the heap can be measured without the map
    map = undefined;
    expect(bytes).to.be.at.most(maxBytes);
    // Some 15 KB each: about 270 of the 3000 are kept, the most recent ones.
    expect(size).to.be.within(200, 350);
    expect(after - before).to.be.at.most(maxBytes * 1.15);
  });

  it('keeps the most recent entries and answers them from the cache', function () {
    const map = new LruMap<string, PreparedQuery>({ maxBytes: 256 * 1024 }, weigh);
    const queries = Array.from({ length: 200 }, (_, i) => flat(KINDS[2]![1](i)));
    for (const queryString of queries) prepareQuery(people, caps, queryString, map);
    const last = queries[queries.length - 1]!;
    const kept = prepareQuery(people, caps, last, map);
    expect(prepareQuery(people, caps, last, map)).to.equal(kept);
    expect(map.get(`people?${queries[0]!}`)).to.equal(undefined);
  });
});
