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
