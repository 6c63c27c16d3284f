// The response byte budget (docs/configuration.md, limits.maxResponseBytes and maxInFlightBytes):
// requests whose body would be tens of megabytes of 20 KB texts are refused with 400 LIMIT_EXCEEDED
// naming what to ask less of, whether the root's records or an expansion's hold the bytes, on the
// text path (expansions aggregated into the root's statement or read by their own) and through a
// host's scope hook; requests under the budget answer in full, with right totals and cursors; and
// a request arriving while a large answer is still being sent to a client that does not read is
// refused with 503 SERVER_BUSY and Retry-After.

import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import type { Knex } from 'knex';
import { Model, type RelationMappings } from 'objection';
import supertest from 'supertest';
import { startApp, type AppOptions, type TestApp } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { expectProblem } from '../support/problems';

const AUTHORS = 300;
const NOTES_EACH = 5;
const TEXT = 20_000;

async function prepare(knex: Knex): Promise<void> {
  await knex.raw(`create table authors (id integer primary key, num integer not null, bio text not null)`);
  await knex.raw(
    `create table notes (id integer primary key, author_id integer not null references authors, num integer not null, title text not null)`,
  );
  await knex.raw(`insert into authors select g, g, repeat(chr(97 + g % 26), ${TEXT}) from generate_series(1, ${AUTHORS}) g`);
  await knex.raw(
    `insert into notes select g, 1 + (g - 1) / ${NOTES_EACH}, g, repeat(chr(65 + g % 26), ${TEXT}) from generate_series(1, ${AUTHORS * NOTES_EACH}) g`,
  );
}

class Note extends Model {
  static override tableName = 'notes';
}

class Author extends Model {
  static override tableName = 'authors';

  static getProjectableFields(): string[] {
    return ['*'];
  }

  static getSortableFields(): string[] {
    return ['id'];
  }

  static getExpandableRelations(): Record<string, unknown> {
    return { notes: { options: { projectable_fields: ['*'], sortable_fields: ['id'] }, table: 'notes', fk: 'author_id' } };
  }

  static override get relationMappings(): RelationMappings {
    return { notes: { relation: Model.HasManyRelation, modelClass: Note, join: { from: 'authors.id', to: 'notes.author_id' } } };
  }
}

const MIB = 1024 * 1024;

