// Forged cursors, generated (docs/query-language.md, "Cursors: cursor"): no `cursor=` value gives a
// 5xx. Random text and bytes, and real cursors with bits flipped, never open: 400 INVALID_CURSOR whose
// detail is the one sentence that names nothing (or, for bytes that are not UTF-8, the syntax
// stage's MALFORMED_PARAMETER). Contents sealed with the app's own key (what only a
// leaked key could make), of every column type the fixtures have (integers, bigints, numerics, reals,
// text, booleans, dates, timestamps, enums, jsonb, uuid, intervals, inet, tsvector, tsquery, ranges,
// arrays of texts, integers, bigints, numerics, timestamps, enums and a domain), with values that fit,
// values that do not (huge numbers, impossible dates, arrays of seven dimensions, unparsable text
// forms) and the wrong number of them, are a page or 400 INVALID_CURSOR naming nothing, and no fault
// reaches the logger.

import { expect } from 'chai';
import fc from 'fast-check';
import { Model } from 'objection';
import type { CursorDirection } from '../../plugin/syntax';
import { startApp, type TestApp } from '../support/app';
import { sealedCursor } from '../support/cursor-walk';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { collections } from '../support/fixture';
import { createTables, Gadget, GADGETS_SQL, Task, TASKS_SQL } from '../support/typed-fixture';
import { rawGet, type RawResponse } from './http';

class Span extends Model {
  static override tableName = 'spans';
}

const SPANS_SQL = [
  `create table spans (id integer primary key, length interval, host inet, tags text[], words tsvector, terms tsquery,
     token uuid, starts time, during int4range, mac macaddr)`,
  `insert into spans values
     (1, '1 day', '10.0.0.2', '{b}', 'b c', 'b & c', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '08:00', '[1,5)', '08:00:2b:01:02:03'),
     (2, '2 hours', '::1', '{a,c}', 'a', 'a', '00000000-0000-0000-0000-000000000000', '23:59:59.999999', 'empty', '00:00:00:00:00:00'),
     (3, null, null, null, null, null, null, null, null, null)`,
];

type Samples = readonly [fitting: readonly string[], refused: readonly string[]];

