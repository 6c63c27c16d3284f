// When an existing index serves an advised one (docs/installing.md#10-indexes-for-your-declarations),
// decided from its keys as pg_catalog describes them; and the names of advised indexes, which
// PostgreSQL cuts at 63 bytes.

import { expect } from 'chai';
import { serves } from '../../plugin/advice/match';
import { indexStatement } from '../../plugin/advice/statements';
import type { ExistingIndex, Need, NeedKey } from '../../plugin/advice/types';
import type { IndexKey } from '../../plugin/schema';

const key = (column: string, desc = false, nullsFirst = desc): IndexKey => ({
  column,
  lowered: null,
  definition: column,
  desc,
  nullsFirst,
  opclass: 'int4_ops',
});
const index = (keys: IndexKey[], options: Partial<ExistingIndex> = {}): ExistingIndex => ({
  table: 'users',
  name: 'existing',
  method: 'btree',
  unique: false,
  keys,
  ...options,
});
const needKey = (column: string, desc = false, notNull = true): NeedKey => ({ column, desc, notNull });
const need = (kind: Need['kind'], keys: NeedKey[]): Need => ({
  kind,
  table: 'users',
  keys,
  collection: 'users',
  serves: 'sort[name]=desc',
});

const nameDesc = need('ordered', [needKey('name', true), needKey('id')]);
const nameAsc = need('ordered', [needKey('name'), needKey('id')]);

describe('index advice: which existing index serves a need', function () {
  it('an ordered need: the same leading keys and directions, read forwards or backwards', function () {
    expect(serves(index([key('name', true), key('id')]), nameDesc)).to.equal(true);
    expect(serves(index([key('name'), key('id', true)]), nameDesc), 'all reversed').to.equal(true);
    expect(serves(index([key('name', true), key('id'), key('email')]), nameDesc), 'longer').to.equal(true);
    expect(serves(index([key('name'), key('id')]), nameDesc), 'id descending read backwards').to.equal(false);
    expect(serves(index([key('name', true, false), key('id')]), nameDesc), 'NULLS LAST').to.equal(false);
    expect(serves(index([key('name')]), nameAsc), 'a prefix').to.equal(false);
    expect(serves(index([key('id'), key('name')]), nameAsc), 'another order').to.equal(false);
    expect(serves(index([key('name'), key('id')], { method: 'hash' }), nameAsc), 'not a btree').to.equal(false);
  });

  it('an ordered need: a unique index on its first columns when they are never NULL', function () {
    expect(serves(index([key('name')], { unique: true }), nameAsc)).to.equal(true);
    expect(serves(index([key('name', true)], { unique: true }), nameAsc), 'backwards').to.equal(true);
    const nullable = need('ordered', [needKey('name', false, false), needKey('id')]);
    expect(serves(index([key('name')], { unique: true }), nullable)).to.equal(false);
  });

  it("a lookup: the key's columns first, in any order and direction", function () {
    const lookup = need('lookup', [needKey('user_id'), needKey('role_id')]);
    expect(serves(index([key('role_id', true), key('user_id'), key('id')]), lookup)).to.equal(true);
    expect(serves(index([key('user_id'), key('id'), key('role_id')]), lookup)).to.equal(false);
    expect(serves(index([key('user_id')]), lookup)).to.equal(false);
  });

  it('a search: a trigram index on lower(column) or on the column', function () {
    const search = need('trigram', [needKey('name')]);
    const trigram = (column: string | null, lowered: string | null, opclass = 'gin_trgm_ops') =>
      index([{ column, lowered, definition: column ?? `lower(${lowered ?? ''})`, desc: false, nullsFirst: false, opclass }], {
        method: 'gin',
      });
    expect(serves(trigram(null, 'name'), search)).to.equal(true);
    expect(serves(trigram('name', null), search)).to.equal(true);
    expect(serves(trigram(null, 'name', 'gist_trgm_ops'), search)).to.equal(true);
    expect(serves(trigram(null, 'name', 'text_pattern_ops'), search), 'a btree on lower(name)').to.equal(false);
    expect(serves(trigram(null, 'email'), search)).to.equal(false);
  });
});

describe('index advice: statements', function () {
  it('names an index by its table and keys, and cuts a long name to 63 bytes with a hash', function () {
    expect(indexStatement(nameDesc)).to.deep.equal({
      name: 'users_name_desc_id_idx',
      statement: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_name_desc_id_idx" ON "users" ("name" DESC, "id")',
    });
    const long = need('ordered', [needKey('a_rather_long_column_name_that_goes_on'), needKey('another_long_one')]);
    const { name } = indexStatement({ ...long, table: 'cms.rather_long_table_name' });
    expect(Buffer.byteLength(name)).to.be.at.most(63);
    expect(name).to.match(/^rather_long_table_name_a_rather_long_column_name_t_[0-9a-f]{8}$/);
    expect(indexStatement({ ...long, table: 'cms.rather_long_table_name' }).statement).to.include('ON "cms"."rather_long_table_name" (');
  });
});
