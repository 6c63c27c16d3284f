// The record schemas against real output: a table with one column of every type the catalog knows,
// its records validated against the documented schema, and its typed parameters checked both ways.

import { expect } from 'chai';
import { Model } from 'objection';
import supertest from 'supertest';
import { startApp, useApp, type TestApp } from '../support/app';
import { documentFor, outsideValue } from './openapi-probes';
import { DocumentSchemas, asJson, companions, okSchema, pair, parametersOf, serialize, type Json } from './openapi-support';

/** One column of every type the catalog knows, to check the record schema against real output. */
class Kind extends Model {
  static override tableName = 'openapi_kinds';
}

describe('OpenAPI record schemas by column type', function () {
  const app = useApp();
  let server: TestApp;
  let doc: Json;

  before(async function () {
    const knex = app.db.knex;
    await knex.raw(`create type openapi_mood as enum ('sad', 'ok', 'happy')`);
    await knex.raw(`create table openapi_kinds (
      id serial primary key, small smallint, big bigint not null, amount numeric(10,2), ratio double precision,
      label text not null, flag boolean, at timestamptz, local_at timestamp, day date, ident uuid, doc jsonb,
      address inet, mood openapi_mood, tags text[], counts bigint[] not null default '{}', moods openapi_mood[])`);
    await knex.raw(`insert into openapi_kinds (small, big, amount, ratio, label, flag, at, local_at, day, ident, doc, address,
      mood, tags, counts, moods) values
      (-3, 9007199254740993, 12.50, 0.25, 'full', true, '2025-04-17T01:19:49.123456Z', '2025-04-17 01:19:49.5', '2025-04-17',
       '0b6c9c3e-5f0a-4c1e-9a8e-2f4d7c1b9e10', '{"a": [1, "b"]}', '10.0.0.1', 'ok', '{a,NULL}', '{9007199254740993,2}', '{happy,NULL}')`);
    await knex.raw(`insert into openapi_kinds (big, label) values (7, 'empty')`);
    server = await startApp(knex, { collections: { kinds: Kind } });
    doc = await documentFor(knex, { kinds: Kind });
  });

  after(async function () {
    await server?.close();
  });

  it('maps each column type to its JSON form, nullable columns with null', function () {
    const props = asJson(asJson(asJson(asJson(doc.components, 'c').schemas, 's')['record.kinds'], 'r').properties, 'p');
    const type = (name: string): unknown => asJson(props[name], name).type;
    expect(type('id')).to.equal('integer');
    expect(type('small')).to.deep.equal(['integer', 'null']);
    expect(type('big')).to.deep.equal(['integer', 'string']);
    expect(type('amount')).to.deep.equal(['string', 'null']);
    expect(type('ratio')).to.deep.equal(['number', 'null']);
    expect(type('label')).to.equal('string');
    expect(type('flag')).to.deep.equal(['boolean', 'null']);
    expect(asJson(props.at, 'at')).to.deep.include({ type: ['string', 'null'], format: 'date-time' });
    expect(asJson(props.day, 'day')).to.deep.include({ type: ['string', 'null'], format: 'date' });
    expect(asJson(props.ident, 'ident')).to.deep.include({ format: 'uuid' });
    expect(props.doc).to.deep.equal({});
    expect(asJson(props.mood, 'mood')).to.deep.include({ type: ['string', 'null'], enum: ['sad', 'ok', 'happy', null] });
    expect(asJson(props.tags, 'tags')).to.deep.include({ type: ['array', 'null'], items: { type: ['string', 'null'] } });
    expect(asJson(asJson(props.counts, 'counts').items, 'counts.items')).to.deep.include({ type: ['integer', 'string', 'null'] });
    expect(asJson(asJson(props.moods, 'moods').items, 'moods.items')).to.deep.include({ enum: ['sad', 'ok', 'happy', null] });
  });

  it('documents no between for arrays and JSON, and only = and <> in their filter patterns', function () {
    const names = parametersOf(doc, '/api/kinds').map((p) => p.name);
    expect(names).to.include.members(['between[mood]', 'filter[tags]', 'in[tags]', 'filter[doc]']);
    expect(names).not.to.include.members(['between[tags]', 'between[counts]', 'between[doc]']);
    const filterCounts = parametersOf(doc, '/api/kinds').find((p) => p.name === 'filter[counts]');
    const validate = new DocumentSchemas(doc).compile(asJson(filterCounts?.schema, 'filter[counts]'));
    expect([validate('2'), validate('<>2'), validate('null'), validate('>2'), validate('two')]).to.deep.equal([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('validates the real records, typed filter examples are accepted and typed nonsense refused', async function () {
    const schemas = new DocumentSchemas(doc);
    const validate = schemas.compile(okSchema(doc, '/api/kinds'));
    for (const query of ['', 'per-page=1']) {
      const res = await supertest(server.origin).get(`/api/kinds?${query}`);
      expect(res.status).to.equal(200);
      expect(validate(res.body), `${JSON.stringify(res.body)}: ${schemas.errorsText(validate)}`).to.equal(true);
    }
    for (const p of parametersOf(doc, '/api/kinds')) {
      const res = await supertest(server.origin).get(`/api/kinds?${pair(p.name, p.example)}${companions(p.name)}`);
      expect(res.status, `${p.name}=${serialize(p.example)}: ${res.text}`).to.equal(200);
      const validate = schemas.compile(p.schema);
      const value = outsideValue(p, (v) => validate(/^(page|per-page|page-size|limit|offset)$/.test(p.name) ? Number(v) : v));
      if (value === undefined) continue;
      const bad = await supertest(server.origin).get(`/api/kinds?${pair(p.name, value)}${companions(p.name)}`);
      expect(bad.status, `${p.name}=${value}`).to.equal(400);
    }
  });
});
