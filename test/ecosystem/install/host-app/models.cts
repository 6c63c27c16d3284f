// The host's own models, declared as docs/installing.md ("Declare your models") shows: an author
// with a hidden password hash, and the articles they wrote.
import { Model } from 'objection';

export class Author extends Model {
  static get tableName() {
    return 'authors';
  }

  // password_hash is left out: it can never be returned, filtered, sorted or searched.
  static getProjectableFields() {
    return ['id', 'name', 'email', 'joined_at'];
  }

  static getSearchableFields() {
    return ['name', 'email'];
  }

  static getExpandableRelations() {
    return {
      articles: {
        options: {
          projectable_fields: ['id', 'title', 'published', 'rating'],
          sortable_fields: ['rating', 'title'],
          filterable_fields: ['published', 'rating'],
        },
        table: 'articles',
        fk: 'author_id',
      },
    };
  }

  static get relationMappings() {
    return {
      articles: {
        relation: Model.HasManyRelation,
        modelClass: Article,
        join: { from: 'authors.id', to: 'articles.author_id' },
      },
    };
  }
}

export class Article extends Model {
  static get tableName() {
    return 'articles';
  }

  static getSortableFields() {
    return ['id', 'title', 'rating', 'published_at'];
  }

  static getExpandableRelations() {
    return {
      author: { options: { projectable_fields: ['id', 'name'] }, table: 'authors', fk: 'author_id' },
    };
  }

  static get relationMappings() {
    return {
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: Author,
        join: { from: 'articles.author_id', to: 'authors.id' },
      },
    };
  }
}
