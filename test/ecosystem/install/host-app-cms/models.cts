// The host's own models, as its own code uses them: camelCase properties over snake_case columns
// (snakeCaseMappers), tables in the `cms` schema, an author whose JSON masks the e-mail address and
// adds a virtual full name, and a join table with an extra column.
import { Model, snakeCaseMappers, type Pojo } from 'objection';

class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}

export class Tag extends BaseModel {
  static override tableName = 'tags';
}

export class Author extends BaseModel {
  static override tableName = 'cms.authors';
  static override virtualAttributes = ['fullName'];
  declare firstName: string;
  declare lastName: string;

  get fullName() {
    return `${this.firstName} ${this.lastName}`;
  }

  override $formatJson(json: Pojo) {
    const formatted = super.$formatJson(json);
    if (typeof formatted.email === 'string') formatted.email = formatted.email.replace(/^(.)[^@]*/, '$1***');
    return formatted;
  }

  // tenantId stays private to the host.
  static getProjectableFields() {
    return ['id', 'firstName', 'lastName', 'fullName', 'email', 'mood', 'interests', 'settings', 'profile', 'location', 'rating'];
  }

  static getExpandableRelations() {
    return {
      articles: { options: { projectable_fields: ['id', 'title'] } },
      editedArticles: { options: { projectable_fields: ['id', 'title'] } },
    };
  }

  static override get relationMappings() {
    return {
      articles: { relation: Model.HasManyRelation, modelClass: Article, join: { from: 'cms.authors.id', to: 'cms.articles.author_id' } },
      editedArticles: {
        relation: Model.HasManyRelation,
        modelClass: Article,
        join: { from: 'cms.authors.id', to: 'cms.articles.editor_id' },
      },
    };
  }
}

export class Article extends BaseModel {
  static override tableName = 'cms.articles';

  static getProjectableFields() {
    return ['id', 'authorId', 'editorId', 'title'];
  }

  static getExpandableRelations() {
    return {
      author: { options: { projectable_fields: ['id', 'fullName'] } },
      tags: { options: { projectable_fields: ['id', 'label', 'position'], sortable_fields: ['position'] } },
    };
  }

  static override get relationMappings() {
    return {
      author: { relation: Model.BelongsToOneRelation, modelClass: Author, join: { from: 'cms.articles.author_id', to: 'cms.authors.id' } },
      tags: {
        relation: Model.ManyToManyRelation,
        modelClass: Tag,
        join: {
          from: 'cms.articles.id',
          through: { from: 'cms.article_tags.article_id', to: 'cms.article_tags.tag_id', extra: ['position'] },
          to: 'tags.id',
        },
      },
    };
  }
}
