// The shared cache's parts that need no server (plugin/shared-cache/): the cache option's start-up
// check, what is kept in Redis and read back, and the SQL printed for a migration.

import { expect } from 'chai';
import knexFactory from 'knex';
import { resolveOptions, type QueryModifiersOptions } from '../../plugin/options';
import { changeTriggersScript } from '../../plugin/shared-cache';
import { decodeAnswer, encodeAnswer } from '../../plugin/shared-cache/store';
import { people } from './catalog-stub';

const knex = knexFactory({ client: 'pg' });
const collections = { people: people.modelClass };
const resolve = (options: Partial<QueryModifiersOptions>) => resolveOptions({ knex, collections, ...options });
const redis = { get: () => Promise.resolve(null), set: () => Promise.resolve('OK') };

describe('shared cache: the cache option', function () {
  it('fills in the defaults', function () {
    expect(resolve({ cache: { redis, ttlSeconds: 60 } }).cache).to.deep.include({
      ttlSeconds: 60,
      tables: [],
      keyPrefix: 'kqm:',
      timeoutMs: 100,
      maxEntryBytes: 1024 * 1024,
    });
    expect(resolve({}).cache).to.equal(undefined);
    expect(resolve({ cache: false }).cache).to.equal(undefined);
  });

  it('refuses a client without get and set, a cacheKey that is no function, and a missing ttlSeconds', function () {
    const refused = (cache: unknown) => () => resolve({ cache } as Partial<QueryModifiersOptions>);
    expect(refused({ redis: {}, ttlSeconds: 60 })).to.throw('cache.redis must be an ioredis client');
    expect(refused({ redis, ttlSeconds: 60, cacheKey: 'tenant' })).to.throw('cache.cacheKey must be a function');
    expect(refused({ redis })).to.throw(/ttlSeconds/);
    expect(refused({ redis, ttlSeconds: 60, colour: 'red' })).to.throw(/colour/);
  });
});

describe('shared cache: what is kept', function () {
  it('reads back the versions, ETag, truncation and body exactly, newlines in the body included', function () {
    const answer = { stamp: '3.0.17', etag: 'abc_-1', truncated: true, body: '[{"a":"x\\ny"}]\n' };
    expect(decodeAnswer(encodeAnswer(answer))).to.deep.equal(answer);
    expect(decodeAnswer('not an answer')).to.equal(undefined);
  });
});

describe('shared cache: the SQL for a migration', function () {
  it('creates the versions table and both triggers on each table, in one transaction, enabled always', function () {
    const sql = changeTriggersScript(['"users"', '"cms"."articles"']);
    expect(sql.startsWith('begin;')).to.equal(true);
    expect(sql.trimEnd().endsWith('commit;')).to.equal(true);
    expect(sql).to.include('create table if not exists koa_query_modifiers.changes');
    for (const table of ['"users"', '"cms"."articles"']) {
      expect(sql).to.include(`create trigger koa_query_modifiers_changes after insert or update or delete on ${table} for each statement`);
      expect(sql).to.include(`create trigger koa_query_modifiers_truncates after truncate on ${table} for each statement`);
      expect(sql).to.include(`alter table ${table} enable always trigger koa_query_modifiers_changes;`);
    }
  });
});
