// The start-up check of the options and the defaults it fills in (plugin/options.ts).

import { expect } from 'chai';
import knexFactory from 'knex';
import { DEFAULT_PLAN_CACHE_BYTES, resolveOptions, type QueryModifiersOptions } from '../../plugin/options';
import { people } from './catalog-stub';

const knex = knexFactory({ client: 'pg' });
const collections = { people: people.modelClass };
const resolve = (options: Partial<QueryModifiersOptions>) => resolveOptions({ knex, collections, ...options });

describe('options: planCache', function () {
  it('is bounded by bytes by default: 8 MiB of prepared queries, however many', function () {
    expect(DEFAULT_PLAN_CACHE_BYTES).to.equal(8 * 1024 * 1024);
    expect(resolve({}).planCache).to.deep.equal({ maxEntries: Number.POSITIVE_INFINITY, maxBytes: DEFAULT_PLAN_CACHE_BYTES });
  });

  it('reads a number as entries, as before, and 0 as off', function () {
    expect(resolve({ planCache: 500 }).planCache).to.deep.equal({ maxEntries: 500, maxBytes: Number.POSITIVE_INFINITY });
    expect(resolve({ planCache: 0 }).planCache).to.equal(undefined);
  });

  it('takes maxBytes, with maxEntries too if given; maxBytes 0 is off', function () {
    expect(resolve({ planCache: { maxBytes: 65536 } }).planCache).to.deep.equal({ maxEntries: Number.POSITIVE_INFINITY, maxBytes: 65536 });
    expect(resolve({ planCache: { maxBytes: 65536, maxEntries: 10 } }).planCache).to.deep.equal({ maxEntries: 10, maxBytes: 65536 });
    expect(resolve({ planCache: { maxBytes: 0 } }).planCache).to.equal(undefined);
  });

  for (const planCache of [
    -1,
    1.5,
    '8MiB',
    { maxEntries: 10 },
    { maxBytes: -1 },
    { maxBytes: 1.5 },
    { maxBytes: 1024, ttl: 5 },
    { maxBytes: 1024, maxEntries: 0 },
  ]) {
    it(`refuses ${JSON.stringify(planCache)} at start-up, naming planCache`, function () {
      expect(() => resolve({ planCache } as unknown as Partial<QueryModifiersOptions>)).to.throw(/invalid options[\s\S]*planCache/);
    });
  }
});

describe('options: every problem names the option path, the expected form and what was given', function () {
  const problems = (options: Record<string, unknown>): string[] => {
    try {
      resolve(options);
    } catch (error) {
      return (error as Error).message.split('\n').slice(1);
    }
    return [];
  };

  for (const [options, expected] of [
    [{ limits: { maxClauses: 0 } }, ['- limits.maxClauses must be an integer of at least 1; got 0']],
    [
      { limits: { maxClause: 5 } },
      [
        '- limits.maxClause is not an option; known: maxQueryLength, maxClauses, maxListItems, maxExpansions, maxExpandDepth, maxRelatedRows',
      ],
    ],
    [{ maxRows: 'ten' }, ['- maxRows must be an integer of at least 1; got "ten"']],
    [{ prefix: 'api' }, ['- prefix must be a string matching ^(/[A-Za-z0-9._~-]+)*$; got "api"']],
    [{ pagination: { total: { people: 'fast' } } }, ['- pagination.total.people must be one of "exact", "estimated", "none"; got "fast"']],
    [{ cors: 'yes' }, ['- cors must be false, or an object; got "yes"']],
    [{ admin: true }, ['- admin must be false, or an object with path, explain only; got true']],
    [{ planCache: { maxEntries: 10 } }, ['- planCache.maxBytes is required']],
    [{ totalsCache: { ttlSeconds: 0 } }, ['- totalsCache.ttlSeconds must be a number above 0 and at most 86400; got 0']],
    [{ replicas: { servers: [knex], checkIntervalMs: 10 } }, ['- replicas.checkIntervalMs must be an integer of at least 50; got 10']],
    [
      { collections: { '1bad': people.modelClass } },
      ['- collections has the key "1bad", which must be a name matching ^[A-Za-z][A-Za-z0-9_-]*$'],
    ],
    [
      { limits: { maxExpandDepth: 0, maxRelatedRows: 'many' }, maxRows: 0 },
      [
        '- maxRows must be an integer of at least 1; got 0',
        '- limits.maxExpandDepth must be an integer of at least 1; got 0',
        '- limits.maxRelatedRows must be an integer of at least 1; got "many"',
      ],
    ],
  ] as const) {
    it(
      JSON.stringify(options, (_, v: unknown) => (typeof v === 'function' ? 'f' : v)),
      function () {
        expect(problems(options)).to.have.members(expected as readonly string[]);
      },
    );
  }
});
