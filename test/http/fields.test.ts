// fields / fields!: request order vs declaration order
// (docs/query-language.md, "fields and fields!"), hidden columns never leave the server
// (docs/configuration.md, "Model declarations"), and projection errors.

import { expect } from 'chai';
import { asRow, objectOf, useApp, expectOk } from '../support/app';
import { POST_FIELDS, USER_FIELDS } from '../support/fixture';
import { expectProblem } from '../support/problems';

describe('fields', function () {
  const h = useApp();

  describe('without fields', function () {
    it('every record has the projectable fields in declaration order, not table order', async function () {
      const rows = await h.rows('/api/users');
      expect(rows).to.have.length(23);
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(USER_FIELDS);
    });

    it("'*' means the table's columns in table order", async function () {
      const rows = await h.rows('/api/roles');
      expect(rows).to.deep.equal([
        { id: 1, name: 'admin', level: 10 },
        { id: 2, name: 'editor', level: 5 },
        { id: 3, name: 'viewer', level: 1 },
        { id: 4, name: 'auditor', level: 3 },
      ]);
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(['id', 'name', 'level']);
    });

    it('a hidden column never appears', async function () {
      const users = await h.rows('/api/users');
      for (const row of users) expect(row).to.not.have.property('password_hash');
      const posts = await h.rows('/api/posts');
      expect(posts).to.have.length(11);
      for (const row of posts) {
        expect(Object.keys(row)).to.deep.equal(POST_FIELDS);
        expect(row).to.not.have.property('secret_note');
      }
    });

    it('no hidden value appears anywhere in the response text', async function () {
      const res = await h.get('/api/users?per-page=100');
      expectOk(res);
      expect(res.text).to.not.include('secret');
      const posts = await h.get('/api/posts?expand[author]');
      expectOk(posts);
      expect(posts.text).to.not.include('secret');
    });
  });

  describe('fields=', function () {
    it('returns only the listed fields, in request order', async function () {
      const rows = await h.rows('/api/users?fields=email,id&filter[id]=<3');
      expect(rows).to.deep.equal([
        { email: 'alice@example.com', id: 1 },
        { email: 'bob@example.com', id: 2 },
      ]);
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(['email', 'id']);
    });

    it('the id is not added when not asked for', async function () {
      expect(await h.rows('/api/users?fields=name&filter[id]=3')).to.deep.equal([{ name: 'Smith, John' }]);
    });

    it('filter and sort on fields that are not projected', async function () {
      const rows = await h.rows('/api/users?fields=name&sort[id]=desc&filter[id]=<3');
      expect(rows).to.deep.equal([{ name: 'Bob Stone' }, { name: 'Alice Martin' }]);
    });

    it("request order on a '*' model", async function () {
      const rows = await h.rows('/api/roles?fields=level,id&filter[id]=1');
      expect(rows).to.deep.equal([{ level: 10, id: 1 }]);
      expect(Object.keys(asRow(rows[0]))).to.deep.equal(['level', 'id']);
    });

    it('every projectable field in reverse order', async function () {
      const reversed = [...USER_FIELDS].reverse();
      const rows = await h.rows(`/api/users?fields=${reversed.join(',')}&filter[id]=1`);
      expect(Object.keys(asRow(rows[0]))).to.deep.equal(reversed);
    });

    it('in the paginated envelope too', async function () {
      const res = await h.get('/api/users?fields=id&per-page=2');
      expectOk(res);
      expect(objectOf(res).data).to.deep.equal([{ id: 1 }, { id: 2 }]);
    });
  });

  describe('fields!=', function () {
    it('returns the other fields in declaration order', async function () {
      const rows = await h.rows('/api/users?fields!=updated_at,email&filter[id]=1');
      expect(Object.keys(asRow(rows[0]))).to.deep.equal(USER_FIELDS.filter((f) => f !== 'email' && f !== 'updated_at'));
      expect(asRow(rows[0]).name).to.equal('Alice Martin');
    });

    it('can exclude the id', async function () {
      const rows = await h.rows('/api/roles?fields!=id');
      expect(rows).to.deep.equal([
        { name: 'admin', level: 10 },
        { name: 'editor', level: 5 },
        { name: 'viewer', level: 1 },
        { name: 'auditor', level: 3 },
      ]);
    });

    it("table order on a '*' model", async function () {
      const rows = await h.rows('/api/roles?fields!=name&filter[id]=2');
      expect(rows).to.deep.equal([{ id: 2, level: 5 }]);
      expect(Object.keys(asRow(rows[0]))).to.deep.equal(['id', 'level']);
    });
  });

  describe('errors', function () {
    it('a hidden column in fields is FIELD_NOT_ALLOWED, listing the projectable fields', async function () {
      expectProblem(await h.get('/api/users?fields=id,password_hash'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'fields',
        allowed: USER_FIELDS,
      });
      expectProblem(await h.get('/api/posts?fields=secret_note'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'fields',
        allowed: POST_FIELDS,
      });
    });

    it('a hidden column in fields! is FIELD_NOT_ALLOWED', async function () {
      expectProblem(await h.get('/api/users?fields!=password_hash'), {
        code: 'FIELD_NOT_ALLOWED',
        parameter: 'fields!',
        allowed: USER_FIELDS,
      });
    });

    it('an unknown field is FIELD_NOT_ALLOWED', async function () {
      expectProblem(await h.get('/api/users?fields=bogus,id'), { code: 'FIELD_NOT_ALLOWED', parameter: 'fields', allowed: USER_FIELDS });
    });

    it('fields with fields! is CONFLICTING_PARAMETERS', async function () {
      expectProblem(await h.get('/api/users?fields=id&fields!=name'), { code: 'CONFLICTING_PARAMETERS' });
    });

    it('an empty list is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?fields='), { code: 'MALFORMED_PARAMETER', parameter: 'fields' });
      expectProblem(await h.get('/api/users?fields!='), { code: 'MALFORMED_PARAMETER', parameter: 'fields!' });
    });

    it('an empty item is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?fields=id,,name'), { code: 'MALFORMED_PARAMETER', parameter: 'fields' });
    });

    it('a field listed twice is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?fields=id,name,id'), { code: 'MALFORMED_PARAMETER', parameter: 'fields' });
    });

    it('fields! that leaves nothing is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/roles?fields!=id,name,level'), { code: 'MALFORMED_PARAMETER', parameter: 'fields!' });
      expectProblem(await h.get(`/api/users?fields!=${USER_FIELDS.join(',')}`), { code: 'MALFORMED_PARAMETER', parameter: 'fields!' });
    });

    it('fields given twice is DUPLICATE_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?fields=id&fields=name'), { code: 'DUPLICATE_PARAMETER', parameter: 'fields' });
      expectProblem(await h.get('/api/users?fields!=id&fields!=name'), { code: 'DUPLICATE_PARAMETER', parameter: 'fields!' });
    });

    it('fields[] is MALFORMED_PARAMETER', async function () {
      expectProblem(await h.get('/api/users?fields[]=id'), { code: 'MALFORMED_PARAMETER', parameter: 'fields[]' });
    });
  });
});