/** Values of a type's text form that fit it, and values that do not (some of which only the database can tell). */
const TYPES = {
  integer: [
    ['1', '7', '-5', '0'],
    ['2147483648', '1.5', '1e3', 'x', ''],
  ],
  text: [
    ['Ada', '', "O'Brien", 'é😀', '\ud800'],
    ['\u0000', 'a\u0000b'],
  ],
  numeric: [
    ['60.00', '0', '-1.5', 'NaN'],
    ['1e999999', '9'.repeat(200), '1e-999999', 'x'],
  ],
  boolean: [
    ['true', 'false'],
    ['maybe', 't', '1'],
  ],
  date: [
    ['1992-07-04', '2000-02-29'],
    ['1992-13-01', '2001-02-29', '0000-01-01', '5874898-01-01', 'infinity'],
  ],
  bigint: [
    ['9007199254740993', '0', '-9223372036854775808'],
    ['9223372036854775808', '1e3'],
  ],
  timestamptz: [
    ['2025-04-17T01:19:49.123456Z', '1970-01-01T00:00:00.000000Z'],
    ['2025-02-30T00:00:00Z', '294277-01-01T00:00:00Z', 'infinity', '2025-04-17', 'now'],
  ],
  mood: [
    ['sad', 'ok', 'happy'],
    ['glad', 'Happy'],
  ],
  texts: [
    ['{a}', '{}', '{"a b",NULL}', '{{a,b},{c,d}}', '[0:0]={z}'],
    ['{{{{{{{a}}}}}}}', '{1,{2}}', '{', '[1:3]={1}', 'a'],
  ],
  integers: [
    ['{1,2}', '{}', '{NULL}', '{{1},{2}}'],
    ['{x}', '{9999999999}', '{{{{{{{1}}}}}}}', '{1.5}'],
  ],
  jsonb: [
    ['{"a": 1}', '[1, 2]', '"done"', 'null'],
    ['{"a":', `${'['.repeat(1001)}${']'.repeat(1001)}`, '"\\u0000"'],
  ],
  real: [
    ['0.5', '-2', 'NaN', 'Infinity', '1e-40'],
    ['1e999', 'x', '0x10'],
  ],
  tier: [['gold', 'silver', 'bronze'], ['platinum']],
  tiers: [
    ['{gold,silver}', '{}'],
    ['{platinum}', '{{{{{{{gold}}}}}}}'],
  ],
  stamps: [
    ['{"2025-04-17 01:19:49.123456+00"}', '{}'],
    ['{"2025-02-30 00:00+00"}', '{x}'],
  ],
  bigints: [['{9007199254740993,1}', '{}'], ['{9223372036854775808}']],
  numerics: [
    ['{1.50,2}', '{NaN}'],
    ['{1e999999}', '{x}'],
  ],
  posints: [
    ['{1,2}', '{3}'],
    ['{0}', '{-1}'],
  ],
  interval: [
    ['1 day', '00:00:00.000001', '-1 years'],
    ['a fortnight', '178000000 years'],
  ],
  inet: [
    ['10.0.0.2', '::1', '10.0.0.0/8'],
    ['10.0.0.300', 'localhost'],
  ],
  tsvector: [["'b' 'c'", ''], [`'${'a'.repeat(2100)}'`]],
  tsquery: [
    ["'a' & 'b'", '!a'],
    ['a & (', '!', ''],
  ],
  uuid: [
    ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'],
    ['not-a-uuid', 'a0eebc99'],
  ],
  time: [
    ['08:00:00', '23:59:59.999999', '24:00:00'],
    ['25:00:00', '24:00:01', 'noon'],
  ],
  range: [
    ['[1,5)', 'empty', '(,)'],
    ['[5,1)', '[1,2147483648)', '[1,'],
  ],
  macaddr: [['08:00:2b:01:02:03'], ['08:00:2b:01:02', 'zz:00:2b:01:02:03']],
} satisfies Record<string, Samples>;

type TypeName = keyof typeof TYPES;

/** The sortable keys of each collection and their types; every sort ends with the integer `id`. */
const KEYS: Readonly<Record<string, Readonly<Record<string, TypeName>>>> = {
  users: {
    name: 'text',
    email: 'text',
    status: 'text',
    score: 'numeric',
    active: 'boolean',
    birthday: 'date',
    visits: 'bigint',
    email_verified_at: 'timestamptz',
    created_at: 'timestamptz',
  },
  posts: { title: 'text', created_at: 'timestamptz' },
  tasks: { title: 'text', mood: 'mood', tags: 'texts', points: 'integers', meta: 'jsonb' },
  gadgets: {
    ratio: 'real',
    precise: 'real',
    amount: 'numeric',
    tier: 'tier',
    tiers: 'tiers',
    stamps: 'stamps',
    bigs: 'bigints',
    amounts: 'numerics',
    sizes: 'posints',
  },
  spans: {
    length: 'interval',
    host: 'inet',
    tags: 'texts',
    words: 'tsvector',
    terms: 'tsquery',
    token: 'uuid',
    starts: 'time',
    during: 'range',
    mac: 'macaddr',
  },
};

/** Values for no type in particular: sizes, characters and forms no key holds. */
const ANY = ['', ' ', '-0', '１２', 'NULL', '{}', '\u0000', 'x'.repeat(2000), '{{{{{{{a}}}}}}}', '1e999999', '2025-02-30'];

/** A boundary value for a key of `type`: mostly one of its own, fitting or not; now and then anything. */
function valueArb(type: TypeName): fc.Arbitrary<string | null> {
  const [fitting, refused] = TYPES[type];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...fitting), weight: 8 },
    { arbitrary: fc.constantFrom(...refused), weight: 3 },
    { arbitrary: fc.constantFrom(...ANY), weight: 1 },
    { arbitrary: fc.string({ maxLength: 30, unit: 'binary' }), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
  );
}

