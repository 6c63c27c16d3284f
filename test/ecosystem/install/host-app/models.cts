// The host's own models, declared as docs/installing.md ("2. Declare your models") shows: an author
// with a hidden password hash, and the articles they wrote.
import { Model, QueryBuilder, type ModelClass, type Page } from 'objection';

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

/**
 * The usual soft-delete builder: every query of a model that uses it leaves deleted rows out. Its
 * constructor takes the model class, which objection's typings do not declare (hence the
 * @ts-expect-error lines); the plugin must take such a model in `collections` all the same.
 */
export class SoftDeleteQueryBuilder<M extends Model, R = M[]> extends QueryBuilder<M, R> {
  declare ArrayQueryBuilderType: SoftDeleteQueryBuilder<M, M[]>;
  declare SingleQueryBuilderType: SoftDeleteQueryBuilder<M, M>;
  declare MaybeSingleQueryBuilderType: SoftDeleteQueryBuilder<M, M | undefined>;
  declare NumberQueryBuilderType: SoftDeleteQueryBuilder<M, number>;
  declare PageQueryBuilderType: SoftDeleteQueryBuilder<M, Page<M>>;

  constructor(modelClass: ModelClass<M>) {
    // @ts-expect-error -- objection declares QueryBuilder without constructor parameters; it takes the model class
    super(modelClass);
    this.whereNull('notes.deleted_at');
  }
}

// @ts-expect-error -- the static QueryBuilder's constructor differs from objection's declared one (see above)
export class Note extends Model {
  declare QueryBuilderType: SoftDeleteQueryBuilder<this>;
  static QueryBuilder = SoftDeleteQueryBuilder;

  static get tableName() {
    return 'notes';
  }

  static getProjectableFields() {
    return ['id', 'text'];
  }
}
