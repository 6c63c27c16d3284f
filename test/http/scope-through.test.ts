// A many-to-many relation whose related model a hook restricts (docs/query-language.md): every way the
// root reads related records through the join table (a dot path, has/has!, a count, a sort by it, a
// plain, windowed or nested expansion) joins through the join table and keeps the hook's restriction,
// whichever hook restricts it and however the hook is written. A hook that returns the query it was
// handed (a concise arrow function, or an async one ending in `return query`) must not have it run
// before the plugin finished it: that ran `select "team_member"."team_id" ... from "members"` without
// its join and answered 503. The related table (`members`) is named differently from the relation
// (`users`), as hosts name them.
//
// Teams 1 red (ann, bob), 2 green (bob, cid, eve), 3 blue (dan), 4 grey (nobody). Bob and dan are
// inactive: the hooks show active members only, and hide team 4 at the root.

import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { Model, type RelationMappings } from 'objection';
import type { AppOptions } from '../support/app';
import { idsOf, relatedIds, useApp, type Row } from '../support/app';
import type { ModelQuery } from '../../plugin';

const all = { projectable_fields: ['*'], sortable_fields: ['*'], filterable_fields: ['*'], searchable_fields: ['name'] };

class Member extends Model {
  static override tableName = 'members';
  static getExpandableRelations(): Record<string, unknown> {
    return { teams: { options: all } };
  }
  static override get relationMappings(): RelationMappings {
    return {
      teams: {
        relation: Model.ManyToManyRelation,
        modelClass: Team,
        join: { from: 'members.id', through: { from: 'team_member.member_id', to: 'team_member.team_id' }, to: 'teams.id' },
      },
    };
  }
}

class Team extends Model {
  static override tableName = 'teams';
  static getExpandableRelations(): Record<string, unknown> {
    return { users: { options: all } };
  }
  static override get relationMappings(): RelationMappings {
    return {
      users: {
        relation: Model.ManyToManyRelation,
        modelClass: Member,
        join: { from: 'teams.id', through: { from: 'team_member.team_id', to: 'team_member.member_id' }, to: 'members.id' },
      },
    };
  }
}

async function addTeams(knex: Knex): Promise<void> {
  await knex.raw('create table teams (id integer primary key, name text not null)');
  await knex.raw('create table members (id integer primary key, name text not null, status text not null)');
  await knex.raw(
    'create table team_member (team_id integer not null references teams(id), member_id integer not null references members(id), primary key (team_id, member_id))',
  );
  await knex('teams').insert(['red', 'green', 'blue', 'grey'].map((name, i) => ({ id: i + 1, name })));
  const members = [
    ['ann', 'active'],
    ['bob', 'inactive'],
    ['cid', 'active'],
    ['dan', 'inactive'],
    ['eve', 'active'],
  ];
  await knex('members').insert(members.map(([name, status], i) => ({ id: i + 1, name, status })));
  const links = [
    [1, 1],
    [1, 2],
    [2, 2],
    [2, 3],
    [2, 5],
    [3, 4],
  ];
  await knex('team_member').insert(links.map(([team_id, member_id]) => ({ team_id, member_id })));
}

const restrict = (label: string, query: ModelQuery): ModelQuery | undefined => {
  if (label === 'teams') return query.whereNot('teams.id', 4);
  if (label.endsWith('.users')) return query.where('members.status', 'active');
  return undefined;
};

/** The same restriction, written the ways hosts write hooks. */
const hookStyles: ReadonlyArray<readonly [string, AppOptions]> = [
  [
    'scope, a block body',
    {
      scope: (_ctx: Context, label: string, query: ModelQuery) => {
        restrict(label, query);
      },
    },
  ],
  [
    'scope, a concise arrow returning the query',
    { scope: (_ctx: Context, label: string, query: ModelQuery) => restrict(label, query) },
  ] as const,
  [
    'scope, async, returning the query',
    {
      scope: async (_ctx: Context, label: string, query: ModelQuery) => {
        await new Promise((resolveSoon) => setImmediate(resolveSoon));
        return restrict(label, query);
      },
    },
  ],
  [
    'scopeModel, returning the query',
    {
      scopeModel: (_ctx: Context, model: typeof Model, query: ModelQuery) =>
        model === Team ? query.whereNot('teams.id', 4) : model === Member ? query.where('members.status', 'active') : undefined,
    },
  ],
];

/** The lane's EXPLAIN of a query seen first (docs/configuration.md, heavy requests) is off: these tests count statements. */
const COUNTED = { limits: { heavyCost: Number.POSITIVE_INFINITY } };

