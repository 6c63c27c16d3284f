// Relations whose keys are not integers: dates and timestamps, directly and through a join
// table. A parent's key and its related rows' keys must meet in memory in the same form, whatever
// the driver reads a join table's raw key column as (a Date for `date` and `timestamptz`).

import { expect } from 'chai';
import { Model } from 'objection';
import { queryModifiers } from '../../plugin';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { createTables, useTypedApp } from '../support/typed-fixture';

const DAYS_SQL: readonly string[] = [
  `create table days (day date primary key, at timestamptz not null unique, label text not null)`,
  `create table shifts (id integer primary key, day date references days(day), at timestamptz references days(at), name text not null)`,
  `create table day_shifts (day date not null references days(day), at timestamptz not null references days(at), shift_id integer not null references shifts(id))`,
  `insert into days values ('2026-11-24', '2026-11-24T08:00:00.100Z', 'Tue'), ('2026-11-25', '2026-11-24T08:00:00.900Z', 'Wed')`,
  `insert into shifts values (1, '2026-11-24', '2026-11-24T08:00:00.100Z', 'early'), (2, '2026-11-25', '2026-11-24T08:00:00.900Z', 'late'), (3, '2026-11-25', '2026-11-24T08:00:00.900Z', 'night')`,
  `insert into day_shifts values ('2026-11-24', '2026-11-24T08:00:00.100Z', 1), ('2026-11-25', '2026-11-24T08:00:00.900Z', 2), ('2026-11-25', '2026-11-24T08:00:00.900Z', 3)`,
];

class Shift extends Model {
  static override tableName = 'shifts';
}

class Day extends Model {
  static override tableName = 'days';
  static override idColumn = 'day';
  static getExpandableRelations(): Record<string, unknown> {
    const options = { options: { projectable_fields: ['*'] } };
    return { shifts: options, shiftsAt: options, rota: options, rotaAt: options };
  }
  static override get relationMappings() {
    return {
      shifts: { relation: Model.HasManyRelation, modelClass: Shift, join: { from: 'days.day', to: 'shifts.day' } },
      shiftsAt: { relation: Model.HasManyRelation, modelClass: Shift, join: { from: 'days.at', to: 'shifts.at' } },
      rota: {
        relation: Model.ManyToManyRelation,
        modelClass: Shift,
        join: { from: 'days.day', through: { from: 'day_shifts.day', to: 'day_shifts.shift_id' }, to: 'shifts.id' },
      },
      rotaAt: {
        relation: Model.ManyToManyRelation,
        modelClass: Shift,
        join: { from: 'days.at', through: { from: 'day_shifts.at', to: 'day_shifts.shift_id' }, to: 'shifts.id' },
      },
    };
  }
}

describe('relations keyed by dates and timestamps', function () {
  const t = useTypedApp(DAYS_SQL, { days: Day, shifts: Shift });
  const names = (records: readonly Record<string, unknown>[], relation: string): string[][] =>
    records.map((record) => (record[relation] as { name: string }[]).map((shift) => shift.name).sort());

  for (const relation of ['shifts', 'shiftsAt', 'rota', 'rotaAt']) {
    it(`${relation}: each day gets its own shifts`, async function () {
      const records = await t.rows(`/api/days?fields=label&expand[${relation}]&sort[label]`);
      expect(names(records, relation)).to.deep.equal([['early'], ['late', 'night']]);
    });
  }
});

const TAGS_SQL: readonly string[] = [
  `create table tags (id uuid primary key, label text not null)`,
  // A key kept as text that holds the tag's uuid: no foreign key, the types differ.
  `create table notes (id integer primary key, tag_id text, body text not null)`,
  // A join table whose tag key is text too, and a note whose key is no uuid at all.
  `create table note_tags (note_id integer not null, tag_id text not null)`,
  `insert into tags values ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'red'), ('b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22', 'blue')`,
  `insert into notes values (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'one'), (2, 'b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22', 'two'), (3, 'b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22', 'three'), (4, 'no-such-tag', 'four')`,
  `insert into note_tags values (1, 'b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22'), (4, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'), (4, 'b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22'), (4, 'not-a-uuid')`,
];

class Note extends Model {
  static override tableName = 'notes';
  static getExpandableRelations(): Record<string, unknown> {
    const options = { options: { projectable_fields: ['*'], filterable_fields: ['label'] } };
    return { tag: options, tags: options };
  }
  static override get relationMappings() {
    return {
      tag: { relation: Model.BelongsToOneRelation, modelClass: Tag, join: { from: 'notes.tag_id', to: 'tags.id' } },
      tags: {
        relation: Model.ManyToManyRelation,
        modelClass: Tag,
        join: { from: 'notes.id', through: { from: 'note_tags.note_id', to: 'note_tags.tag_id' }, to: 'tags.id' },
      },
    };
  }
}

