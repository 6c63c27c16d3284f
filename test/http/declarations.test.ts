// Model declarations are checked once, at start-up (docs/configuration.md, "Start-up checks"): a
// bad one rejects queryModifiers(...) with an Error whose message has a first line saying what
// failed and then one `- Model.method() ...` line per problem, and never surfaces at request time.

import { expect } from 'chai';
import { Model } from 'objection';
import { queryModifiers } from '../../plugin';
import { startApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/db';
import { Post, User } from '../support/fixture';

class UserWithGhostField extends User {
  static override getProjectableFields(): string[] {
    return ['id', 'ghost'];
  }
}

class UserWithGhostSortable extends User {
  static getSortableFields(): string[] {
    return ['name', 'ghost'];
  }
}

class UserWithGhostFilterable extends User {
  static getFilterableFields(): string[] {
    return ['ghost'];
  }
}

class UserWithGhostSearchable extends User {
  static getSearchableFields(): string[] {
    return ['name', 'ghost'];
  }
}

class UserWithGhostRelation extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return { friends: { options: { projectable_fields: ['*'] } } };
  }
}

class UserWithWrongTable extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: { projectable_fields: ['*'] }, table: 'comments' } };
  }
}

class UserWithWrongHasManyFk extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: { projectable_fields: ['*'] }, fk: 'author_id' } };
  }
}

class UserWithWrongManyToManyFk extends User {
  // role_id is the join table's column pointing to the related model, not to the owner
  static override getExpandableRelations(): Record<string, unknown> {
    return { roles: { options: { projectable_fields: ['*'] }, table: 'roles', fk: 'role_id' } };
  }
}

class PostWithWrongBelongsToFk extends Post {
  static override getExpandableRelations(): Record<string, unknown> {
    return { author: { options: { projectable_fields: ['*'] }, table: 'users', fk: 'id' } };
  }
}

class UserWithGhostRelatedField extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: { projectable_fields: ['id', 'ghost'] } } };
  }
}

class UserWithGhostRelatedSortable extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: { projectable_fields: ['*'], sortable_fields: ['ghost'] } } };
  }
}

class UserWithGhostLabel extends User {
  static getFieldLabels(): Record<string, unknown> {
    return { name: 'Full name', ghost: 'Ghost' };
  }
}

class UserWithEmptyLabel extends User {
  static getFieldLabels(): Record<string, unknown> {
    return { name: ' ' };
  }
}

class UserWithLabels extends User {
  static getFieldLabels(): Record<string, string> {
    return { name: 'Full name' };
  }
}

class Ghost extends Model {
  static override tableName = 'ghosts';
}

class UserWithCorrectKeys extends User {
  static override getExpandableRelations(): Record<string, unknown> {
    return {
      posts: { options: { projectable_fields: ['id'] }, table: 'posts', fk: 'user_id' },
      phone: { options: { projectable_fields: ['number'] }, table: 'phones', fk: 'user_id' },
      roles: { options: { projectable_fields: ['name'] }, table: 'roles', fk: 'user_id' },
    };
  }
}

class PostWithCorrectKeys extends Post {
  static override getExpandableRelations(): Record<string, unknown> {
    return { author: { options: { projectable_fields: ['name'] }, table: 'users', fk: 'user_id' } };
  }
}