for (const [style, hooks] of hookStyles) {
  describe(`a hook restricting a many-to-many relation's related model (${style})`, function () {
    const h = useApp({ collections: { teams: Team, members: Member }, ...hooks, ...COUNTED }, { empty: true, prepare: addTeams });
    let statements = 0;
    const count = () => {
      statements += 1;
    };
    before(function () {
      h.db.knex.on('query', count);
    });
    after(function () {
      h.db.knex.off('query', count);
    });

    /** The records of `/api/teams?<query>`, and how many statements answered it. */
    const teams = async (query: string): Promise<{ rows: Row[]; statements: number }> => {
      statements = 0;
      const rows = await h.rows(`/api/teams?${query}`);
      return { rows, statements };
    };
    const ids = async (query: string) => idsOf((await teams(query)).rows);

    it('a dot path condition joins through the join table and sees only what the hook shows', async function () {
      expect(await teams('fields=id&filter[users.name]=ann')).to.deep.equal({ rows: [{ id: 1 }], statements: 1 });
      expect(await ids('filter[users.name]=bob'), 'bob is inactive').to.deep.equal([]);
      expect(await ids('filter[users.name]=dan&filter[or users.name]=eve')).to.deep.equal([2]);
      expect(await ids('search[users.name]=e')).to.deep.equal([2]);
    });

    it('has and has! count only the related records the hook shows', async function () {
      expect(await ids('has[users]')).to.deep.equal([1, 2]);
      expect(await ids('has![users]=u'), 'team 3 has only dan, who is hidden').to.deep.equal([3]);
      expect(await ids('has[users]=u&u_filter[name]=bob')).to.deep.equal([]);
      expect(await ids('has![users]=u&u_filter[name]=ann')).to.deep.equal([2, 3]);
    });

    it('a count and a sort by it count only what the hook shows', async function () {
      const counted = await teams('fields=id&count[users]');
      expect(counted).to.deep.equal({
        rows: [
          { id: 1, users_count: 1 },
          { id: 2, users_count: 2 },
          { id: 3, users_count: 0 },
        ],
        statements: 1,
      });
      expect(await ids('count[users]&sort[users_count]=desc')).to.deep.equal([2, 1, 3]);
      expect(await ids('count[users]&filter[users_count]=>0')).to.deep.equal([1, 2]);
      expect(await ids('count[users]=u&u_filter[name]=eve&sort[users_count]=desc')).to.deep.equal([2, 1, 3]);
    });

    it('a plain and a windowed expansion join through the join table', async function () {
      const plain = await teams('fields=id&expand[users]=u&u_fields=id');
      expect(relatedIds(plain.rows, 'users')).to.deep.equal({ 1: [1], 2: [3, 5], 3: [] });
      expect(plain.statements).to.equal(2);
      const windowed = await teams('fields=id&expand[users]=u&u_limit=1&u_sort[name]=desc');
      expect(relatedIds(windowed.rows, 'users')).to.deep.equal({ 1: [1], 2: [5], 3: [] });
      expect(windowed.statements).to.equal(2);
      const offset = await teams('fields=id&expand[users]=u&u_limit=1&u_offset=1');
      expect(relatedIds(offset.rows, 'users')).to.deep.equal({ 1: [], 2: [5], 3: [] });
    });

    it('a nested expansion joins through the join table at every depth', async function () {
      const nested = await teams(
        'fields=id&filter[id]=2&expand[users]=u&u_fields=id&u_expand[teams]=t&t_fields=id&t_expand[users]=v&v_fields=id',
      );
      expect(nested.rows).to.deep.equal([
        {
          id: 2,
          users: [
            { id: 3, teams: [{ id: 2, users: [{ id: 3 }, { id: 5 }] }] },
            { id: 5, teams: [{ id: 2, users: [{ id: 3 }, { id: 5 }] }] },
          ],
        },
      ]);
      expect(nested.statements).to.equal(4);
      const windowed = await teams(
        'fields=id&filter[id]=1&expand[users]=u&u_fields=id&u_expand[teams]=t&t_limit=1&t_fields=id&t_expand[users]=v&v_limit=5&v_fields=id',
      );
      expect(windowed.rows).to.deep.equal([{ id: 1, users: [{ id: 1, teams: [{ id: 1, users: [{ id: 1 }] }] }] }]);
    });

    it('the root keeps its own restriction and its count, with a page', async function () {
      const res = await h.get('/api/teams?fields=id&per-page=2&count[users]&sort[users_count]=desc');
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ total: 3, last_page: 2 });
    });
  });
}