class Tag extends Model {
  static override tableName = 'tags';
  static getExpandableRelations(): Record<string, unknown> {
    return { notes: { options: { projectable_fields: ['*'], filterable_fields: ['body'], sortable_fields: ['body'] } } };
  }
  static override get relationMappings() {
    return { notes: { relation: Model.HasManyRelation, modelClass: Note, join: { from: 'tags.id', to: 'notes.tag_id' } } };
  }
}

describe('a relation whose two keys have different types (uuid and text)', function () {
  const t = useTypedApp(TAGS_SQL, { tags: Tag, notes: Note });

  it('expands as when the types agree: each tag gets its notes', async function () {
    const records = await t.rows('/api/tags?fields=label&expand[notes]&sort[label]');
    expect(records.map((record) => (record.notes as { body: string }[]).map((note) => note.body).sort())).to.deep.equal([
      ['three', 'two'],
      ['one'],
    ]);
  });

  // PostgreSQL has no uuid = text: each statement that meets the two keys in SQL compares their text forms.
  const labels = async (path: string): Promise<string[]> => (await t.rows(path)).map((record) => record.label as string);

  it('counts, sorts by the count and filters through the relation', async function () {
    const counted = await t.rows('/api/tags?fields=label&count[notes]&sort[notes_count]=desc');
    expect(counted.map((record) => [record.label, record.notes_count])).to.deep.equal([
      ['blue', 2],
      ['red', 1],
    ]);
    expect(await labels('/api/tags?fields=label&filter[notes.body]=one')).to.deep.equal(['red']);
    expect(await labels('/api/tags?fields=label&has[notes]=n&n_filter[body]=three')).to.deep.equal(['blue']);
    const windowed = await t.rows('/api/tags?fields=label&sort[label]&expand[notes]=n&n_limit=1&n_sort[body]');
    expect(windowed.map((record) => (record.notes as { body: string }[]).map((note) => note.body))).to.deep.equal([['three'], ['one']]);
  });

  it('a belongs-to key that is not a uuid finds no tag instead of failing', async function () {
    const records = await t.rows('/api/notes?fields=body&expand[tag]&sort[id]');
    expect(records.map((record) => (record.tag as { label: string } | null)?.label ?? null)).to.deep.equal(['red', 'blue', 'blue', null]);
    const filtered = await t.rows('/api/notes?fields=body&filter[tag.label]=blue&sort[id]');
    expect(filtered.map((record) => record.body)).to.deep.equal(['two', 'three']);
  });

  it('a join table whose tag key is text: expanded, counted and filtered', async function () {
    const records = await t.rows('/api/notes?fields=body&expand[tags]&count[tags]&sort[id]');
    expect(
      records.map((record) => [record.body, (record.tags as { label: string }[]).map((tag) => tag.label).sort(), record.tags_count]),
    ).to.deep.equal([
      ['one', ['blue'], 1],
      ['two', [], 0],
      ['three', [], 0],
      ['four', ['blue', 'red'], 2],
    ]);
    const filtered = await t.rows('/api/notes?fields=body&filter[tags.label]=red');
    expect(filtered.map((record) => record.body)).to.deep.equal(['four']);
  });
});

describe('a relation keyed on an array column', function () {
  class Label extends Model {
    static override tableName = 'labels';
  }
  class Board extends Model {
    static override tableName = 'boards';
    static getExpandableRelations(): Record<string, unknown> {
      return { labels: { options: { projectable_fields: ['*'] } } };
    }
    static override get relationMappings() {
      return { labels: { relation: Model.HasManyRelation, modelClass: Label, join: { from: 'boards.label_ids', to: 'labels.id' } } };
    }
  }
  let db: TestDatabase | undefined;
  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ empty: true });
    await createTables(db.knex, [
      `create table labels (id integer primary key, name text not null)`,
      `create table boards (id integer primary key, label_ids integer[], title text not null)`,
    ]);
  });
  after(async function () {
    await db?.destroy();
  });

  it('is refused at start-up, naming the column and what to do instead', async function () {
    if (db === undefined) throw new Error('no database');
    let message = '';
    try {
      await queryModifiers({ knex: db.knex, collections: { boards: Board } });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).to.include('Board.getExpandableRelations().labels: key column boards.label_ids holds arrays (int4[])');
    expect(message).to.include('join table');
  });
});
