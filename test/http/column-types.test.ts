// Enums, arrays and jsonb (docs/query-language.md, "Enums, arrays and JSON") on the `tasks` table,
// the example of docs/query-language.md: enums in their declared order, arrays as JSON arrays with
// "contains" conditions, jsonb compared as JSON values, and every wrong use refused before any SQL
// runs.

import { expect } from 'chai';
import { expectOk } from '../support/app';
import { expectProblem } from '../support/problems';
import { MOOD_LABELS, TASKS_SQL, Task, useTypedApp } from '../support/typed-fixture';

const enc = encodeURIComponent;

describe('column types: enum, arrays, jsonb', function () {
  const t = useTypedApp(TASKS_SQL, { tasks: Task }, { admin: {} });
  const ids = (query: string): Promise<number[]> => t.ids('tasks', query);

  it('records carry enum labels, arrays as JSON arrays and jsonb values', async function () {
    const res = await t.get('/api/tasks');
    expectOk(res);
    expect(res.text).to.equal(
      '[' +
        '{"id":1,"title":"Write docs","mood":"happy","tags":["docs","writing"],"points":[1,2,3],"meta":{"done":true,"owner":"ann"}},' +
        '{"id":2,"title":"Fix login","mood":"sad","tags":["code"],"points":[5],"meta":{"owner":"bob"}},' +
        '{"id":3,"title":"Review","mood":"ok","tags":[],"points":[],"meta":[1,2]},' +
        '{"id":4,"title":"Plan","mood":null,"tags":null,"points":null,"meta":null},' +
        '{"id":5,"title":"Ship","mood":"happy","tags":["code","release, final"],"points":[2,null],"meta":"done"}]',
    );
  });

  it("_meta tells the admin UI an enum's labels and an array's element type", async function () {
    const res = await t.get('/api/_meta/tasks');
    expectOk(res);
    const fields = (res.body as { fields: Record<string, unknown>[] }).fields;
    expect(fields.find((f) => f.name === 'mood')).to.deep.equal({
      name: 'mood',
      type: 'enum',
      nullable: true,
      labels: ['sad', 'ok', 'happy'],
    });
    expect(fields.find((f) => f.name === 'points')).to.deep.equal({
      name: 'points',
      type: 'array',
      nullable: true,
      elementType: 'integer',
    });
    expect(fields.find((f) => f.name === 'meta')).to.deep.equal({ name: 'meta', type: 'json', nullable: true });
  });

  describe('enum', function () {
    it('= and <> compare labels; <> includes NULL', async function () {
      expect(await ids('filter[mood]=ok')).to.deep.equal([3]);
      expect(await ids('filter[mood]=<>happy')).to.deep.equal([2, 3, 4]);
      expect(await ids('filter[mood]=null')).to.deep.equal([4]);
    });

    it('<, >, <=, >= and between follow the declared order (sad < ok < happy), not the alphabet', async function () {
      expect(await ids('filter[mood]=<happy')).to.deep.equal([2, 3]);
      expect(await ids('filter[mood]=>sad')).to.deep.equal([1, 3, 5]);
      expect(await ids('filter[mood]=<=ok')).to.deep.equal([2, 3]);
      expect(await ids('filter[mood]=>=ok')).to.deep.equal([1, 3, 5]);
      expect(await ids('between[mood]=sad,ok')).to.deep.equal([2, 3]);
      expect(await ids('between[mood]=ok,happy')).to.deep.equal([1, 3, 5]);
    });

    it('in lists labels and null', async function () {
      expect(await ids('in[mood]=sad,happy')).to.deep.equal([1, 2, 5]);
      expect(await ids('in[mood]=ok,null')).to.deep.equal([3, 4]);
    });

    it('sort uses the declared order, NULL last ascending and first descending', async function () {
      expect(await ids('sort[mood]')).to.deep.equal([2, 3, 1, 5, 4]);
      expect(await ids('sort[mood]=desc')).to.deep.equal([4, 1, 5, 3, 2]);
    });

    it('search matches the label text', async function () {
      expect(await ids('search[mood]=AP')).to.deep.equal([1, 5]);
    });

    it('a value that is not a label is INVALID_VALUE listing the labels, in filter, in and between', async function () {
      const body = expectProblem(await t.get('/api/tasks?filter[mood]=glad'), {
        code: 'INVALID_VALUE',
        parameter: 'filter[mood]',
        allowed: [...MOOD_LABELS],
      });
      expect(body.allowed).to.deep.equal(['sad', 'ok', 'happy']);
      expect(body.detail).to.equal('`filter[mood]`: "glad" is not one of the labels of this enum (field mood is enum)');
      expectProblem(await t.get('/api/tasks?in[mood]=sad,OK'), { code: 'INVALID_VALUE', parameter: 'in[mood]', allowed: [...MOOD_LABELS] });
      expectProblem(await t.get('/api/tasks?between[mood]=sad,'), { code: 'MALFORMED_PARAMETER', parameter: 'between[mood]' });
      expectProblem(await t.get(`/api/tasks?between[mood]=sad,${enc('"happy "')}`), {
        code: 'INVALID_VALUE',
        parameter: 'between[mood]',
        allowed: [...MOOD_LABELS],
      });
    });
  });

  describe('arrays', function () {
    it('= means "contains", compared exactly (case-sensitive, quoted elements with commas)', async function () {
      expect(await ids('filter[tags]=code')).to.deep.equal([2, 5]);
      expect(await ids('filter[tags]==code')).to.deep.equal([2, 5]);
      expect(await ids('filter[tags]=Code')).to.deep.equal([]);
      expect(await ids(`filter[tags]=${enc('"release, final"')}`)).to.deep.equal([5]);
      expect(await ids('filter[points]=2')).to.deep.equal([1, 5]);
    });

    it('<> means "does not contain" and includes NULL arrays; empty arrays contain nothing', async function () {
      expect(await ids('filter[tags]=<>code')).to.deep.equal([1, 3, 4]);
      expect(await ids('filter[points]=<>2')).to.deep.equal([2, 3, 4]);
    });

    it('null is IS NULL / IS NOT NULL, never the empty array', async function () {
      expect(await ids('filter[tags]=null')).to.deep.equal([4]);
      expect(await ids('filter[tags]=<>null')).to.deep.equal([1, 2, 3, 5]);
    });

    it('in means "contains any of them"; a null item matches a NULL array, not an empty one', async function () {
      expect(await ids('in[tags]=docs,code')).to.deep.equal([1, 2, 5]);
      expect(await ids('in[tags]=writing,null')).to.deep.equal([1, 4]);
      expect(await ids('in[tags]=null')).to.deep.equal([4]);
      expect(await ids('in[points]=3,5')).to.deep.equal([1, 2]);
    });

    it('negation and logical prefixes work as for any clause', async function () {
      expect(await ids('filter[tags]=code&filter[and! points]=5')).to.deep.equal([5]);
      expect(await ids('filter[tags]=docs&filter[or points]=5')).to.deep.equal([1, 2]);
      expect(await ids('in[and! tags]=code')).to.deep.equal([1, 3, 4]);
    });

    it("search matches the array's text form", async function () {
      expect(await ids('search[tags]=WRIT')).to.deep.equal([1]);
      expect(await ids(`search[tags]=${enc('release, final')}`)).to.deep.equal([5]);
    });

    it('sort orders arrays element by element, shorter first on a tie, NULL last', async function () {
      expect(await ids('sort[points]')).to.deep.equal([3, 1, 5, 2, 4]);
    });

    it('other operators and between are INVALID_VALUE', async function () {
      for (const value of ['>a', '>=a', '<a', '<=a']) {
        expectProblem(await t.get(`/api/tasks?filter[tags]=${enc(value)}`), { code: 'INVALID_VALUE', parameter: 'filter[tags]' });
      }
      const body = expectProblem(await t.get('/api/tasks?between[points]=1,3'), { code: 'INVALID_VALUE', parameter: 'between[points]' });
      expect(body.detail).to.equal('`between[points]`: an array field has no range; use filter or in (field points is integer[])');
      expectProblem(await t.get('/api/tasks?filter[points]=>null'), { code: 'INVALID_VALUE', parameter: 'filter[points]' });
    });

    it('each element value is checked against the element type', async function () {
      expectProblem(await t.get('/api/tasks?filter[points]=two'), { code: 'INVALID_VALUE', parameter: 'filter[points]' });
      const body = expectProblem(await t.get('/api/tasks?in[points]=1,2147483648'), { code: 'INVALID_VALUE', parameter: 'in[points]' });
      expect(body.detail).to.match(/out of range .*\(field points is integer\[\]\)$/);
    });
  });

  describe('jsonb', function () {
    it('= compares JSON values, whatever the spacing or key order', async function () {
      expect(await ids(`filter[meta]=${enc('{ "owner" : "bob" }')}`)).to.deep.equal([2]);
      expect(await ids(`filter[meta]=${enc('{"owner":"ann","done":true}')}`)).to.deep.equal([1]);
      expect(await ids(`filter[meta]=${enc('[1,2]')}`)).to.deep.equal([3]);
      expect(await ids(`filter[meta]=${enc('{"owner":"ann"}')}`)).to.deep.equal([]);
    });

    it('a JSON string is written in its JSON quotes; null is SQL NULL', async function () {
      expect(await ids(`filter[meta]=${enc('"\\"done\\""')}`)).to.deep.equal([5]);
      expect(await ids('filter[meta]=null')).to.deep.equal([4]);
    });

    it('<> includes NULL; in compares each item as JSON', async function () {
      expect(await ids(`filter[meta]=<>${enc('{"owner":"bob"}')}`)).to.deep.equal([1, 3, 4, 5]);
      expect(await ids(`in[meta]=${enc('"[1, 2]",null')}`)).to.deep.equal([3, 4]);
    });

    it('a value that is not JSON, or an ordering operator, is INVALID_VALUE', async function () {
      expectProblem(await t.get(`/api/tasks?filter[meta]=${enc('{owner: "bob"}')}`), { code: 'INVALID_VALUE', parameter: 'filter[meta]' });
      expectProblem(await t.get('/api/tasks?filter[meta]=done'), { code: 'INVALID_VALUE', parameter: 'filter[meta]' });
      expectProblem(await t.get('/api/tasks?filter[meta]=>1'), { code: 'INVALID_VALUE', parameter: 'filter[meta]' });
      expectProblem(await t.get('/api/tasks?between[meta]=1,2'), { code: 'INVALID_VALUE', parameter: 'between[meta]' });
    });

    it('sorts (jsonb has an order)', async function () {
      expect((await ids('sort[meta]')).slice(-1)).to.deep.equal([4]);
    });
  });
});
