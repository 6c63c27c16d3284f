// Relations whose keys are not integers: dates and timestamps, directly and through a join
// table. A parent's key and its related rows' keys must meet in memory in the same form, whatever
// the driver reads a join table's raw key column as (a Date for `date` and `timestamptz`).

import { expect } from 'chai';
import { Model } from 'objection';
import { useTypedApp } from '../support/typed-fixture';

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
  `insert into tags values ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'red'), ('b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22', 'blue')`,
  `insert into notes values (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'one'), (2, 'b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22', 'two'), (3, 'b1ffcd88-1d1c-4ef8-bb6d-6bb9bd380a22', 'three')`,
];

class Note extends Model {
  static override tableName = 'notes';
}

class Tag extends Model {
  static override tableName = 'tags';
  static getExpandableRelations(): Record<string, unknown> {
    return { notes: { options: { projectable_fields: ['*'] } } };
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
});
