// At start-up (docs/configuration.md, "What your model's JSON hides or masks"): a declaration that
// lists a field the model's own JSON removes or masks as sortable, searchable or filterable (or a
// removed one as projectable), on the model, on a relation, or on a model reached only through a
// relation, stops the application with a line naming the declaration, the field and why; a
// conversion that throws on the probe stops it too.

import { expect } from 'chai';
import { Model, type Pojo, type RelationMappings } from 'objection';
import { queryModifiers } from '../../plugin';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { SecretPost, SecretUser } from './visibility-models';

const removes = 'own JSON conversion ($formatJson, toJSON) removes: it is never returned, so no modifier may name it';
const changes = 'own JSON conversion ($formatJson, toJSON) changes: it is returned only as the model masks it';

class SortsByEmail extends SecretUser {
  static getSortableFields(): string[] {
    return ['name', 'email'];
  }
}

class FiltersByHash extends SecretUser {
  static getFilterableFields(): string[] {
    return ['password_hash'];
  }
}

class SearchesEmail extends SecretUser {
  static getSearchableFields(): string[] {
    return ['email'];
  }
}

class ProjectsHash extends SecretUser {
  static getProjectableFields(): string[] {
    return ['id', 'password_hash'];
  }
}

class RelationSortsByTitle extends SecretUser {
  static override getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: { projectable_fields: ['id', 'title'], sortable_fields: ['title'], filterable_fields: ['secret_note'] } } };
  }
}

class PostSortsByTitle extends SecretPost {
  static getSortableFields(): string[] {
    return ['title'];
  }
}

/** Reaches PostSortsByTitle only as a relation: its own declaration is checked all the same. */
class AuthorOfSortedPosts extends Model {
  static override tableName = 'users';

  static getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: {} } };
  }

  static override get relationMappings(): RelationMappings {
    return { posts: { relation: Model.HasManyRelation, modelClass: PostSortsByTitle, join: { from: 'users.id', to: 'posts.user_id' } } };
  }
}

class ParsesStatus extends Model {
  static override tableName = 'posts';

  override $formatJson(json: Pojo): Pojo {
    return { ...super.$formatJson(json), parsed: JSON.parse(String(json.status)) as unknown };
  }
}

/** Masks only digit runs of names, and removes the birthday of inactive users: each seen by one probe record. */
class MasksSomeValues extends Model {
  static override tableName = 'users';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    if (typeof formatted.name === 'string') formatted.name = formatted.name.replace(/\d{4,}/g, '****');
    if (formatted.active === false) delete formatted.birthday;
    return formatted;
  }

  static getSortableFields(): string[] {
    return ['id', 'name', 'birthday'];
  }
}

describe('visibility declarations at start-up', function () {
  let db: TestDatabase | undefined;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
  });

  after(async function () {
    await db?.destroy();
  });

  async function startupLines(collections: Record<string, typeof Model>): Promise<string[]> {
    if (!db) throw new Error('no database');
    try {
      await queryModifiers({ knex: db.knex, collections });
    } catch (error) {
      if (error instanceof Error) return error.message.split('\n').slice(1);
      throw error;
    }
    return expect.fail('queryModifiers(...) resolved; expected it to reject');
  }

  it('refuses a masked or removed field declared sortable, filterable or searchable on the model', async function () {
    expect(await startupLines({ users: SortsByEmail })).to.deep.equal([
      `- SortsByEmail.getSortableFields() names "email", which SortsByEmail's ${changes}, and comparing, ordering or searching by the stored value would reveal it (remove it from the list, or stop masking it)`,
    ]);
    expect(await startupLines({ users: FiltersByHash })).to.deep.equal([
      `- FiltersByHash.getFilterableFields() names "password_hash", which FiltersByHash's ${removes} (remove it from the list, or stop removing it in the conversion)`,
    ]);
    expect((await startupLines({ users: SearchesEmail })).join('\n')).to.include(`"email", which SearchesEmail's ${changes}`);
  });

  it('refuses a removed field declared projectable', async function () {
    expect((await startupLines({ users: ProjectsHash })).join('\n')).to.include(
      `ProjectsHash.getProjectableFields() names "password_hash", which ProjectsHash's ${removes}`,
    );
  });

  it("refuses them in a relation's options and in the declarations of a model reached only through a relation", async function () {
    const lines = await startupLines({ users: RelationSortsByTitle });
    expect(lines.join('\n')).to.include(
      `RelationSortsByTitle.getExpandableRelations().posts.options.sortable_fields names "title", which SecretPost's ${changes}`,
    );
    expect(lines.join('\n')).to.include(
      `RelationSortsByTitle.getExpandableRelations().posts.options.filterable_fields names "secret_note", which SecretPost's ${removes}`,
    );
    expect((await startupLines({ users: AuthorOfSortedPosts })).join('\n')).to.include(
      `PostSortsByTitle.getSortableFields() names "title", which PostSortsByTitle's ${changes}`,
    );
  });

  it('refuses a conversion that throws on the probe, naming the model', async function () {
    const [line] = await startupLines({ posts: ParsesStatus });
    expect(line).to.match(/^- ParsesStatus: its own JSON conversion \(\$formatJson, toJSON\) threw on a probe record \(.*JSON.*\)/);
  });

  it('sees a mask that touches only some values of a type, or depends on another field, when a probe value triggers it', async function () {
    const lines = await startupLines({ users: MasksSomeValues });
    expect(lines.join('\n')).to.include(`names "name", which MasksSomeValues's ${changes}`);
    expect(lines.join('\n')).to.include(`names "birthday", which MasksSomeValues's ${removes}`);
    expect(lines).to.have.length(2);
  });
});
