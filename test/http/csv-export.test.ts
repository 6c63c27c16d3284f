// CSV export (docs/query-language.md, "Export as CSV"): the same records as the JSON answer, as RFC
// 4180 text with a header row, every column type in its JSON output form, the formula guard on text
// but not on numbers, `format=csv` and `Accept: text/csv`, the refusals, and the whole list streamed
// in batches in the request's order, counted first against limits.maxExportRows.

import { expect } from 'chai';
import { Model } from 'objection';
import { expectOk, idsOf, rowsOf } from '../support/app';
import { csvRecords, expectedCell, parseCsv } from '../support/csv';
import { expectProblem } from '../support/problems';
import { useTypedApp } from '../support/typed-fixture';

class Note extends Model {
  static override tableName = 'notes';
}

const NOTES_SQL: readonly string[] = [
  `create type shade as enum ('dark', 'light')`,
  `create table notes (
     id integer primary key,
     title text,
     amount numeric(8,2),
     n integer,
     big bigint,
     ratio double precision,
     flag boolean,
     day date,
     at timestamptz,
     local timestamp,
     meta jsonb,
     tags text[],
     shade shade,
     uid uuid
   )`,
  `insert into notes values
     (1, 'plain', 12.50, -5, 9007199254740993, -0.5, true, '2025-01-02', '2025-04-17 01:19:49.123456+00', '2025-04-17 01:19:49',
      '{"a": [1, "x,y"]}', '{a,"b, c"}', 'dark', '00000000-0000-4000-8000-000000000001'),
     (2, 'comma, "quoted"', -3.25, 0, -1, 0.25, false, '1999-12-31', '2000-01-01 00:00:00+00', '2000-01-01 00:00:00',
      '[1, 2]', '{}', 'light', '00000000-0000-4000-8000-000000000002'),
     (3, E'line one\\nline two\\r\\nthree', 0, 7, 1, 3, true, null, null, null, '"=HYPERLINK(1)"', '{"=x"}', null, null),
     (4, '=SUM(A1:A2)', null, null, null, null, null, null, null, null, null, null, null, null),
     (5, '+1', null, null, null, null, null, null, null, null, null, null, null, null),
     (6, '-5', null, null, null, null, null, null, null, null, null, null, null, null),
     (7, '@cmd', null, null, null, null, null, null, null, null, null, null, null, null),
     (8, E'\\tTab', null, null, null, null, null, null, null, null, null, null, null, null),
     (9, E'\\rCR', null, null, null, null, null, null, null, null, null, null, null, null),
     (10, '', null, null, null, null, null, null, null, null, null, null, null, null),
     (11, null, null, null, null, null, null, null, null, null, null, null, null, null)`,
];

const NUMBER_COLUMNS = new Set(['id', 'amount', 'n', 'big', 'ratio']);

