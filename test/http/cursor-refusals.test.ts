// Cursors a client did not get from the API (docs/query-language.md, "Cursors: cursor"): ones that
// do not open (not sealed, tampered with, or sealed for another collection), made for another sort,
// or sealed (with a leaked key) holding values their sort keys cannot hold, are 400 INVALID_CURSOR
// naming no field, type or value, never a 5xx; `cursor` with page, limit, offset or total is
// CONFLICTING_PARAMETERS. And cursors over the column types beyond the basics (enums, arrays, jsonb,
// real, intervals, inet, tsvector, tsquery) walk every record once.

import { expect } from 'chai';
import { expectOk, objectOf, useApp } from '../support/app';
import { cursorPage, forgedCursor, sealedCursor, walkBack, walkForward } from '../support/cursor-walk';
import { expectProblem } from '../support/problems';
import { GADGETS_SQL, Gadget, TASKS_SQL, Task, useTypedApp } from '../support/typed-fixture';
import { Model } from 'objection';

const enc = encodeURIComponent;

class Span extends Model {
  static override tableName = 'spans';
}

const SPANS_SQL = [
  `create table spans (id integer primary key, length interval, host inet, tags text[], words tsvector, terms tsquery)`,
  `insert into spans values (1, '1 day', '10.0.0.2', '{b}', 'b c', 'b & c'), (2, '2 hours', '10.0.0.10', '{a,c}', 'a', 'a'),
     (3, null, null, null, null, null), (4, '1 day', '10.0.0.2', '{a}', 'a b', 'a | b'), (5, '00:00:00.000001', '::1', '{}', '', 'z')`,
];

