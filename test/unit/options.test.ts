// The start-up check of the options and the defaults it fills in (plugin/options.ts).

import { expect } from 'chai';
import knexFactory from 'knex';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_PLAN_CACHE_BYTES, resolveOptions, type QueryModifiersOptions } from '../../plugin/options';
import { people } from './catalog-stub';

const knex = knexFactory({ client: 'pg' });
const collections = { people: people.modelClass };
const resolve = (options: Partial<QueryModifiersOptions>) => resolveOptions({ knex, collections, ...options });

describe('options: response byte budgets', function () {
  it('bound one response to 8 MiB and the responses in flight to eight of them by default', function () {
    expect(DEFAULT_MAX_RESPONSE_BYTES).to.equal(8 * 1024 * 1024);
    const resolved = resolve({});
    expect(resolved.maxResponseBytes).to.equal(DEFAULT_MAX_RESPONSE_BYTES);
    expect(resolved.maxInFlightBytes).to.equal(8 * DEFAULT_MAX_RESPONSE_BYTES);
  });

  it('follow a smaller response budget in flight unless maxInFlightBytes is given', function () {
    expect(resolve({ limits: { maxResponseBytes: 1024 * 1024 } }).maxInFlightBytes).to.equal(8 * 1024 * 1024);
    expect(resolve({ limits: { maxResponseBytes: 1024 * 1024, maxInFlightBytes: 5000 } }).maxInFlightBytes).to.equal(5000);
  });
});

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

describe('options: vary, serverTiming, plannerEstimatesUnderScope', function () {
  it('default to no Vary headers, no Server-Timing and no planner estimates under a scope', function () {
    const resolved = resolve({});
    expect([resolved.vary, resolved.serverTiming, resolved.plannerEstimatesUnderScope]).to.deep.equal([[], false, false]);
    expect(resolve({ vary: ['X-Tenant'], serverTiming: true }).vary).to.deep.equal(['X-Tenant']);
    expect(resolve({ pagination: { plannerEstimatesUnderScope: { people: true } } }).plannerEstimatesUnderScope).to.deep.equal({
      people: true,
    });
  });

  for (const [name, options] of [
    ['vary', { vary: 'Authorization' }],
    ['vary', { vary: ['X Tenant'] }],
    ['vary', { vary: ['*'] }],
    ['serverTiming', { serverTiming: 'yes' }],
    ['plannerEstimatesUnderScope', { pagination: { plannerEstimatesUnderScope: 'people' } }],
  ] as const) {
    it(`refuses ${JSON.stringify(options)} at start-up, naming ${name}`, function () {
      expect(() => resolve(options as unknown as Partial<QueryModifiersOptions>)).to.throw(new RegExp(`invalid options[\\s\\S]*${name}`));
    });
  }
});

describe('options: cursorSecret', function () {
  const SECRET = 'a secret of at least thirty-two characters';

  it('takes a string of 32 characters or more, or a list of them; without one the key is random', function () {
    expect(resolve({ cursorSecret: 'x'.repeat(32) }).cursorSeal.ephemeral).to.equal(false);
    expect(resolve({ cursorSecret: [SECRET, 'y'.repeat(40)] }).cursorSeal.ephemeral).to.equal(false);
    expect(resolve({}).cursorSeal.ephemeral).to.equal(true);
  });

  it('keeps derived keys, never the secret itself', function () {
    const resolved = resolve({ cursorSecret: SECRET });
    expect(JSON.stringify(resolved, (_, value: unknown) => (typeof value === 'function' ? String(value) : value))).to.not.include(SECRET);
    expect(Object.values(resolved)).to.not.include(SECRET);
  });

  for (const [cursorSecret, path] of [
    ['x'.repeat(31), 'cursorSecret must be at least 32 characters long'],
    ['', 'cursorSecret must be at least 32 characters long'],
    [[SECRET, 'short secret'], 'cursorSecret[1] must be at least 32 characters long'],
    [[], 'cursorSecret must be a string of at least 32 characters, or a non-empty list of them'],
    [42, 'cursorSecret must be a string of at least 32 characters, or a non-empty list of them'],
    [[SECRET, 7], 'cursorSecret must be a string of at least 32 characters, or a non-empty list of them'],
  ] as const) {
    it(`refuses ${JSON.stringify(cursorSecret)} at start-up with one line naming the option, not the secret`, function () {
      let message = '';
      try {
        resolve({ cursorSecret } as unknown as Partial<QueryModifiersOptions>);
      } catch (error) {
        message = (error as Error).message;
      }
      const lines = message.split('\n').slice(1);
      expect(lines, message).to.have.length(1);
      expect(lines[0]).to.satisfy((line: string) => line.startsWith(`- ${path}`));
      if (Array.isArray(cursorSecret)) expect(message).to.not.include(SECRET);
      if (typeof cursorSecret === 'string' && cursorSecret !== '') expect(message).to.not.include(cursorSecret);
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
        '- limits.maxClause is not an option; known: maxQueryLength, maxClauses, maxListItems, maxExpansions, maxExpandDepth, maxRelatedRows, maxResponseBytes, maxInFlightBytes, maxExportRows, exportBatchRows, heavyCost, heavyConcurrency, heavyQueueMs, maxCost',
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
    [
      { limits: { maxResponseBytes: 100, maxInFlightBytes: 0 } },
      [
        '- limits.maxResponseBytes must be an integer of at least 1024; got 100',
        '- limits.maxInFlightBytes must be an integer of at least 1; got 0',
      ],
    ],
    [{ limits: { maxResponseBytes: '8MB' } }, ['- limits.maxResponseBytes must be an integer of at least 1024; got "8MB"']],
  ] as const) {
    it(
      JSON.stringify(options, (_, v: unknown) => (typeof v === 'function' ? 'f' : v)),
      function () {
        expect(problems(options)).to.have.members(expected as readonly string[]);
      },
    );
  }
});
