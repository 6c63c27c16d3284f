// One long response cannot stall the others (docs/reliability.md, What is bounded): while the plugin
// shapes a response of thousands of records with nested expansions, a cheap request sent once the
// shaping has begun is answered before the shaping ends. What is observed is an order of events
// (how many of the long response's records had been built when the cheap answer arrived), not a
// duration, so it holds on a fast machine and a slow one alike.

import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { Model, type Pojo, type RelationMappings } from 'objection';
import supertest from 'supertest';
import { startApp, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';

const AUTHORS = 4000;
const every = { projectable_fields: ['*'], sortable_fields: ['*'], searchable_fields: ['*'], filterable_fields: ['*'] };

/** Called with each author record the plugin builds through the model's own JSON. */
let onAuthorBuilt: () => void = () => undefined;
/** Called each time a comment's body is written as JSON text. */
let onBodyWritten: () => void = () => undefined;

class Author extends Model {
  static override tableName = 'y_authors';

  override $formatJson(json: Pojo): Pojo {
    onAuthorBuilt();
    return super.$formatJson(json);
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { posts: { options: every } };
  }

  static override get relationMappings(): RelationMappings {
    return { posts: { relation: Model.HasManyRelation, modelClass: Post, join: { from: 'y_authors.id', to: 'y_posts.author_id' } } };
  }
}

class Post extends Model {
  static override tableName = 'y_posts';

  static getExpandableRelations(): Record<string, unknown> {
    return { author: { options: every }, comments: { options: every } };
  }

  static override get relationMappings(): RelationMappings {
    return {
      author: { relation: Model.BelongsToOneRelation, modelClass: Author, join: { from: 'y_posts.author_id', to: 'y_authors.id' } },
      comments: { relation: Model.HasManyRelation, modelClass: Comment, join: { from: 'y_posts.id', to: 'y_comments.post_id' } },
    };
  }
}

/** A comment's JSON holds its body as a value that writes itself, as a host's decimal or money type does. */
class Comment extends Model {
  static override tableName = 'y_comments';

  override $formatJson(json: Pojo): Pojo {
    const formatted = super.$formatJson(json);
    const body: unknown = formatted.body;
    formatted.body = {
      toJSON: () => {
        onBodyWritten();
        return body;
      },
    };
    return formatted;
  }
}

class Tag extends Model {
  static override tableName = 'y_tags';
}

async function createTables(knex: Knex): Promise<void> {
  for (const statement of [
    'create table y_authors (id integer primary key, name text not null, bio text not null)',
    'create table y_posts (id integer primary key, author_id integer not null references y_authors, title text not null)',
    'create table y_comments (id integer primary key, post_id integer not null references y_posts, body text not null)',
    'create table y_tags (id integer primary key, label text not null)',
    `insert into y_authors select n, 'author ' || n, repeat('bio ', 20) from generate_series(1, ${AUTHORS}) as n`,
    `insert into y_posts select n, (n + 1) / 2, 'post ' || n from generate_series(1, ${AUTHORS * 2}) as n`,
    `insert into y_comments select n, n, 'comment ' || n from generate_series(1, ${AUTHORS * 2}) as n`,
    "insert into y_tags values (1, 'cheap')",
  ])
    await knex.raw(statement);
}

/** The long request: every author, each with its posts, each post with its comments and its author again. */
const LONG = `/api/authors?limit=${AUTHORS}&expand[posts]=p&p_expand[comments]=c&p_expand[author]=a`;

describe('a long response gives way to other requests', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase({ empty: true, prepare: createTables });
    app = await startApp(db.knex, {
      collections: { authors: Author, tags: Tag },
      maxRows: AUTHORS,
      limits: { maxRelatedRows: AUTHORS * 4 },
    });
  });

  after(async function () {
    this.timeout(60000);
    onAuthorBuilt = () => undefined;
    onBodyWritten = () => undefined;
    await app?.close();
    await db?.destroy();
  });

  /** GETs `path` and resolves with its status once the whole answer has arrived. */
  const cheap = (origin: string, path: string): Promise<number> =>
    new Promise((resolve, reject) => {
      get(`${origin}${path}`, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0)).on('error', reject);
      }).on('error', reject);
    });

  it('answers a cheap request sent when shaping began before the shaping ends', async function () {
    this.timeout(120000);
    if (app === undefined) throw new Error('setup failed');
    const { origin } = app;
    let built = 0;
    let builtWhenAnswered: number | undefined;
    let cheapStatus: Promise<number> | undefined;
    onAuthorBuilt = () => {
      built += 1;
      if (built === 1) {
        cheapStatus = cheap(origin, '/api/tags').then((status) => {
          builtWhenAnswered = built;
          return status;
        });
      }
    };
    const res = await supertest(origin).get(LONG);
    onAuthorBuilt = () => undefined;
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    const body = res.body as { posts: { comments: unknown[]; author: { id: number } }[] }[];
    expect(body).to.have.length(AUTHORS);
    expect(body[AUTHORS - 1]?.posts[1]?.comments).to.have.length(1);
    // Each root author, and each post's author again.
    expect(built).to.equal(AUTHORS * 3);
    expect(await cheapStatus).to.equal(200);
    // Without slices the cheap request waits until every record is built (and written).
    expect(builtWhenAnswered, 'author records built when the cheap answer arrived')
      .to.be.a('number')
      .below(AUTHORS * 3);
  });

  it('answers a cheap request sent when writing the JSON text began before the writing ends', async function () {
    this.timeout(120000);
    if (app === undefined) throw new Error('setup failed');
    const { origin } = app;
    let written = 0;
    let writtenWhenAnswered: number | undefined;
    let cheapStatus: Promise<number> | undefined;
    onBodyWritten = () => {
      written += 1;
      if (written === 1) {
        cheapStatus = cheap(origin, '/api/tags').then((status) => {
          writtenWhenAnswered = written;
          return status;
        });
      }
    };
    const res = await supertest(origin).get(LONG);
    onBodyWritten = () => undefined;
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    const body = res.body as { posts: { comments: { body: string }[] }[] }[];
    expect(body[0]?.posts[0]?.comments[0]?.body).to.equal('comment 1');
    expect(written).to.equal(AUTHORS * 2);
    expect(await cheapStatus).to.equal(200);
    // Without slices the cheap request waits until the whole text is written (and sent).
    expect(writtenWhenAnswered, 'comment bodies written when the cheap answer arrived')
      .to.be.a('number')
      .below(AUTHORS * 2);
  });

  it('sends the long answer with the ETag of its bytes, and 304 to a client that holds them', async function () {
    this.timeout(120000);
    if (app === undefined) throw new Error('setup failed');
    const res = await supertest(origin())
      .get(LONG)
      .buffer(true)
      .parse((r, done) => {
        const parts: Buffer[] = [];
        r.on('data', (part: Buffer) => parts.push(part)).on('end', () => done(null, Buffer.concat(parts)));
      });
    expect(res.status).to.equal(200);
    const bytes = res.body as Buffer;
    expect(res.headers['content-length']).to.equal(String(bytes.length));
    expect(res.headers.etag).to.equal(`W/"${createHash('sha1').update(bytes).digest('base64url')}"`);
    const again = await supertest(origin()).get(LONG).set('If-None-Match', String(res.headers.etag));
    expect(again.status).to.equal(304);

    function origin(): string {
      if (app === undefined) throw new Error('setup failed');
      return app.origin;
    }
  });
});