interface Forged {
  readonly collection: string;
  /** The request's `sort[...]` keys and directions. */
  readonly sort: readonly (readonly [string, 'asc' | 'desc'])[];
  /** The sort the cursor says it was made for: the request's, or now and then another. */
  readonly signature: readonly string[];
  readonly direction: CursorDirection;
  readonly at: readonly (string | null)[] | null;
}

/** One value per key of `types`, or now and then one too few or too many. */
function boundaryArb(types: readonly TypeName[]): fc.Arbitrary<(string | null)[] | null> {
  const exact = fc.tuple(...types.map(valueArb));
  return fc.oneof(
    { arbitrary: exact, weight: 12 },
    { arbitrary: exact.map((values) => values.slice(1)), weight: 1 },
    { arbitrary: exact.map((values) => [...values, '1']), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
  );
}

const forgedArb: fc.Arbitrary<Forged> = fc.constantFrom(...Object.keys(KEYS)).chain((collection) => {
  const keys = KEYS[collection] ?? {};
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...Object.keys(keys)), fc.constantFrom('asc' as const, 'desc' as const)), {
      minLength: 0,
      maxLength: 2,
      selector: ([key]) => key,
    })
    .chain((sort) => {
      const own = [...sort.map(([key, dir]) => `${key}:${dir}`), 'id:asc'];
      const types: TypeName[] = [...sort.map(([key]) => keys[key] ?? 'text'), 'integer'];
      return fc.record({
        collection: fc.constant(collection),
        sort: fc.constant(sort),
        signature: fc.oneof({ arbitrary: fc.constant(own), weight: 9 }, { arbitrary: fc.constant(['id:desc']), weight: 1 }),
        direction: fc.constantFrom('next' as const, 'prev' as const),
        at: boundaryArb(types),
      });
    });
});

/** The only details a refused cursor may have: none names a field, a type or a value. */
const DETAILS = new Set([
  '`cursor` cannot be opened: use a `next_cursor` or `prev_cursor` as given, or start again with `cursor=`',
  '`cursor` was made for another sort: start again with `cursor=`',
  '`cursor` holds a value its sort key cannot hold: start again with `cursor=`',
]);

/** A 400 INVALID_CURSOR about `cursor` whose every detail is one of DETAILS; returns the detail. */
function expectRefusal(res: RawResponse, what: string): string {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.equal(400);
  const body = res.body as { code?: unknown; parameter?: unknown; detail?: unknown; errors?: { code: unknown; detail: unknown }[] };
  expect(body.code, what).to.equal('INVALID_CURSOR');
  expect(body.parameter, what).to.equal('cursor');
  expect(body.errors?.map((e) => e.code)).to.deep.equal(['INVALID_CURSOR']);
  for (const detail of [body.detail, ...(body.errors ?? []).map((e) => e.detail)]) {
    expect(DETAILS.has(String(detail)), `${what}: detail ${String(detail)}`).to.equal(true);
  }
  return String(body.detail);
}

