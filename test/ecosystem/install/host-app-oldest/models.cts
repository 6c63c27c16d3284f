// The host's own models, one relation of each kind the plugin treats differently: an author has one
// profile (has-one) and one desk through desk_assignments (has-one-through); an article belongs to
// its author (belongs-to) and has tags through article_tags (many-to-many).
import { Model } from 'objection';

export class Profile extends Model {
  static get tableName() {
    return 'profiles';
  }
}

export class Desk extends Model {
  static get tableName() {
    return 'desks';
  }
}

export class Tag extends Model {
  static get tableName() {
    return 'tags';
  }
}

export class Author extends Model {
  static get tableName() {
    return 'authors';
  }

  static getExpandableRelations() {
    return {
      profile: { options: { projectable_fields: ['id', 'bio'] } },
      desk: { options: { projectable_fields: ['id', 'name'] } },
    };
  }

  static get relationMappings() {
    return {
      profile: {
        relation: Model.HasOneRelation,
        modelClass: Profile,
        join: { from: 'authors.id', to: 'profiles.author_id' },
      },
      desk: {
        relation: Model.HasOneThroughRelation,
        modelClass: Desk,
        join: {
          from: 'authors.id',
          through: { from: 'desk_assignments.author_id', to: 'desk_assignments.desk_id' },
          to: 'desks.id',
        },
      },
    };
  }
}

export class Article extends Model {
  static get tableName() {
    return 'articles';
  }

  static getExpandableRelations() {
    return {
      author: { options: { projectable_fields: ['id', 'name'] } },
      tags: { options: { projectable_fields: ['id', 'name'], sortable_fields: ['name'] } },
    };
  }

  static get relationMappings() {
    return {
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: Author,
        join: { from: 'articles.author_id', to: 'authors.id' },
      },
      tags: {
        relation: Model.ManyToManyRelation,
        modelClass: Tag,
        join: {
          from: 'articles.id',
          through: { from: 'article_tags.article_id', to: 'article_tags.tag_id' },
          to: 'tags.id',
        },
      },
    };
  }
}
