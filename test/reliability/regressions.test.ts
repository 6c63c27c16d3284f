// Regular tests for what the generated suites found, plus pinned edge cases of the differential
// domain. A counterexample fast-check prints for differential.test.ts is a QuerySpec: paste it into
// CASES (with a name) and it is replayed here through the same API-vs-reference comparison.

import { expect } from 'chai';
import { startApp, TestApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/db';
import { DIFFERENTIAL_MAX_ROWS, expectAnswer } from './compare';
import { closeIdleSockets, rawGet } from './http';
import { Dataset, loadDataset } from './model';
import { expectValidProblem } from '../support/problems';
import { ClauseSpec, EMPTY_SCOPE, Literal, QuerySpec, ScopeQuery, serializeQuery } from './query';
import { evaluate } from './reference';

const text = (t: string, quoted = false): Literal => ({ isNull: false, text: t, quoted });
const NULL: Literal = { isNull: true, text: 'null', quoted: false };

function clause(
  family: ClauseSpec['family'],
  prefix: string | null,
  field: string,
  values: Literal[],
  operator: ClauseSpec['operator'] = '=',
): ClauseSpec {
  return { family, prefix, field, operator, writeOperator: false, values };
}

function spec(collection: string, root: Partial<ScopeQuery>, rest: Partial<QuerySpec> = {}): QuerySpec {
  return {
    collection,
    root: { ...EMPTY_SCOPE, ...root },
    expands: [],
    has: [],
    counts: [],
    paging: { kind: 'none' },
    noise: [],
    merge: [0],
    encoding: { raw: true, plus: true },
    ...rest,
  };
}

/** Edge cases of the query language pinned as specs (none of them has failed so far). */
const CASES: readonly { readonly name: string; readonly spec: QuerySpec }[] = [
  {
    name: 'a negated first clause keeps its `!` and includes NULLs (16, 17)',
    spec: spec('users', {
      clauses: [clause('filter', 'or!', 'score', [text('50')], '>='), clause('filter', 'and', 'active', [text('true')])],
    }),
  },
  {
    name: 'date-only <= on a timestamp ends at the last microsecond of the day (12)',
    spec: spec('users', {
      clauses: [clause('filter', null, 'created_at', [text('2025-04-16')], '<=')],
      sorts: [{ field: 'created_at', word: 'desc', bare: false }],
    }),
  },
  {
    name: 'NOT binds before AND before OR, in query order, NULL in an in-list (15)',
    spec: spec('users', {
      clauses: [
        clause('in', null, 'role', [text('admin'), NULL]),
        clause('in', 'or', 'status', [text('banned')]),
        clause('in', 'and!', 'active', [text('false')]),
      ],
    }),
  },
  {
    name: 'NULLs first in a descending sort, primary key as tie-break, cut at maxRows with the header (20, 28)',
    spec: spec(
      'users',
      { sorts: [{ field: 'score', word: 'DESC', bare: false }], projection: { kind: 'fields', list: ['score', 'id'] } },
      { paging: { kind: 'slice', limit: null, offset: 1 } },
    ),
  },
  {
    name: 'prototype-named aliases shape expansions; keys needed for joining are not leaked (22-24)',
    spec: spec(
      'users',
      { projection: { kind: 'fields', list: ['name'] }, clauses: [clause('between', null, 'id', [text('1'), text('3')])] },
      {
        expands: [
          {
            relation: 'roles',
            alias: 'constructor',
            bare: false,
            scope: { ...EMPTY_SCOPE, sorts: [{ field: 'level', word: '-', bare: false }], projection: { kind: 'fields!', list: ['id'] } },
            window: null,
            expands: [],
          },
          {
            relation: 'posts',
            alias: 'toString',
            bare: false,
            scope: {
              ...EMPTY_SCOPE,
              searches: [{ fields: ['title'], term: 'o', mode: 'contains' }],
              projection: { kind: 'fields', list: ['title'] },
            },
            window: null,
            expands: [],
          },
          { relation: 'phone', alias: null, bare: true, scope: EMPTY_SCOPE, window: null, expands: [] },
        ],
      },
    ),
  },
  {
    name: 'nested expansions with windows: NULL dates first descending, ties by primary key, an offset past the end (40-41)',
    spec: spec(
      'posts',
      { clauses: [clause('in', null, 'id', [text('1'), text('3'), text('7')])] },
      {
        expands: [
          {
            relation: 'comments',
            alias: 'valueOf',
            bare: false,
            window: { limit: 2, offset: 1 },
            scope: { ...EMPTY_SCOPE, sorts: [{ field: 'created_at', word: 'desc', bare: false }] },
            expands: [
              {
                relation: 'author',
                alias: 'a',
                bare: false,
                window: null,
                scope: EMPTY_SCOPE,
                expands: [
                  { relation: 'posts', alias: 'q', bare: false, window: { limit: null, offset: 5 }, scope: EMPTY_SCOPE, expands: [] },
                ],
              },
            ],
          },
          {
            relation: 'author',
            alias: 'b',
            bare: false,
            window: null,
            scope: EMPTY_SCOPE,
            expands: [{ relation: 'roles', alias: 'r', bare: false, window: { limit: 1, offset: null }, scope: EMPTY_SCOPE, expands: [] }],
          },
        ],
      },
    ),
  },
  {
    name: 'a page past the end keeps total and last_page, with data [] and from/to null (27)',
    spec: spec(
      'posts',
      { clauses: [clause('filter', null, 'status', [text('published')])] },
      { paging: { kind: 'page', page: 9, size: 2, sizeKeys: ['page-size'] }, noise: [['utm_source', 'x']] },
    ),
  },
];

describe('regressions', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  let data: Dataset | undefined;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ timezone: 'UTC' });
    data = await loadDataset(db.knex);
    app = await startApp(db.knex, { maxRows: DIFFERENTIAL_MAX_ROWS });
  });

  after(async function () {
    this.timeout(60000);
    closeIdleSockets();
    await app?.close();
    await db?.destroy();
  });

  describe('differential cases replayed against the reference', function () {
    for (const { name, spec: s } of CASES) {
      it(name, async function () {
        if (!app || !data) throw new Error('setup failed');
        const raw = serializeQuery(s);
        const path = `/api/${s.collection}?${raw}`;
        const expected = evaluate(s, raw, data, {
          origin: app.origin,
          prefix: '/api',
          maxRows: DIFFERENTIAL_MAX_ROWS,
          defaultPageSize: 15,
        });
        expectAnswer(await rawGet(app.origin, path), expected, path);
      });
    }
  });

  describe('found by the hostile-input suite: a NUL character in a search term', function () {
    const cases: readonly [string, string][] = [
      ['search[name]=%00', 'search[name]'],
      ['search[name]=a%00b', 'search[name]'],
      ['search[id]=%00', 'search[id]'],
      ['search[name,email]=x%00', 'search[name,email]'],
      ['expand[posts]=p&p_search[title]=%00', 'p_search[title]'],
    ];
    for (const [query, parameter] of cases) {
      it(`a NUL character in a search term is INVALID_VALUE: ${query}`, async function () {
        if (!app) throw new Error('setup failed');
        const res = await rawGet(app.origin, `/api/users?${query}`);
        expect(res.status, res.text.slice(0, 200)).to.equal(400);
        const body = expectValidProblem(res, query);
        expect(body.code).to.equal('INVALID_VALUE');
        expect(body.parameter).to.equal(parameter);
      });
    }
  });
});