describe('the response byte budget', function () {
  this.timeout(120_000);
  let db: TestDatabase | undefined;
  const apps: TestApp[] = [];

  async function app(options: AppOptions = {}): Promise<string> {
    const started = await startApp((db as TestDatabase).knex, { collections: { authors: Author }, maxRows: 1000, ...options });
    apps.push(started);
    return started.origin;
  }

  before(async function () {
    db = await createTestDatabase({ empty: true, prepare });
  });

  after(async function () {
    for (const started of apps) await started.close();
    await db?.destroy();
  });

  // A scope hook that restricts nothing puts every statement on a builder, and expansions in their own statements.
  const hooked: AppOptions = { scope: async () => {} };

  describe('with the default budget (8 MiB)', function () {
    it('refuses the 30 MB answer of 20 KB titles expanded under every author, naming the alias fields', async function () {
      const origin = await app();
      const res = await supertest(origin).get('/api/authors?limit=1000&fields=id&expand[notes]=n&n_fields=title');
      const body = expectProblem(res, { code: 'LIMIT_EXCEEDED', parameter: 'n_fields', allowed: 8 * MIB });
      expect(body.detail).to.match(/larger than 8388608 bytes.*`n_fields`.*fewer or smaller fields/);
    });
  });

  describe('with a budget of 1 MiB', function () {
    const small: AppOptions = { limits: { maxResponseBytes: MIB } };
    for (const [way, options] of [
      ['expansions aggregated into the root statement', small],
      ['through a scope hook, expansions in their own statements', { ...small, ...hooked }],
    ] as const) {
      describe(way, function () {
        let origin = '';
        before(async function () {
          origin = await app(options);
        });

        it('names the alias fields when one related field holds most of the bytes', async function () {
          const res = await supertest(origin).get('/api/authors?limit=100&fields=id&expand[notes]=n&n_fields=id,title');
          expectProblem(res, { code: 'LIMIT_EXCEEDED', parameter: 'n_fields', allowed: MIB });
          // A per-parent window reads its related rows by a statement of its own.
          const windowed = await supertest(origin).get('/api/authors?limit=100&fields=id&expand[notes]=n&n_fields=id,title&n_limit=4');
          expectProblem(windowed, { code: 'LIMIT_EXCEEDED', parameter: 'n_fields', allowed: MIB });
        });

        it('refuses and answers a request sent again as it did the first time', async function () {
          // The second time, the plugin measures rows by the columns it learnt from the first (bytes.ts).
          for (let time = 0; time < 3; time++) {
            const over = await supertest(origin).get('/api/authors?limit=60&fields=id&expand[notes]=n&n_fields=id,title&n_sort[id]=desc');
            expectProblem(over, { code: 'LIMIT_EXCEEDED', parameter: 'n_fields', allowed: MIB });
            const root = await supertest(origin).get('/api/authors?limit=60&fields=id,num,bio');
            expectProblem(root, { code: 'LIMIT_EXCEEDED', parameter: 'fields', allowed: MIB });
            const under = await supertest(origin).get('/api/authors?limit=8&fields=id&expand[notes]=n&n_fields=id,title&n_sort[id]=desc');
            expect(under.status, under.text.slice(0, 200)).to.equal(200);
            expect((under.body as { notes: unknown[] }[]).map((a) => a.notes.length)).to.deep.equal([5, 5, 5, 5, 5, 5, 5, 5]);
          }
        });

        it('names fields when one root field holds most of the bytes', async function () {
          const res = await supertest(origin).get('/api/authors?limit=100&fields=id,bio');
          expectProblem(res, { code: 'LIMIT_EXCEEDED', parameter: 'fields', allowed: MIB });
        });

        it('answers a request just under the budget in full', async function () {
          // 8 authors x 5 notes x 20 KB: about 800 KB.
          const res = await supertest(origin).get('/api/authors?limit=8&fields=id&expand[notes]=n&n_fields=id,title');
          expect(res.status, res.text.slice(0, 200)).to.equal(200);
          const authors = res.body as { id: number; notes: { id: number; title: string }[] }[];
          expect(authors.map((a) => a.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
          for (const author of authors) {
            expect(author.notes.map((n) => n.id)).to.deep.equal([1, 2, 3, 4, 5].map((i) => (author.id - 1) * NOTES_EACH + i));
            for (const note of author.notes) expect(note.title).to.have.length(TEXT);
          }
        });

        it('keeps the total and the cursors of pages under the budget', async function () {
          const page = await supertest(origin).get('/api/authors?per-page=8&page=2&fields=id,bio');
          expect(page.status, page.text.slice(0, 200)).to.equal(200);
          expect(page.body).to.include({ total: AUTHORS, from: 9, to: 16 });
          const first = await supertest(origin).get('/api/authors?per-page=8&cursor=&fields=id&expand[notes]=n&n_fields=title');
          expect(first.status, first.text.slice(0, 200)).to.equal(200);
          const next = (first.body as { next_cursor: string }).next_cursor;
          const second = await supertest(origin).get(
            `/api/authors?per-page=8&cursor=${encodeURIComponent(next)}&fields=id&expand[notes]=n&n_fields=title`,
          );
          expect((second.body as { data: { id: number }[] }).data.map((a) => a.id)).to.deep.equal([9, 10, 11, 12, 13, 14, 15, 16]);
        });
      });
    }

    it('names limit when many small root records hold the bytes', async function () {
      const origin = await app({ limits: { maxResponseBytes: 1024 } });
      const res = await supertest(origin).get('/api/authors?limit=300&fields=id,num');
      expectProblem(res, { code: 'LIMIT_EXCEEDED', parameter: 'limit', allowed: 1024 });
      const page = await supertest(origin).get('/api/authors?per-page=100&fields=id,num');
      expectProblem(page, { code: 'LIMIT_EXCEEDED', parameter: 'per-page', allowed: 1024 });
    });

    it("names the alias's limit when many small related records hold the bytes", async function () {
      for (const options of [{}, hooked]) {
        const origin = await app({ ...options, limits: { maxResponseBytes: 1024 } });
        const res = await supertest(origin).get('/api/authors?limit=20&fields=id&expand[notes]=n&n_fields=id,num');
        expectProblem(res, { code: 'LIMIT_EXCEEDED', parameter: 'n_limit', allowed: 1024 });
      }
    });
  });

  describe('limits.maxInFlightBytes', function () {
    /** Sends a GET on a raw socket and stops reading once the answer has started. */
    function slowReader(origin: string, path: string): Promise<Socket> {
      const { hostname, port } = new URL(origin);
      return new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => {
          socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
        });
        socket.once('error', reject);
        socket.once('data', (chunk: Buffer) => {
          socket.pause();
          expect(chunk.toString('latin1')).to.match(/^HTTP\/1\.1 200/);
          resolve(socket);
        });
      });
    }

    it('refuses with 503 SERVER_BUSY and Retry-After while a large answer is still in flight, then serves again', async function () {
      const origin = await app({ limits: { maxResponseBytes: 64 * MIB, maxInFlightBytes: MIB } });
      // About 30 MB, far more than the sockets between the two buffer: it stays in flight while nobody reads.
      const reader = await slowReader(origin, '/api/authors?limit=1000&fields=id&expand[notes]=n&n_fields=title');
      const busy = await supertest(origin).get('/api/authors?limit=1&fields=id');
      expectProblem(busy, { code: 'SERVER_BUSY' });
      expect(busy.headers['retry-after']).to.equal('1');
      reader.destroy();
      // Once the answer's connection is gone, its bytes are no longer in flight.
      let status = 0;
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await supertest(origin).get('/api/authors?limit=1&fields=id')).status;
      }
      expect(status).to.equal(200);
    });
  });
});