describe('cursor refusals', function () {
  const h = useApp();
  const refused = async (query: string, code: 'INVALID_CURSOR' | 'CONFLICTING_PARAMETERS', parameter: string) => {
    const res = await h.get(`/api/users?${query}`);
    return expectProblem(res, { code, parameter });
  };
  /** The one detail of a cursor that does not open, and of one holding what its keys cannot hold. */
  const UNOPENED = '`cursor` cannot be opened: use a `next_cursor` or `prev_cursor` as given, or start again with `cursor=`';
  const UNFIT = '`cursor` holds a value its sort key cannot hold: start again with `cursor=`';
  const OTHER_SORT = '`cursor` was made for another sort: start again with `cursor=`';
  const detailOf = (body: Record<string, unknown>): unknown => body.detail;

  it('a cursor that does not open is INVALID_CURSOR, the readable form cursors once had included', async function () {
    for (const text of [
      'abc',
      'not%20base64',
      enc('eyJ9'),
      forgedCursor('a string'),
      forgedCursor([1]),
      forgedCursor({ sort: ['id:asc'] }),
      forgedCursor({ sort: ['id:asc'], dir: 'sideways', at: null }),
      forgedCursor({ sort: ['id:asc'], dir: 'next', at: [1] }),
      forgedCursor({ sort: ['id:asc'], dir: 'next', at: null, more: 1 }),
      `${forgedCursor({ sort: ['id:asc'], dir: 'next', at: null })}=`,
      Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'),
      // A good token behind a UTF-8 byte-order mark, and one with a surrogate half encoded in UTF-8.
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"sort":["id:asc"],"dir":"next","at":null}')]).toString('base64url'),
      Buffer.concat([Buffer.from('{"sort":["id:asc"],"dir":"next","at":["'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"]}')]).toString(
        'base64url',
      ),
      // The readable form of a real cursor: the content is right, but it is not sealed.
      forgedCursor({ sort: ['id:asc'], dir: 'next', at: ['3'] }),
      Buffer.from('["next",["id:asc"],["3"]]').toString('base64url'),
    ]) {
      expect(detailOf(await refused(`cursor=${text}`, 'INVALID_CURSOR', 'cursor')), text).to.equal(UNOPENED);
    }
  });

  it('a cursor tampered with, or sealed for another collection, does not open', async function () {
    const page = await cursorPage((p) => h.get(p), '/api/users?per-page=2&cursor=');
    const cursor = page.next_cursor ?? expect.fail('a next cursor');
    expectOk(await h.get(`/api/users?per-page=2&cursor=${cursor}`));
    const bytes = Buffer.from(cursor, 'base64url');
    for (const at of [0, 11, 12, bytes.length - 17, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at] = (tampered[at] ?? 0) ^ 1;
      expect(detailOf(await refused(`cursor=${tampered.toString('base64url')}`, 'INVALID_CURSOR', 'cursor'))).to.equal(UNOPENED);
    }
    // Made for users, sent to posts: the same sort (the default one), another collection.
    const res = await h.get(`/api/posts?cursor=${sealedCursor({ sort: ['id:asc'], direction: 'next', at: ['1'] })}`);
    expect(detailOf(expectProblem(res, { code: 'INVALID_CURSOR', parameter: 'cursor' }))).to.equal(UNOPENED);
    expectOk(await h.get(`/api/posts?cursor=${sealedCursor({ sort: ['id:asc'], direction: 'next', at: ['1'] }, 'posts')}`));
  });

  it('a cursor made for another sort is INVALID_CURSOR naming no field: other keys, another direction, or none', async function () {
    const byName = await cursorPage((p) => h.get(p), '/api/users?sort[name]&per-page=2&cursor=');
    const cursor = byName.next_cursor ?? expect.fail('a next cursor');
    for (const query of [
      `sort[name]=desc&cursor=${cursor}`,
      `cursor=${cursor}`,
      `sort[email]&cursor=${cursor}`,
      `sort[name]&sort[email]&cursor=${cursor}`,
    ]) {
      expect(detailOf(await refused(query, 'INVALID_CURSOR', 'cursor')), query).to.equal(OTHER_SORT);
    }
    const plain = await cursorPage((p) => h.get(p), '/api/users?per-page=2&cursor=');
    await refused(`sort[name]&cursor=${plain.next_cursor ?? ''}`, 'INVALID_CURSOR', 'cursor');
    // Its own sort still takes it, whatever else changed (page size, filters, fields).
    expectOk(await h.get(`/api/users?sort[name]&per-page=5&fields=id&cursor=${cursor}`));
  });

  it('values sealed (with a leaked key) that their key cannot hold are INVALID_CURSOR naming nothing, never a 5xx', async function () {
    const sort = ['created_at:desc', 'visits:asc', 'score:asc', 'birthday:asc', 'active:asc', 'name:asc', 'id:asc'];
    const query = 'sort[created_at]=desc&sort[visits]&sort[score]&sort[birthday]&sort[active]&sort[name]';
    const good = ['2025-04-17T01:19:49.123456Z', '9007199254740993', '60.00', '1992-07-04', 'true', "Dave O'Brien", '6'];
    const at = (i: number, value: string | null) => good.map((v, j) => (j === i ? value : v));
    expectOk(await h.get(`/api/users?${query}&cursor=${sealedCursor({ sort, direction: 'next', at: good })}`));
    const bad: [number, string | null][] = [
      [0, 'yesterday'],
      [0, '2025-04-17'],
      [0, '2025-02-30T00:00:00Z'],
      [1, '9223372036854775808'],
      [1, '1.5'],
      [2, 'twelve'],
      [2, '1e999999'],
      [3, '1992-13-01'],
      [4, 'maybe'],
      [5, null],
      [5, 'nul\u0000'],
      [6, '2147483648'],
      [6, null],
      [6, '-'],
    ];
    for (const [i, value] of bad) {
      const body = await refused(
        `${query}&cursor=${sealedCursor({ sort, direction: 'prev', at: at(i, value) })}`,
        'INVALID_CURSOR',
        'cursor',
      );
      expect(detailOf(body), `${i}: ${String(value)}`).to.equal(UNFIT);
    }
    await refused(`${query}&cursor=${sealedCursor({ sort, direction: 'next', at: good.slice(1) })}`, 'INVALID_CURSOR', 'cursor');
  });

  it('NULL where the key may be NULL is a boundary like any other', async function () {
    const sort = ['email_verified_at:asc', 'id:asc'];
    const page = await cursorPage(
      (p) => h.get(p),
      `/api/users?fields=id&sort[email_verified_at]&cursor=${sealedCursor({ sort, direction: 'next', at: [null, '9'] })}`,
    );
    expect(page.data.map((r) => r.id)).to.deep.equal([10, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23]);
  });

  it('page, limit, offset and total with cursor are CONFLICTING_PARAMETERS', async function () {
    await refused('cursor=&page=2', 'CONFLICTING_PARAMETERS', 'page');
    await refused('cursor=&limit=5', 'CONFLICTING_PARAMETERS', 'limit');
    await refused('offset=5&cursor=', 'CONFLICTING_PARAMETERS', 'offset');
    await refused('cursor=&total=none', 'CONFLICTING_PARAMETERS', 'total');
    await refused('cursor=&total=exact&per-page=5', 'CONFLICTING_PARAMETERS', 'total');
    const body = objectOf(await h.get('/api/users?cursor=abc&page=1'));
    expect((body.errors as { code: string }[]).map((e) => e.code)).to.deep.equal(['INVALID_CURSOR', 'CONFLICTING_PARAMETERS']);
  });

  it('a page size past the maximum is PAGE_SIZE_TOO_LARGE; a repeated cursor is DUPLICATE_PARAMETER', async function () {
    expectProblem(await h.get('/api/users?cursor=&per-page=101'), { code: 'PAGE_SIZE_TOO_LARGE', parameter: 'per-page', allowed: 100 });
    expectProblem(await h.get('/api/users?cursor=&cursor='), { code: 'DUPLICATE_PARAMETER', parameter: 'cursor' });
  });
});

describe('cursors over enums, arrays, jsonb, floats and types read in their text form', function () {
  const tasks = useTypedApp(TASKS_SQL, { tasks: Task });
  const gadgets = useTypedApp(GADGETS_SQL, { gadgets: Gadget });
  const spans = useTypedApp(SPANS_SQL, { spans: Span });

  const walks = async (app: typeof tasks, collection: string, query: string): Promise<void> => {
    const all = await app.rows(`/api/${collection}?${query}`);
    const forward = await walkForward((p) => app.get(p), `/api/${collection}?${query}&per-page=1&cursor=`);
    expect(forward.records, `forward ${query}`).to.deep.equal(all);
    const last = forward.pages[forward.pages.length - 1] ?? expect.fail('no page');
    expect((await walkBack((p) => app.get(p), last)).records, `back ${query}`).to.deep.equal(all);
  };

  it('enums in their declared order, text arrays, jsonb', async function () {
    for (const sort of ['sort[mood]', 'sort[mood]=desc', 'sort[tags]', 'sort[points]=desc', 'sort[meta]', 'sort[mood]&sort[tags]=desc']) {
      await walks(tasks, 'tasks', `fields=id,mood,tags,points&${sort}`);
    }
  });

  it('real, double precision, numeric, an enum in another schema, arrays of timestamps and bigints', async function () {
    for (const sort of [
      'sort[ratio]',
      'sort[precise]=desc',
      'sort[amount]',
      'sort[tier]=desc',
      'sort[stamps]',
      'sort[bigs]=desc',
      'sort[tiers]',
    ]) {
      await walks(gadgets, 'gadgets', `fields=id&${sort}`);
    }
  });

  it('intervals, inet and arrays, whose values only the database checks', async function () {
    for (const sort of [
      'sort[length]',
      'sort[length]=desc&sort[host]',
      'sort[host]=desc',
      'sort[tags]&sort[length]',
      'sort[words]',
      'sort[terms]=desc',
    ]) {
      await walks(spans, 'spans', `fields=id,length,host,tags&${sort}`);
    }
  });

  it("a value the database cannot read as the key's type is INVALID_CURSOR, not a 5xx", async function () {
    const cases: [readonly string[], readonly string[]][] = [
      [
        ['length:asc', 'id:asc'],
        ['a fortnight', '1'],
      ],
      [
        ['host:asc', 'id:asc'],
        ['10.0.0.300', '1'],
      ],
      [
        ['tags:asc', 'id:asc'],
        ['{unclosed', '1'],
      ],
      // Seven dimensions: PostgreSQL's limit is six, which it answers as a program limit, not a data exception.
      [
        ['tags:asc', 'id:asc'],
        ['{{{{{{{a}}}}}}}', '1'],
      ],
      [
        ['tags:asc', 'id:asc'],
        ['{{a},b}', '1'],
      ],
      // A program limit again (a word past 2047 bytes), and a syntax error (42601) met while reading the value.
      [
        ['words:asc', 'id:asc'],
        [`'${'a'.repeat(2100)}'`, '1'],
      ],
      [
        ['terms:asc', 'id:asc'],
        ['a & (', '1'],
      ],
    ];
    for (const [sort, at] of cases) {
      const key = sort[0]?.split(':')[0] ?? '';
      const res = await spans.get(`/api/spans?sort[${key}]&cursor=${sealedCursor({ sort, direction: 'next', at }, 'spans')}`);
      expect(JSON.stringify(expectProblem(res, { code: 'INVALID_CURSOR', parameter: 'cursor' })), at[0]).to.not.include(key);
    }
  });
});
