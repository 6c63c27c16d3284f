// Expansions read inside the rows statement (plugin/apply/aggregated.ts) answer byte for byte as the
// same expansions loaded by their own statements, which a scope hook that restricts nothing forces:
// every column type (text forms of timestamps, dates, numerics and bigints, arrays, json and jsonb,
// floats with NaN and infinities, enums, booleans, NULLs), empty lists, field order, `fields!`, sorts
// with NULLs and the primary-key tie-breaker, the alias's conditions, join keys left out, a
// many-to-many relation with a join-table field, to-one relations, and every paging.

import { expect } from 'chai';
import { Model, type RelationMappings } from 'objection';
import supertest from 'supertest';
import { startApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { createTables } from '../support/typed-fixture';

const SQL: readonly string[] = [
  `create schema extra`,
  `create type extra.tier as enum ('gold', 'bronze', 'silver')`,
  `create domain posint as integer check (value > 0)`,
  `create table owners (id integer primary key, name text not null)`,
  `create table items (
     id integer primary key,
     owner_id integer references owners,
     title text,
     small smallint,
     big bigint,
     amount numeric,
     ratio real,
     precise double precision,
     done boolean,
     at timestamptz,
     local timestamp,
     day date,
     uid uuid,
     label json,
     meta jsonb,
     tier extra.tier,
     tags text[],
     stamps timestamptz[],
     bigs bigint[],
     tiers extra.tier[],
     spot point,
     span interval,
     size posint
   )`,
  `insert into owners values (1, 'Ann'), (2, 'Bob'), (3, 'Cy'), (4, 'Dee')`,
  `insert into items values
     (1, 1, 'it''s "quoted" \\ é 😀', 1, 9007199254740993, 12.50, 0.1, 1e+100, true, '2025-04-17 01:19:49.123456+00',
      '2025-04-17 01:19:49.5', '2025-04-17', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"b": 1,  "a": [1, 2.50], "b": 2}',
      '{"z": 1, "a": {"k": null}}', 'silver', '{"a,b",NULL,"NULL"}', '{"2025-04-18 00:00:00.5+00"}', '{9007199254740993,1}',
      '{gold,bronze}', '(1,2)', '1 day 02:03:04', 7),
     (2, 1, 'second', -32768, 42, 'NaN', 'NaN', '-Infinity', false, '1999-12-31 23:59:59+00', '1999-12-31 23:59:59',
      '0044-03-15 BC', null, '"text"', '[]', 'gold', '{}', '{}', '{}', '{}', '(0,0)', '-1 mon', 1),
     (3, 1, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null),
     (4, 2, 'fourth', 0, -1, 0.000001, '-0', 'Infinity', true, 'infinity', '-infinity', 'infinity', null, 'null', 'null',
      'bronze', '{""}', '{NULL}', '{-9223372036854775808}', '{silver}', '(-1.5,2)', '0', 3),
     (5, 2, 'fifth', 5, 5, 5, 3.4028235e+38, 5e-324, false, '2025-04-17 01:19:49+00', '2025-04-17 01:19:49', '2025-04-17',
      null, '{}', '{"a": 1.0}', 'gold', '{x}', null, null, null, null, null, null),
     (6, null, 'orphan', 6, 6, 6, 6, 6, true, null, null, null, null, null, null, null, null, null, null, null, null, null, null)`,
  `create table labels (id integer primary key, name text, weight numeric)`,
  `insert into labels values (1, 'red', 1.5), (2, 'blue', null), (3, 'green', 0)`,
  `create table owner_labels (owner_id integer references owners, label_id integer references labels, since timestamptz)`,
  `insert into owner_labels values (1, 2, '2025-01-01 00:00:00+00'), (1, 1, null), (2, 1, '2024-06-30 12:00:00.25+00'), (3, 3, null)`,
  `create table profiles (id integer primary key, owner_id integer references owners, bio text, born date)`,
  `insert into profiles values (1, 1, 'hello', '1990-01-02'), (2, 3, null, null)`,
];

const ITEM_FIELDS = ['*'];

class Item extends Model {
  static override tableName = 'items';

  static getExpandableRelations(): Record<string, unknown> {
    return { owner: { options: { projectable_fields: ['*'], sortable_fields: ['*'] }, table: 'owners', fk: 'owner_id' } };
  }

  static override get relationMappings(): RelationMappings {
    return { owner: { relation: Model.BelongsToOneRelation, modelClass: Owner, join: { from: 'items.owner_id', to: 'owners.id' } } };
  }
}

class Label extends Model {
  static override tableName = 'labels';
}

class Profile extends Model {
  static override tableName = 'profiles';
}

class Owner extends Model {
  static override tableName = 'owners';

  static getExpandableRelations(): Record<string, unknown> {
    const all = { projectable_fields: ITEM_FIELDS, sortable_fields: ['*'], searchable_fields: ['title'], filterable_fields: ['*'] };
    return {
      items: { options: all, table: 'items', fk: 'owner_id' },
      labels: {
        options: { projectable_fields: ['id', 'name', 'weight', 'since'], sortable_fields: ['*'], filterable_fields: ['*'] },
        table: 'labels',
        fk: 'owner_id',
      },
      profile: { options: { projectable_fields: ['*'] }, table: 'profiles', fk: 'owner_id' },
    };
  }

  static override get relationMappings(): RelationMappings {
    return {
      items: { relation: Model.HasManyRelation, modelClass: Item, join: { from: 'owners.id', to: 'items.owner_id' } },
      labels: {
        relation: Model.ManyToManyRelation,
        modelClass: Label,
        join: {
          from: 'owners.id',
          through: { from: 'owner_labels.owner_id', to: 'owner_labels.label_id', extra: ['since'] },
          to: 'labels.id',
        },
      },
      profile: { relation: Model.HasOneRelation, modelClass: Profile, join: { from: 'owners.id', to: 'profiles.owner_id' } },
    };
  }
}

const QUERIES: readonly string[] = [
  '/api/owners?expand[items]=i',
  '/api/owners?fields=name&expand[items]=i&i_fields=tags,id,at,label,big',
  '/api/owners?expand[items]=i&i_fields!=title,meta&i_sort[ratio]=desc',
  '/api/owners?expand[items]=i&i_sort[at]&i_sort[amount]=desc',
  '/api/owners?expand[items]=i&i_sort[day]=desc&i_fields=id,day,local',
  '/api/owners?expand[items]=i&i_filter[done]=true&i_fields=id,done',
  '/api/owners?expand[items]=i&i_in[tier]=gold,silver&i_fields=id,tier,tiers',
  '/api/owners?expand[items]=i&i_between[small]=-30000,3&i_fields=id,small,spot,span,size',
  '/api/owners?expand[items]=i&i_search[title]=*e*&i_fields=title',
  '/api/owners?expand[items]=i&i_filter[title]=null&i_fields=id,uid',
  '/api/owners?expand[labels]=l&expand[profile]=p&expand[items]=i&i_fields=id',
  '/api/owners?expand[labels]=l&l_sort[weight]=desc&l_fields=name,since',
  '/api/owners?expand[labels]=l&l_filter[name]=<>red',
  '/api/owners?fields=id&expand[profile]=p&p_fields=born',
  '/api/items?fields=id&expand[owner]=o&sort[id]=desc',
  '/api/items?expand[owner]=o&o_fields=name&fields=title',
  '/api/owners?expand[items]=i&i_fields=id&per-page=2',
  '/api/owners?expand[items]=i&i_fields=id&per-page=1&page=2&total=none',
  '/api/owners?expand[items]=i&i_fields=id&per-page=2&total=estimated',
  '/api/owners?expand[items]=i&i_fields=id&sort[name]=desc&per-page=2&cursor=',
  '/api/owners?expand[items]=i&i_fields=id&limit=2&offset=1',
  '/api/owners?expand[items]=i&filter[id]=4',
];

describe('expansions read inside the rows statement: the same bytes as loaded by their own statements', function () {
  let db: TestDatabase | undefined;
  let text: TestApp | undefined;
  let built: TestApp | undefined;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ empty: true, timezone: 'UTC' });
    await createTables(db.knex, SQL);
    const collections = { owners: Owner, items: Item };
    text = await startApp(db.knex, { collections });
    built = await startApp(db.knex, { collections, scope: () => undefined });
  });

  after(async function () {
    this.timeout(60000);
    await text?.close();
    await built?.close();
    await db?.destroy();
  });

  /** The body with the app's origin (in page URLs) written the same for both apps. */
  async function body(app: TestApp | undefined, path: string): Promise<string> {
    if (app === undefined) throw new Error('setup failed');
    const res = await supertest(app.origin).get(path);
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return res.text.split(app.origin).join('<origin>');
  }

  for (const path of QUERIES) {
    it(path, async function () {
      expect(await body(text, path)).to.equal(await body(built, path));
    });
  }

  it('a cursor walk forward and back reads the same pages both ways (the page read in its turned order going back)', async function () {
    const first = '/api/owners?expand[items]=i&i_fields=id,at&sort[name]=desc&per-page=1&cursor=';
    let path = first;
    const cursorPath = (page: string, key: 'next_cursor' | 'prev_cursor'): string => {
      const cursor = (JSON.parse(page) as Record<string, unknown>)[key];
      expect(cursor, `${key} of ${page}`).to.be.a('string');
      return first.replace(/cursor=$/, `cursor=${String(cursor)}`);
    };
    const data: unknown[] = [];
    for (const key of ['next_cursor', 'next_cursor', 'prev_cursor', 'prev_cursor'] as const) {
      const page = await body(text, path);
      expect(page).to.equal(await body(built, path));
      data.push((JSON.parse(page) as { data: unknown }).data);
      path = cursorPath(page, key);
    }
    // Owners by name descending, one a page: Dee, Cy, Bob, then back to Cy and Dee.
    const back = JSON.parse(await body(text, path)) as { data: unknown };
    expect(await body(built, path)).to.equal(await body(text, path));
    expect([...data, back.data]).to.deep.equal([data[0], data[1], data[2], data[1], data[0]]);
    expect((data[0] as { name: string }[])[0]?.name).to.equal('Dee');
  });

  it('shows every type in its documented form', async function () {
    const res = JSON.parse(await body(text, '/api/owners?fields=id&filter[id]=1&expand[items]=i&i_filter[id]=1')) as unknown[];
    expect(res).to.deep.equal([
      {
        id: 1,
        items: [
          {
            id: 1,
            owner_id: 1,
            title: 'it\'s "quoted" \\ é 😀',
            small: 1,
            big: '9007199254740993',
            amount: '12.50',
            ratio: 0.1,
            precise: 1e100,
            done: true,
            at: '2025-04-17T01:19:49.123456Z',
            local: '2025-04-17T01:19:49.500000Z',
            day: '2025-04-17',
            uid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
            label: { b: 2, a: [1, 2.5] },
            meta: { a: { k: null }, z: 1 },
            tier: 'silver',
            tags: ['a,b', null, 'NULL'],
            stamps: ['2025-04-18T00:00:00.500000Z'],
            bigs: ['9007199254740993', 1],
            tiers: ['gold', 'bronze'],
            spot: '(1,2)',
            span: '1 day 02:03:04',
            size: 7,
          },
        ],
      },
    ]);
  });
});
