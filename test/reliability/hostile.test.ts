// Hostile input, generated and listed: malformed brackets, unknown prefixes, huge numbers, bad
// pages, prototype keys, quotes, semicolons, SQL comments, NUL bytes, invalid UTF-8 and
// percent-encodings, 10,000-item lists, 50 KB values, repeated keys. Every request goes through
// the checks of hostile-harness.ts (below 500, valid problems, no SQL for a refused request, no
// input text in SQL, no leak).

import { expect } from 'chai';
import fc from 'fast-check';
import { rawGet } from './http';
import { sealedCursor } from '../support/cursor-walk';
import { codeOf, enc, MARK, useHostileApps } from './hostile-harness';
import { expectValidProblem } from '../support/problems';

/** A readable cursor (base64url JSON, as cursors once were), holding whatever values a client chose: it never opens. */
const cursor = (sort: string[], dir: string, at: (string | null)[] | null): string =>
  Buffer.from(JSON.stringify({ sort, dir, at }), 'utf8').toString('base64url');

/** The same values sealed for users with the test apps' key: what only a leaked key could make. */
const sealed = (sort: string[], direction: 'next' | 'prev', at: (string | null)[] | null): string => sealedCursor({ sort, direction, at });

describe('hostile input (reliability)', function () {
  const h = useHostileApps();

  // ---- generated ----------------------------------------------------------------------------

  describe('generated hostile query strings', function () {
    const names = [
      'id',
      'name',
      'score',
      'created_at',
      'password_hash',
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      MARK,
      `${MARK}'--`,
      `${MARK}"`,
      `${MARK};select 1`,
      `${MARK}/**/`,
      `users.${MARK}`,
      `${MARK} or 1=1`,
      `${MARK}?`,
      '',
    ];
    const nameArb = fc.constantFrom(...names).map(enc);
    const prefixArb = fc.constantFrom(
      '',
      'or+',
      'and!+',
      'OR!%20',
      'xor+',
      'and++',
      '+or+',
      'not+',
      'or!!+',
      '!or+',
      'or\t'.replace('\t', '%09'),
    );
    const familyArb = fc.constantFrom(
      'filter',
      'in',
      'between',
      'search',
      'sort',
      'expand',
      'p_filter',
      'p_sort',
      'fields',
      '__proto__',
      'constructor',
      'Filter',
    );
    const shapedKey = fc.tuple(familyArb, prefixArb, nameArb).map(([family, prefix, name]) => `${family}[${prefix}${name}]`);
    const fixedKey = fc.constantFrom(
      'filter[',
      'filter]',
      'filter[[id]]',
      'filter[id',
      'filter[]',
      '[id]',
      'sort',
      'sort[]',
      'fields[]',
      'filter[id][x]',
      'filter%5Bid%5D',
      'filter%5Bid',
      'fields',
      'fields!',
      'fields!!',
      'page',
      'per-page',
      'page-size',
      'limit',
      'offset',
      'per_page',
      'page_size',
      'p_expand[roles]',
      'p_page',
      'expand[posts]',
      'expand[__proto__]',
      '__proto__',
      '__proto__[id]',
      '__proto___fields',
      'constructor[prototype]',
      'constructor_fields',
      'toString_filter[id]',
      'hasOwnProperty',
      '%00',
      'filter[na%00me]',
      'filter[%C3%28]',
      'filter[%FF]',
      '%',
      'filter[%G1]',
      `p_filter[${MARK}]`,
      `${MARK}_fields`,
      '',
    );
    // Well-formed keys carry hostile values into SQL bindings; the other two kinds test the parser.
    const validKey = fc.constantFrom(
      'filter[name]',
      'filter[or+email]',
      'filter[and!+status]',
      'in[name]',
      'in[or+role]',
      'between[name]',
      'search[name,email]',
      'between[created_at]',
      'in[created_at]',
      'p_filter[created_at]',
      'search[status]',
      'filter[id]',
      'filter[created_at]',
      'in[score]',
      'sort[name]',
      'fields',
      'expand[posts]',
      'p_filter[title]',
      'p_search[title]',
      'per-page',
      'page',
      'limit',
      'cursor',
      'cursor',
    );
    const keyArb = fc.oneof({ arbitrary: validKey, weight: 3 }, { arbitrary: shapedKey, weight: 2 }, { arbitrary: fixedKey, weight: 2 });
    const piece = fc.constantFrom(
      '1',
      '-1',
      '0',
      '1.5',
      '-0',
      '1e3',
      '1e309',
      '99999999999999999999',
      '-9223372036854775809',
      'NaN',
      'Infinity',
      '0x10',
      '%201',
      'null',
      '%22null%22',
      '%22%22',
      '%22',
      '%5C',
      '%25',
      '_',
      '*',
      '%3B',
      '--',
      '%2F*',
      '*%2F',
      '%27',
      ',',
      ',,',
      '%3E',
      '%3E%3D',
      '%3C%3E',
      '%3C',
      '%3D',
      '=',
      'true',
      '2025-04-17',
      '2025-02-30',
      '2025-04-17T24:00',
      'id',
      'name',
      'p',
      // Instants an offset carries out of the years the ISO form can write (class 3).
      '0001-01-01T00:00%2B00:01',
      '0001-01-01T00:00:00.5%2B23:59',
      '9999-12-31T23:59-23:59',
      'desc',
      'sideways',
      '%00',
      '%C3%28',
      '%FF',
      '%E0%A4',
      '%',
      '%G1',
      '%2',
      '%ED%A0%80',
      '%C0%AF',
      '%F0%9F%98%80',
      '%C3%A9',
      enc(MARK),
      enc(`${MARK}'; drop table users; --`),
      enc(`"${MARK}","x"`),
      enc(`${MARK}\\`),
      '+',
      '%20',
      '&',
      '[',
      ']',
      // Cursors a client forged (docs/query-language.md, "Cursors: cursor"): hostile values, for the
      // default order and for sort[name], readable (they never open) and sealed with the test apps'
      // key (what a leaked key could make).
      cursor(['id:asc'], 'next', ['99999999999999999999']),
      cursor(['id:asc'], 'prev', [`${MARK}'; drop table users; --`]),
      cursor(['name:asc', 'id:asc'], 'next', [MARK, '1']),
      cursor(['name:asc', 'id:asc'], 'prev', [null, '1e309']),
      cursor(['id:asc'], 'next', null),
      sealed(['id:asc'], 'next', ['99999999999999999999']),
      sealed(['id:asc'], 'prev', [`${MARK}'; drop table users; --`]),
      sealed(['name:asc', 'id:asc'], 'next', [MARK, '1']),
      sealed(['name:asc', 'id:asc'], 'prev', [null, '1e309']),
      sealed(['id:asc'], 'next', null),
    );
    const valueArb = fc.oneof(
      { arbitrary: fc.array(piece, { minLength: 0, maxLength: 5 }).map((p) => p.join('')), weight: 6 },
      { arbitrary: fc.constant(null), weight: 1 },
    );
    const pairArb = fc
      .tuple(
        keyArb,
        valueArb,
        fc.oneof({ arbitrary: fc.constant(1), weight: 8 }, { arbitrary: fc.integer({ min: 2, max: 60 }), weight: 1 }),
      )
      .map(([key, value, times]) => Array.from({ length: times }, () => (value === null ? key : `${key}=${value}`)).join('&'));
    const requestArb = fc.record({
      query: fc.array(pairArb, { minLength: 1, maxLength: 3 }).map((pairs) => pairs.join('&')),
      lenient: fc.boolean(),
      collection: fc.constantFrom('users', 'users', 'posts', 'roles'),
    });

    it('never answers 5xx, always a valid problem or a 200, never input text in SQL', async function () {
      this.timeout(300000);
      const seed = Number(process.env.FC_SEED ?? 424242);
      const numRuns = Number(process.env.HOSTILE_RUNS ?? 600);
      let executed = 0;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArb, async ({ query, lenient: loose, collection }) => {
          executed += 1;
          const res = await h.send(query, loose ? 'lenient' : 'strict', collection);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }),
        { seed, numRuns },
      );
      console.log(`    hostile: ${executed} generated requests (seed ${seed}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    });
  });

  // Class 3: instants at the edges of the years the ISO form can write, moved by generated offsets,
  // under every operator, list, range and alias form of a timestamp field.
  describe('generated timestamps at the edges of the calendar', function () {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const instantArb = fc
      .record({
        day: fc.constantFrom('0001-01-01', '0001-01-02', '9999-12-31', '9999-12-30', '2025-04-17'),
        time: fc
          .tuple(two(23), two(59), fc.option(two(59), { nil: undefined }))
          .map(([h, m, sec]) => `T${h}:${m}${sec === undefined ? '' : `:${sec}`}`),
        zone: fc.oneof(
          fc.constant(''),
          fc.constant('Z'),
          fc.tuple(fc.constantFrom('%2B', '-'), two(23), two(59)).map(([sign, h, m]) => `${sign}${h}:${m}`),
        ),
      })
      .map(({ day, time, zone }) => `${day}${time}${zone}`);
    const formArb = fc.constantFrom(
      (v: string) => `filter[created_at]=${v}`,
      (v: string) => `filter[created_at]=%3E%3D${v}`,
      (v: string) => `filter[or!+created_at]=%3C${v}`,
      (v: string) => `in[created_at]=2025-04-17,${v}`,
      (v: string) => `between[created_at]=${v},${v}`,
      (v: string) => `expand[posts]=p&p_filter[created_at]=%3C%3E${v}`,
    );

    it('never answers 5xx: an instant out of range is INVALID_VALUE before any SQL', async function () {
      this.timeout(300000);
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(instantArb, formArb, async (instant, form) => {
          const res = await h.send(form(instant));
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }),
        { seed: Number(process.env.FC_SEED ?? 4243), numRuns: Number(process.env.HOSTILE_RUNS ?? 300) },
      );
      console.log(`    timestamps: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    });
  });

  // ---- sizes and repetition ----------------------------------------------------------------

  describe('huge lists, huge values, repeated keys', function () {
    const ids = Array.from({ length: 10_000 }, (_, i) => String(i + 1)).join(',');
    const marked = Array.from({ length: 10_000 }, (_, i) => `${MARK}${i}`).join(',');
    const big = `${MARK}${'x'.repeat(50 * 1024)}`;

    it('a 10,000-item list is LIMIT_EXCEEDED under the default caps', async function () {
      const res = await h.send(`in[id]=${ids}`);
      expect(res.status).to.equal(400);
      expect(codeOf(res)).to.equal('LIMIT_EXCEEDED');
    });

    it('a 10,000-item list within raised caps runs with 10,000 bindings and no input in SQL', async function () {
      const first = h.statements.length;
      const res = await h.send(`in[id]=${ids}&fields=id`, 'lenient');
      expect(res.status).to.equal(200);
      expect((res.body as unknown[]).length).to.equal(23);
      const bound = h.statements.slice(first).map((s) => s.bindings.length);
      expect(Math.max(...bound)).to.be.at.least(10_000);
      const before = h.statements.length;
      const text = await h.send(`in[name]=${marked}`, 'lenient');
      expect(text.body).to.deep.equal([]);
      // The marker did reach the database, as bindings: the SQL check above is not vacuous.
      // Not counted twice: the lane's EXPLAIN of the rows statement binds them too (docs/configuration.md, heavy requests).
      const reading = h.statements.slice(before).filter((s) => !s.sql.startsWith('explain'));
      const bindings = reading.flatMap((s) => s.bindings.map(String));
      expect(bindings.filter((b) => b.startsWith(MARK))).to.have.length(10_000);
    });

    it('a 50 KB value is LIMIT_EXCEEDED under the default caps, and a plain binding within raised caps', async function () {
      const res = await h.send(`filter[name]=${big}`);
      expect(res.status).to.equal(400);
      expect(codeOf(res)).to.equal('LIMIT_EXCEEDED');
      for (const key of ['filter[name]', 'search[name,email]', 'in[status]', 'between[name]']) {
        const value = key.startsWith('between') ? `${big},${big}` : big;
        const loose = await h.send(`${key}=${value}`, 'lenient');
        expect(loose.status, key).to.equal(200);
        expect(loose.body, key).to.deep.equal([]);
      }
    });

    it('a 50 KB field name, alias or relation name is refused without echoing SQL', async function () {
      for (const query of [
        `filter[${big}]=1`,
        `sort[${big}]`,
        `fields=${big}`,
        `expand[posts]=${big}`,
        `expand[${big}]`,
        `${big}_fields=id`,
      ]) {
        const res = await h.send(query, 'lenient');
        expect(res.status, query.slice(0, 40)).to.be.oneOf([200, 400]);
      }
    });

    it('deeply repeated keys: clause caps, duplicates and ignored keys', async function () {
      const repeat = (pair: string, n: number): string => Array.from({ length: n }, () => pair).join('&');
      expect(codeOf(await h.send(repeat('filter[or+id]=1', 5_000)))).to.equal('LIMIT_EXCEEDED');
      expect(codeOf(await h.send(repeat('filter[or+id]=1', 5_000), 'lenient'))).to.equal(undefined);
      expect(codeOf(await h.send(repeat('sort[id]', 1_000), 'lenient'))).to.equal('DUPLICATE_PARAMETER');
      expect(codeOf(await h.send(repeat('fields=id', 1_000), 'lenient'))).to.equal('DUPLICATE_PARAMETER');
      expect(codeOf(await h.send(repeat('expand[posts]', 200), 'lenient'))).to.equal('DUPLICATE_PARAMETER');
      expect(codeOf(await h.send(repeat('page=1', 1_000), 'lenient'))).to.equal('DUPLICATE_PARAMETER');
      expect((await h.send(repeat(`utm_${MARK}=1`, 20_000), 'lenient')).status).to.equal(200);
      expect((await h.send(repeat('filter[id][x]', 1_000), 'lenient')).status).to.equal(400);
      expect((await h.send(`filter${'['.repeat(5_000)}id${']'.repeat(5_000)}=1`, 'lenient')).status).to.equal(400);
    });
  });

  // ---- listed edge cases ---------------------------------------------------------------------

  describe('numbers, pages and encodings', function () {
    const cases: readonly (readonly [string, string | readonly string[]])[] = [
      ['page=-1', 'MALFORMED_PARAMETER'],
      ['page=0', 'MALFORMED_PARAMETER'],
      ['page=1.5', 'MALFORMED_PARAMETER'],
      ['page=-0', 'MALFORMED_PARAMETER'],
      ['page=1e3', 'MALFORMED_PARAMETER'],
      ['page=NaN', 'MALFORMED_PARAMETER'],
      ['page=Infinity', 'MALFORMED_PARAMETER'],
      ['page=0x10', 'MALFORMED_PARAMETER'],
      ['page=%201', 'MALFORMED_PARAMETER'],
      ['per-page=-5', 'MALFORMED_PARAMETER'],
      ['per-page=2.5', 'MALFORMED_PARAMETER'],
      ['per-page=0', 'MALFORMED_PARAMETER'],
      ['per-page=99999999999999999999999', ['PAGE_SIZE_TOO_LARGE', 'MALFORMED_PARAMETER']],
      ['page=99999999999999999999999', ['MALFORMED_PARAMETER', 'OK']],
      ['page=1e309', 'MALFORMED_PARAMETER'],
      ['limit=-1', 'MALFORMED_PARAMETER'],
      ['offset=-1', 'MALFORMED_PARAMETER'],
      ['limit=1.5', 'MALFORMED_PARAMETER'],
      ['limit=1e1000', 'MALFORMED_PARAMETER'],
      ['offset=99999999999999999999', ['MALFORMED_PARAMETER', 'OK']],
      ['filter[id]=99999999999999999999', 'INVALID_VALUE'],
      ['filter[id]=2147483648', 'INVALID_VALUE'],
      ['filter[visits]=9223372036854775808', 'INVALID_VALUE'],
      ['filter[visits]=-9223372036854775809', 'INVALID_VALUE'],
      ['filter[score]=1e308', 'INVALID_VALUE'],
      ['filter[score]=99999999999999999999999999999999.5', 'OK'],
      ['between[id]=-99999999999,99999999999', 'INVALID_VALUE'],
      ['filter[birthday]=2025-02-30', 'INVALID_VALUE'],
      ['filter[created_at]=2025-04-17T24:00', 'INVALID_VALUE'],
      ['filter[created_at]=99999-01-01', 'INVALID_VALUE'],
      ['filter[name]=%00', 'INVALID_VALUE'],
      ['filter[na%00me]=x', 'FIELD_NOT_ALLOWED'],
      ['search[name]=%00', 'INVALID_VALUE'],
      ['in[name]=a,%00', 'INVALID_VALUE'],
      ['fields=id%00', 'FIELD_NOT_ALLOWED'],
      ['expand[posts]=p%00', 'MALFORMED_PARAMETER'],
      ['sort[name]=asc%00', 'MALFORMED_PARAMETER'],
      ['filter[name]=%C3%28', 'MALFORMED_PARAMETER'],
      ['filter[name]=%FF', 'MALFORMED_PARAMETER'],
      ['filter[name]=%ED%A0%80', 'MALFORMED_PARAMETER'],
      ['filter[name]=%C0%AF', 'MALFORMED_PARAMETER'],
      ['filter[%FF]=1', 'MALFORMED_PARAMETER'],
      ['filter[name]=%', 'MALFORMED_PARAMETER'],
      ['filter[name]=%2', 'MALFORMED_PARAMETER'],
      ['filter[name]=%G0', 'MALFORMED_PARAMETER'],
      ['filter[name]=%%', 'MALFORMED_PARAMETER'],
      ['filter%5Bname=x', 'MALFORMED_PARAMETER'],
      ['search[name]=%F0%9F%98%80', 'OK'],
      ['filter[name]=%22unterminated', ['OK', 'MALFORMED_PARAMETER', 'INVALID_VALUE']],
      ['in[name]=%22a,b', ['MALFORMED_PARAMETER', 'OK']],
      ['in[name]=%22a%22b%22', ['MALFORMED_PARAMETER', 'OK']],
      ['filter[name]=%22a%5C%22', ['MALFORMED_PARAMETER', 'OK', 'INVALID_VALUE']],
    ];
    for (const [query, wanted] of cases) {
      const codes = typeof wanted === 'string' ? [wanted] : wanted;
      it(`${query} -> ${codes.join(' or ')}`, async function () {
        const res = await h.send(query);
        expect(res.status === 200 ? 'OK' : codeOf(res), res.text.slice(0, 300)).to.be.oneOf([...codes]);
      });
    }

    it('hostile collection names are UNKNOWN_COLLECTION', async function () {
      for (const name of [
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        enc(MARK),
        enc(`users'; --`),
        'users%00',
        '%FF',
        'USERS',
        'users.',
      ]) {
        const res = await h.send('filter[id]=1', 'strict', name);
        expect(codeOf(res), name).to.be.oneOf(['UNKNOWN_COLLECTION', 'MALFORMED_PARAMETER']);
        expect(res.status, name).to.be.oneOf([400, 404]);
      }
    });

    it('raw bytes that are not UTF-8 in the request line get a 4xx or a 200, never a 5xx', async function () {
      for (const path of ['/api/users?filter[name]=\xff\xfe', '/api/users?filter[\xff]=1', '/api/users?search[name]=\xc3\x28']) {
        const res = await rawGet(h.origin('strict'), path);
        expect(res.status, path).to.be.below(500);
        if (res.status >= 400 && res.headers['content-type']?.includes('problem')) expectValidProblem(res, path);
      }
    });
  });
});
