// getFullTextSearch() is checked at start-up like the other declarations (docs/configuration.md,
// "Start-up checks"): a language that is no text search configuration, a field that is hidden or
// not text, a column that is no tsvector, and a shape that is neither form each reject
// queryModifiers(...) with a line naming the model, the field and the fix.

import { expect } from 'chai';
import { queryModifiers } from '../../plugin';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { createRankedTables, Memo, Note } from './ranked-models';

class NoteInKlingon extends Note {
  static override getFullTextSearch(): unknown {
    return { language: 'klingon', fields: { title: 'A' } };
  }
}

class NoteWithNumber extends Note {
  static override getFullTextSearch(): unknown {
    return { language: 'english', fields: { id: 'A', title: 'E' } };
  }
}

class NoteWithHiddenField extends Note {
  static getProjectableFields(): string[] {
    return ['id', 'title'];
  }
  static override getSearchableFields(): string[] {
    return ['title'];
  }
  static override getFullTextSearch(): unknown {
    return { language: 'english', fields: { title: 'A', body: 'B' } };
  }
}

class MemoWithTextColumn extends Memo {
  static override getFullTextSearch(): unknown {
    return { language: 'simple', column: 'text' };
  }
}

class MemoWithBoth extends Memo {
  static override getFullTextSearch(): unknown {
    return { language: 'simple', column: 'document', fields: { text: 'A' } };
  }
}

describe('ranked search declarations at start-up', function () {
  let db: TestDatabase;

  before(async function () {
    db = await createTestDatabase({ empty: true, prepare: (knex) => createRankedTables(knex, false) });
  });

  after(async function () {
    await db.destroy();
  });

  const startupError = async (collections: Record<string, typeof Note>): Promise<string> => {
    try {
      const router = await queryModifiers({ knex: db.knex, collections, logger: { error: () => undefined } });
      router.close();
    } catch (error) {
      return (error as Error).message;
    }
    return expect.fail('start-up succeeded');
  };

  it('a language that is no text search configuration', async function () {
    const message = await startupError({ notes: NoteInKlingon });
    expect(message).to.match(/^koa-query-modifiers: invalid collection declarations:/);
    expect(message).to.contain('NoteInKlingon.getFullTextSearch().language "klingon" is not a text search configuration');
    expect(message).to.contain('english');
  });

  it('a field that is not text, a weight that is not A to D, a hidden field', async function () {
    const message = await startupError({ notes: NoteWithNumber, hidden: NoteWithHiddenField });
    expect(message).to.contain('NoteWithNumber.getFullTextSearch().fields names "id", which is not a text column of table "notes"');
    expect(message).to.contain("NoteWithNumber.getFullTextSearch().fields.title must be one of the weights 'A', 'B', 'C' or 'D'");
    expect(message).to.contain('NoteWithHiddenField.getFullTextSearch().fields names "body", which is not a visible field');
  });

  it('a column that is no tsvector, and both forms at once', async function () {
    const message = await startupError({ memos: MemoWithTextColumn, both: MemoWithBoth });
    expect(message).to.contain('MemoWithTextColumn.getFullTextSearch().column "text" is not a tsvector column of table "memos"');
    expect(message).to.contain('MemoWithBoth.getFullTextSearch() must give either fields');
  });
});