describe('model declarations at start-up', function () {
  let db: TestDatabase | undefined;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
  });

  after(async function () {
    await db?.destroy();
  });

  async function startupError(collections: Record<string, typeof Model>): Promise<Error> {
    if (!db) throw new Error('no database');
    try {
      await queryModifiers({ knex: db.knex, collections });
    } catch (error) {
      if (error instanceof Error) return error;
      throw new Error(`rejected with a non-Error: ${String(error)}`, { cause: error });
    }
    return expect.fail('queryModifiers(...) resolved; expected it to reject');
  }

  const bad: [string, string, typeof Model][] = [
    ['a projectable field that is not a column', 'UserWithGhostField', UserWithGhostField],
    ['a sortable field that is not a column', 'UserWithGhostSortable', UserWithGhostSortable],
    ['a filterable field that is not a column', 'UserWithGhostFilterable', UserWithGhostFilterable],
    ['a searchable field that is not a column', 'UserWithGhostSearchable', UserWithGhostSearchable],
    ['an expandable relation the model does not define', 'UserWithGhostRelation', UserWithGhostRelation],
    ['a relation table that disagrees with the mapping', 'UserWithWrongTable', UserWithWrongTable],
    ['a has-many fk that disagrees with the mapping', 'UserWithWrongHasManyFk', UserWithWrongHasManyFk],
    ['a many-to-many fk that is not the join column to the owner', 'UserWithWrongManyToManyFk', UserWithWrongManyToManyFk],
    ['a belongs-to fk that is not the owner column', 'PostWithWrongBelongsToFk', PostWithWrongBelongsToFk],
    ['a relation projectable field that is not a column', 'UserWithGhostRelatedField', UserWithGhostRelatedField],
    ['a relation sortable field that is not a column', 'UserWithGhostRelatedSortable', UserWithGhostRelatedSortable],
    ['a model whose table does not exist', 'Ghost', Ghost],
    ['a field label for a field the model does not have', 'UserWithGhostLabel', UserWithGhostLabel],
    ['an empty field label', 'UserWithEmptyLabel', UserWithEmptyLabel],
  ];
  for (const [what, modelName, model] of bad) {
    it(`rejects ${what}, naming the model or collection`, async function () {
      const error = await startupError({ things: model });
      expect(error.message.includes(modelName) || error.message.includes('collection "things"'), error.message).to.equal(true);
    });
  }

  it('the message is a heading line and one `- Model.method()` line per problem', async function () {
    const error = await startupError({ things: UserWithGhostField });
    const [heading, ...lines] = error.message.split('\n');
    expect(heading).to.equal('koa-query-modifiers: invalid collection declarations:');
    expect(lines).to.have.length.greaterThan(0);
    for (const line of lines) expect(line, error.message).to.match(/^- UserWithGhostField\.get\w+\(\) /);
    expect(error.message).to.include('"ghost"');
  });

  it('names the field a label is wrong for', async function () {
    expect((await startupError({ things: UserWithGhostLabel })).message).to.equal(
      'koa-query-modifiers: invalid collection declarations:\n- UserWithGhostLabel.getFieldLabels() names "ghost", which is not a field of UserWithGhostLabel',
    );
    expect((await startupError({ things: UserWithEmptyLabel })).message).to.include(
      'UserWithEmptyLabel.getFieldLabels().name must be a non-empty string',
    );
  });

  it('lists a declared label in _meta and as the title in the OpenAPI record schema; other fields have none', async function () {
    if (!db) throw new Error('no database');
    const app = await startApp(db.knex, { collections: { users: UserWithLabels }, admin: {} });
    try {
      const meta = (await (await fetch(`${app.origin}/api/_meta/users`)).json()) as { fields: { name: string; label?: string }[] };
      expect(meta.fields.find((f) => f.name === 'name')?.label).to.equal('Full name');
      expect(meta.fields.find((f) => f.name === 'email')).not.to.have.property('label');
      const doc = (await (await fetch(`${app.origin}/api/openapi.json`)).json()) as {
        components: { schemas: Record<string, { properties: Record<string, { title?: string }> }> };
      };
      const record = doc.components.schemas['record.users']?.properties;
      expect(record?.name?.title).to.equal('Full name');
      expect(record?.email).not.to.have.property('title');
    } finally {
      await app.close();
    }
  });

  it('accepts table and fk entries that agree with every relation kind', async function () {
    if (!db) throw new Error('no database');
    const router = await queryModifiers({ knex: db.knex, collections: { users: UserWithCorrectKeys, posts: PostWithCorrectKeys } });
    expect(router).to.have.property('routes');
  });
});