/** Whether a query-string value decodes to text: bytes that are not UTF-8 are MALFORMED_PARAMETER, before any cursor is read. */
function isText(value: string): boolean {
  try {
    decodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

const sortQuery = (sort: Forged['sort']): string => sort.map(([key, dir]) => `sort[${key}]=${dir}`).join('&');

describe('forged cursors (reliability, generated)', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  const logged: string[] = [];
  let statements = 0;

  before(async function () {
    this.timeout(180000);
    db = await createTestDatabase();
    await createTables(db.knex, [...TASKS_SQL, ...GADGETS_SQL, ...SPANS_SQL]);
    db.knex.on('query', () => {
      statements++;
    });
    app = await startApp(db.knex, {
      collections: { ...collections, tasks: Task, gadgets: Gadget, spans: Span },
      logger: { error: (message: string, error?: unknown) => logged.push(`${message} ${String(error)}`) },
    });
  });

  after(async function () {
    this.timeout(60000);
    await app?.close();
    await db?.destroy();
  });

  const get = (path: string): Promise<RawResponse> => {
    if (app === undefined) throw new Error('the suite app is not ready');
    return rawGet(app.origin, path);
  };

  it('random text, random bytes and tampered cursors never open: 400 INVALID_CURSOR naming nothing', async function () {
    this.timeout(300000);
    const real = (await get('/api/users?per-page=2&cursor=')).body as { next_cursor: string };
    const bytes = Buffer.from(real.next_cursor, 'base64url');
    const textArb = fc.oneof(
      fc.string({ minLength: 1, maxLength: 200, unit: 'binary' }).map((t) => encodeURIComponent(t.replace(/[\ud800-\udfff]/g, 'x'))),
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => [...b].map((n) => `%${n.toString(16).padStart(2, '0')}`).join('')),
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b).toString('base64url')),
      // As long as a real cursor (so decryption is tried), but random.
      fc.uint8Array({ minLength: bytes.length, maxLength: bytes.length }).map((b) => Buffer.from(b).toString('base64url')),
      fc.tuple(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([at, bits]) => {
        const tampered = Buffer.from(bytes);
        tampered[at] = (tampered[at] ?? 0) ^ bits;
        return tampered.toString('base64url');
      }),
    );
    const collectionArb = fc.constantFrom(...Object.keys(KEYS));
    await fc.assert(
      fc.asyncProperty(textArb, collectionArb, async (text, collection) => {
        const what = `GET /api/${collection}?cursor=${text.slice(0, 120)}`;
        const res = await get(`/api/${collection}?cursor=${text}`);
        if (isText(text)) expect(expectRefusal(res, what)).to.equal([...DETAILS][0]);
        else expect([res.status, (res.body as { code?: unknown }).code], what).to.deep.equal([400, 'MALFORMED_PARAMETER']);
      }),
      { seed: Number(process.env.FC_SEED ?? 4848), numRuns: Number(process.env.CURSOR_RUNS ?? 400) },
    );
    expect(logged, 'faults logged').to.deep.equal([]);
  });

  it('contents sealed with the real key, of every column type, give a page or INVALID_CURSOR naming nothing', async function () {
    this.timeout(300000);
    const seen = { page: 0, otherSort: 0, unfit: 0, byDatabase: 0 };
    await fc.assert(
      fc.asyncProperty(forgedArb, async (forged) => {
        const token = { sort: forged.signature, direction: forged.direction, at: forged.at };
        const query = [sortQuery(forged.sort), `per-page=3&cursor=${sealedCursor(token, forged.collection)}`].filter((q) => q !== '');
        const path = `/api/${forged.collection}?${query.join('&')}`;
        const before = statements;
        const res = await get(path);
        const what = `${forged.collection} ${JSON.stringify(token).slice(0, 300)}`;
        expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.be.oneOf([200, 400]);
        if (res.status === 200) {
          seen.page++;
          expect(Object.keys(res.body as object), what).to.include('next_cursor');
        } else if (expectRefusal(res, what).includes('another sort')) seen.otherSort++;
        else if (statements === before) seen.unfit++;
        // A value only the database could check (an interval, an array's element, a tsquery, ...).
        else seen.byDatabase++;
      }),
      { seed: Number(process.env.FC_SEED ?? 4848), numRuns: Number(process.env.CURSOR_RUNS ?? 600) },
    );
    expect(logged, 'faults logged').to.deep.equal([]);
    // The generator reaches every outcome, so the property is not met by refusing everything.
    expect(seen.page, JSON.stringify(seen)).to.be.above(20);
    expect(seen.otherSort, JSON.stringify(seen)).to.be.above(5);
    expect(seen.unfit, JSON.stringify(seen)).to.be.above(20);
    expect(seen.byDatabase, JSON.stringify(seen)).to.be.above(4);
  });
});
