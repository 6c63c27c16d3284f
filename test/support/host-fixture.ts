// A host application's own schema and models, as an integrator has them before installing the plugin:
// tables in a `cms` schema with a relation into `public`, snake_case columns with camelCase
// properties (through the model's mappers or Knex's), a model that redacts its JSON and has a
// virtual attribute, a join table with extra columns, two relations onto one tenant-owned table,
// and types without an ordering. The models are made by a function of an objection module, so the
// same models can come from a second copy of objection.

import type { Knex } from 'knex';
import type * as Objection from 'objection';

const schema: readonly string[] = [
  'create schema cms',
  `create table cms.authors (id serial primary key, first_name text not null, last_name text not null,
     email text, tenant_id integer not null)`,
  `create table cms.profiles (id serial primary key, author_id integer not null unique references cms.authors(id),
     bio text not null)`,
  `create table cms.articles (id serial primary key, author_id integer not null references cms.authors(id),
     editor_id integer references cms.authors(id), title text not null, tenant_id integer not null)`,
  'create table public.tags (id serial primary key, label text not null)',
  `create table cms.article_tags (article_id integer not null references cms.articles(id),
     tag_id integer not null references public.tags(id), position integer not null, is_primary boolean not null,
     primary key (article_id, tag_id))`,
  `create table cms.places (id serial primary key, name text not null, location point, meta json, data jsonb)`,
];

const rows: readonly string[] = [
  `insert into cms.authors (id, first_name, last_name, email, tenant_id) values
     (1, 'Ann', 'Lee', 'ann@example.com', 1), (2, 'Bob', 'Stone', 'bob@example.com', 1),
     (3, 'Cid', 'Moss', 'cid@example.com', 2)`,
  `insert into cms.profiles (id, author_id, bio) values (1, 1, 'Writes about cities'), (2, 3, 'Writes about rivers')`,
  // Article 2 is tenant 2's, written by tenant 1's author 1; article 4 is tenant 2's, edited by author 1.
  `insert into cms.articles (id, author_id, editor_id, title, tenant_id) values
     (1, 1, 2, 'Hello', 1), (2, 1, 3, 'Secret plans', 2), (3, 2, 1, 'World', 1), (4, 3, 1, 'Other tenant', 2)`,
  `insert into public.tags (id, label) values (1, 'news'), (2, 'tech'), (3, 'life')`,
  // No article is joined to the tag with its own id, so a join that skips the join table shows.
  `insert into cms.article_tags (article_id, tag_id, position, is_primary) values
     (1, 2, 2, false), (1, 3, 1, true), (3, 1, 1, true), (2, 3, 1, true), (4, 2, 1, true)`,
  `insert into cms.places (id, name, location, meta, data) values
     (1, 'Harbour', point(1, 2), '{"a": 1}', '{"b": 2}'), (2, 'Hill', point(3, 4), '[1]', '[2]')`,
];

/** Creates and fills the host's tables. */
export async function loadHostFixture(knex: Knex): Promise<void> {
  for (const statement of [...schema, ...rows]) await knex.raw(statement);
}

/**
 * `model`: snake_case columns mapped by each model's `columnNameMappers` (mappings name columns);
 * `knex`: mapped by `knexSnakeCaseMappers()` on the Knex instance (mappings name camelCase).
 */
export type NameMapping = 'model' | 'knex';

export interface HostModels {
  readonly Author: typeof Objection.Model;
  readonly Article: typeof Objection.Model;
  readonly Tag: typeof Objection.Model;
  readonly Place: typeof Objection.Model;
}

/** The host's models, built with the given objection module and name mapping. */
export function hostModels(objection: typeof Objection, mapping: NameMapping): HostModels {
  const { Model, snakeCaseMappers } = objection;
  // Mappings name Knex names: the column itself, or its camelCase form under knexSnakeCaseMappers.
  const col = (snake: string): string => (mapping === 'model' ? snake : snake.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()));
  class Base extends Model {
    static override get columnNameMappers() {
      return (mapping === 'model' ? snakeCaseMappers() : null) as never;
    }
  }

  class Tag extends Base {
    static override tableName = 'tags';
  }

  class Article extends Base {
    static override tableName = 'cms.articles';
    static override get relationMappings(): Objection.RelationMappings {
      return {
        author: {
          relation: Model.BelongsToOneRelation,
          modelClass: Author,
          join: { from: `cms.articles.${col('author_id')}`, to: 'cms.authors.id' },
        },
        tags: {
          relation: Model.ManyToManyRelation,
          modelClass: Tag,
          join: {
            from: 'cms.articles.id',
            through: {
              from: `cms.article_tags.${col('article_id')}`,
              to: `cms.article_tags.${col('tag_id')}`,
              extra: mapping === 'model' ? { position: 'position', isPrimary: 'is_primary' } : ['position', 'isPrimary'],
            },
            to: 'tags.id',
          },
        },
        firstTag: {
          relation: Model.HasOneThroughRelation,
          modelClass: Tag,
          join: {
            from: 'cms.articles.id',
            through: { from: `cms.article_tags.${col('article_id')}`, to: `cms.article_tags.${col('tag_id')}` },
            to: 'tags.id',
          },
        },
      };
    }

    static getExpandableRelations() {
      return {
        author: { options: { projectable_fields: ['id', 'firstName', 'fullName', 'email'] } },
        tags: {
          options: {
            projectable_fields: ['id', 'label', 'position', 'isPrimary'],
            sortable_fields: ['position', 'label'],
            filterable_fields: ['isPrimary'],
          },
        },
        firstTag: { options: {} },
      };
    }
  }

  class Profile extends Base {
    static override tableName = 'cms.profiles';
  }

  class Author extends Base {
    static override tableName = 'cms.authors';
    static override virtualAttributes = ['fullName'];
    declare firstName: string;
    declare lastName: string;

    get fullName(): string {
      return `${this.firstName} ${this.lastName}`;
    }

    // The host's redaction: an address never leaves the server whole.
    override $formatJson(json: Objection.Pojo): Objection.Pojo {
      const formatted = super.$formatJson(json);
      if (typeof formatted.email === 'string') formatted.email = formatted.email.replace(/^(.)[^@]*/, '$1***');
      return formatted;
    }

    static getProjectableFields(): string[] {
      return ['id', 'firstName', 'lastName', 'email', 'fullName'];
    }

    static override get relationMappings(): Objection.RelationMappings {
      return {
        articles: {
          relation: Model.HasManyRelation,
          modelClass: Article,
          join: { from: 'cms.authors.id', to: `cms.articles.${col('author_id')}` },
        },
        editedArticles: {
          relation: Model.HasManyRelation,
          modelClass: Article,
          join: { from: 'cms.authors.id', to: `cms.articles.${col('editor_id')}` },
        },
        profile: {
          relation: Model.HasOneRelation,
          modelClass: Profile,
          join: { from: 'cms.authors.id', to: `cms.profiles.${col('author_id')}` },
        },
      };
    }

    static getExpandableRelations() {
      return {
        articles: { options: { projectable_fields: ['id', 'title'], sortable_fields: ['id'] } },
        editedArticles: { options: { projectable_fields: ['id', 'title'] } },
        profile: { options: {} },
      };
    }
  }

  class Place extends Base {
    static override tableName = 'cms.places';
  }

  return { Author, Article, Tag, Place };
}