describe('CSV export', function () {
  // Batches of 3 records: the 11 notes come in four.
  const t = useTypedApp(NOTES_SQL, { notes: Note }, { limits: { exportBatchRows: 3 } });

  it('answers the records JSON answers, as RFC 4180 text: header row, CRLF, quoting, every column type', async function () {
    const json = rowsOf(await t.get('/api/notes?limit=1000'));
    const res = await t.get('/api/notes?format=csv');
    expectOk(res);
    expect(res.headers['content-type']).to.equal('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="notes.csv"');
    const { header, records } = csvRecords(res.text);
    expect(header).to.deep.equal([
      'id',
      'title',
      'amount',
      'n',
      'big',
      'ratio',
      'flag',
      'day',
      'at',
      'local',
      'meta',
      'tags',
      'shade',
      'uid',
    ]);
    expect(records.map((r) => r.id)).to.deep.equal(idsOf(json).map(String));
    json.forEach((record, i) => {
      for (const name of header)
        expect(records[i]?.[name], `${String(record.id)}.${name}`).to.equal(expectedCell(record[name], NUMBER_COLUMNS.has(name)));
    });
    // The same values written out, so the reader above is not the only judge.
    const lines = res.text.split('\r\n');
    expect(lines[1]).to.equal(
      '1,plain,12.50,-5,9007199254740993,-0.5,true,2025-01-02,2025-04-17T01:19:49.123456Z,2025-04-17T01:19:49.000000Z,' +
        '"{""a"":[1,""x,y""]}","[""a"",""b, c""]",dark,00000000-0000-4000-8000-000000000001',
    );
    expect(lines[2]).to.equal(
      '2,"comma, ""quoted""",-3.25,0,-1,0.25,false,1999-12-31,2000-01-01T00:00:00.000000Z,2000-01-01T00:00:00.000000Z,"[1,2]",[],light,00000000-0000-4000-8000-000000000002',
    );
    expect(res.text).to.include('3,"line one\nline two\r\nthree",0.00,7,1,3,true,,,,\'=HYPERLINK(1),"[""=x""]",,\r\n');
  });

  it('guards text a spreadsheet would run (=, +, -, @, tab, CR) with a quote, but writes numbers as they are', async function () {
    const { records } = csvRecords((await t.get('/api/notes?format=csv&filter[id]=>=4&filter[id]=<=9&fields=id,title')).text);
    expect(records).to.deep.equal([
      { id: '4', title: "'=SUM(A1:A2)" },
      { id: '5', title: "'+1" },
      { id: '6', title: "'-5" },
      { id: '7', title: "'@cmd" },
      { id: '8', title: "'\tTab" },
      { id: '9', title: "'\rCR" },
    ]);
    const numbers = parseCsv((await t.get('/api/notes?format=csv&filter[id]=<=2&fields=n,amount,big,ratio')).text);
    expect(numbers).to.deep.equal([
      ['n', 'amount', 'big', 'ratio'],
      ['-5', '12.50', '9007199254740993', '-0.5'],
      ['0', '-3.25', '-1', '0.25'],
    ]);
  });

  it('writes null as an empty cell and an empty string as ""', async function () {
    const res = await t.get('/api/notes?format=csv&filter[id]=>=10&fields=id,title,amount');
    expect(res.text).to.equal('id,title,amount\r\n10,"",\r\n11,,\r\n');
    expect(parseCsv(res.text)).to.deep.equal([
      ['id', 'title', 'amount'],
      ['10', '', null],
      ['11', null, null],
    ]);
  });

  it('Accept: text/csv chooses CSV, with Vary: Accept; format=csv chooses it whatever Accept says', async function () {
    const accepted = await t.get('/api/notes?fields=id&filter[id]=<=2').set('Accept', 'text/csv');
    expectOk(accepted);
    expect([accepted.headers['content-type'], accepted.text]).to.deep.equal(['text/csv; charset=utf-8', 'id\r\n1\r\n2\r\n']);
    expect(accepted.headers.vary).to.equal('Accept');
    const preferred = await t.get('/api/notes?fields=id&filter[id]=1').set('Accept', 'application/json, text/csv;q=0.5');
    expect([preferred.headers['content-type'], preferred.text]).to.deep.equal(['application/json; charset=utf-8', '[{"id":1}]']);
    expect(preferred.headers.vary).to.equal('Accept');
    const any = await t.get('/api/notes?fields=id&filter[id]=1').set('Accept', '*/*');
    expect(any.headers['content-type']).to.equal('application/json; charset=utf-8');
    const chosen = await t.get('/api/notes?fields=id&filter[id]=1&format=csv').set('Accept', 'application/json');
    expect([chosen.headers['content-type'], chosen.text]).to.deep.equal(['text/csv; charset=utf-8', 'id\r\n1\r\n']);
    expect(chosen.headers.vary).to.equal(undefined);
  });

  it('exports one page with page parameters or limit, with an ETag a later request can revalidate', async function () {
    const page = await t.get('/api/notes?format=csv&fields=id&per-page=3&page=2');
    expectOk(page);
    expect(page.text).to.equal('id\r\n4\r\n5\r\n6\r\n');
    const again = await t.get('/api/notes?format=csv&fields=id&per-page=3&page=2').set('If-None-Match', String(page.headers.etag));
    expect(again.status).to.equal(304);
    const json = await t.get('/api/notes?fields=id&per-page=3&page=2');
    expect(json.headers.etag).to.not.equal(page.headers.etag);
    expect((await t.get('/api/notes?format=csv&fields=id&limit=2&offset=8')).text).to.equal('id\r\n9\r\n10\r\n');
  });

  it('streams the whole list without an ETag (its body is not known before it is sent)', async function () {
    const res = await t.get('/api/notes?format=csv&fields=id');
    expectOk(res);
    expect(res.headers.etag).to.equal(undefined);
    expect(res.headers['transfer-encoding']).to.equal('chunked');
    expect(res.text).to.equal(`id\r\n${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].join('\r\n')}\r\n`);
  });

  it('refuses what a CSV answer has no place for, naming each parameter', async function () {
    expectProblem(await t.get('/api/notes?format=csv&total=exact&per-page=2'), {
      code: 'CONFLICTING_PARAMETERS',
      errors: [{ code: 'CONFLICTING_PARAMETERS', parameter: 'total' }],
    });
    expectProblem(await t.get('/api/notes?cursor=&format=csv'), {
      code: 'CONFLICTING_PARAMETERS',
      errors: [{ code: 'CONFLICTING_PARAMETERS', parameter: 'cursor' }],
    });
    expectProblem(await t.get('/api/notes?facet[shade]&per-page=2').set('Accept', 'text/csv'), {
      code: 'CONFLICTING_PARAMETERS',
      errors: [{ code: 'CONFLICTING_PARAMETERS', parameter: 'facet[shade]' }],
    });
    expectProblem(await t.get('/api/notes?format=json'), {
      code: 'MALFORMED_PARAMETER',
      errors: [{ code: 'MALFORMED_PARAMETER', parameter: 'format', allowed: ['csv'] }],
    });
  });
});
