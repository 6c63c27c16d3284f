// The OpenAPI document: valid OpenAPI 3.1 (checked by a maintained validator), strict JSON Schema
// 2020-12 component schemas, and true to the API: every documented parameter, field and relation is
// accepted, every other one refused, and real response bodies match the documented schemas.

import { expect } from 'chai';
import { Validator } from '@seriousme/openapi-schema-validator';
import supertest from 'supertest';
import { problemCodes } from '../../plugin';
import { useApp } from '../support/app';
import { collections } from '../support/fixture';
import {
  aliasFields,
  documentedFields,
  documentFor,
  fieldModifiers,
  outsideValue,
  probe,
  tableColumns,
  type ModelClass,
} from './openapi-probes';
import {
  DocumentSchemas,
  asJson,
  companions,
  okSchema,
  pair,
  parametersOf,
  rawParametersOf,
  resolveRef,
  type Json,
} from './openapi-support';

/** The collection routes; the document's other paths (`openapi.json`, `_meta`) have tests of their own. */
const collectionPaths = Object.keys(collections).map((name) => `/api/${name}`);

describe('OpenAPI document', function () {
  const app = useApp();
  let doc: Json;
  let schemas: DocumentSchemas;
  const get = (path: string): supertest.Test => app.get(path);

  before(async function () {
    doc = await documentFor(app.db.knex, collections);
    schemas = new DocumentSchemas(doc);
  });

  async function expectStatus(path: string, status: number): Promise<supertest.Response> {
    const res = await get(path);
    if (res.status !== status)
      expect.fail(`GET ${decodeURIComponent(path)}: expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
    return res;
  }

  /** 400 whose `errors` include `code` for the parameter (as the API reports it). */
  async function expectRefused(path: string, code: string): Promise<void> {
    const res = await expectStatus(path, 400);
    const errors = asJson(res.body, 'problem').errors as Json[];
    expect(
      errors.map((e) => e.code),
      decodeURIComponent(path),
    ).to.include(code);
  }

  it('is valid OpenAPI 3.1 according to @seriousme/openapi-schema-validator', async function () {
    const result = await new Validator().validate(doc);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(doc.openapi).to.match(/^3\.1\./);
  });

  it('has component schemas that compile as strict JSON Schema 2020-12, and parameter examples that fit their schemas', function () {
    for (const name of Object.keys(asJson(asJson(doc.components, 'components').schemas, 'schemas'))) schemas.named(name);
    for (const path of collectionPaths) {
      for (const p of parametersOf(doc, path)) {
        const validate = schemas.compile(p.schema);
        expect(validate(p.example), `${path} ${p.name} example ${JSON.stringify(p.example)}: ${schemas.errorsText(validate)}`).to.equal(
          true,
        );
      }
    }
  });

  it('states no jsonSchemaDialect (the 3.1 default; tools such as Prism skip checks they cannot place under another)', function () {
    expect(doc).not.to.have.property('jsonSchemaDialect');
  });

  it('describes each bracketed family as one deepObject parameter whose schema takes every documented key and the prefixed forms', function () {
    const families = rawParametersOf(doc, '/api/users').filter((p) => p.style === 'deepObject');
    expect(families.map((p) => p.name)).to.deep.equal([
      'sort',
      'filter',
      'in',
      'between',
      'search',
      'expand',
      'has',
      'has!',
      'count',
      'facet',
      'stats',
    ]);
    const schemaOf = (name: string) => schemas.compile(families.find((p) => p.name === name)?.schema);
    for (const p of families) expect(schemaOf(String(p.name))(p.example), String(p.name)).to.equal(true);
    const filter = schemaOf('filter');
    for (const key of ['status', 'or status', 'AND! posts.status', 'Or! id', 'posts_count', 'or posts_count']) {
      expect(filter({ [key]: 'x' }), key).to.equal(true);
    }
    for (const key of ['nope', 'xor status', 'or  status', 'or nope']) expect(filter({ [key]: 'x' }), key).to.equal(false);
    const search = schemaOf('search');
    expect([search({ 'name,email': 'a' }), search({ 'email,posts.title': 'a' }), search({ 'name,nope': 'a' })]).to.deep.equal([
      true,
      true,
      false,
    ]);
  });

  it('accepts the sort words in any case, as the server does, and nothing else', async function () {
    const sort = parametersOf(doc, '/api/users').find((p) => p.name === 'sort[name]');
    const validate = schemas.compile(sort?.schema);
    for (const word of ['', 'DESC', 'dEsC', 'Ascending', '-', 'D']) {
      expect(validate(word), word).to.equal(true);
      await expectStatus(`/api/users?sort[name]=${word}&limit=1`, 200);
    }
    for (const word of ['sideways', '--', 'desc ']) {
      expect(validate(word), word).to.equal(false);
      await expectStatus(`/api/users?sort[name]=${encodeURIComponent(word)}&limit=1`, 400);
    }
  });

  it('documents its own path, and with the admin the _meta routes, and with explain the _explain route', async function () {
    expect(Object.keys(asJson(doc.paths, 'paths'))).to.deep.equal([...collectionPaths, '/api/openapi.json']);
    const withAdmin = await documentFor(app.db.knex, collections, { admin: { explain: true } });
    expect(Object.keys(asJson(withAdmin.paths, 'paths'))).to.include.members([
      '/api/openapi.json',
      '/api/_meta',
      '/api/_meta/{collection}',
      '/api/_explain/{collection}',
    ]);
    const adminOnly = await documentFor(app.db.knex, collections, { admin: {} });
    expect(Object.keys(asJson(adminOnly.paths, 'paths'))).not.to.include('/api/_explain/{collection}');
  });

  it('lists every problem code and documents the problem+json responses', function () {
    const problem = asJson(asJson(asJson(doc.components, 'components').schemas, 'schemas').Problem, 'Problem');
    const code = asJson(asJson(problem.properties, 'properties').code, 'code');
    expect(code.enum).to.deep.equal(Object.keys(problemCodes));
    const get = asJson(asJson(asJson(doc.paths, 'paths')['/api/users'], 'path').get, 'get');
    const responses = asJson(get.responses, 'responses');
    expect(Object.keys(responses)).to.include.members(['200', '400', '404', '503']);
    expect(Object.keys(responses)).not.to.include('401');
    const bad = resolveRef(doc, responses['400']);
    expect(Object.keys(asJson(bad.content, 'content'))).to.deep.equal(['application/problem+json']);
  });

  it('documents 401 and 403 when an authorize hook is configured', async function () {
    const withAuth = await documentFor(app.db.knex, collections, { authorize: () => true });
    const get = asJson(asJson(asJson(withAuth.paths, 'paths')['/api/posts'], 'path').get, 'get');
    expect(Object.keys(asJson(get.responses, 'responses'))).to.include.members(['401', '403']);
  });

  it('describes nullable columns with a null type and expansions as optional properties', function () {
    const users = asJson(schemas.named('record.users').schema, 'record.users');
    const props = asJson(users.properties, 'properties');
    expect(asJson(props.score, 'score').type).to.deep.equal(['string', 'null']);
    expect(asJson(props.id, 'id').type).to.equal('integer');
    expect(asJson(props.created_at, 'created_at')).to.include({ type: 'string', format: 'date-time' });
    expect(asJson(props.birthday, 'birthday')).to.deep.include({ type: ['string', 'null'], format: 'date' });
    expect(asJson(props.posts, 'posts').type).to.equal('array');
    expect(asJson(props.phone, 'phone').oneOf).to.have.length(2);
    expect(props).not.to.have.property('password_hash');
    expect(users).not.to.have.property('required');
  });

  it('accepts every documented parameter with its example (200)', async function () {
    for (const path of collectionPaths) {
      for (const p of parametersOf(doc, path)) await expectStatus(`${path}?${pair(p.name, p.example)}${companions(p.name)}`, 200);
    }
  });

  it('refuses values outside a documented parameter schema (400)', async function () {
    let checked = 0;
    for (const path of collectionPaths) {
      for (const p of parametersOf(doc, path)) {
        const validate = schemas.compile(p.schema);
        const value = outsideValue(p, (v) => validate(/^(page|per-page|page-size|limit|offset)$/.test(p.name) ? Number(v) : v));
        if (value === undefined) continue;
        await expectStatus(`${path}?${pair(p.name, value)}`, 400);
        checked += 1;
      }
    }
    expect(checked).to.be.greaterThan(20);
    const perPage = asJson(resolveRef(doc, { $ref: '#/components/parameters/per-page' }).schema, 'per-page schema');
    expect(perPage.maximum).to.equal(100);
    await expectStatus('/api/users?per-page=100', 200);
    await expectRefused('/api/users?per-page=101', 'PAGE_SIZE_TOO_LARGE');
  });

  it('allows exactly the documented fields for each modifier, over every column of each table', async function () {
    for (const [name, model] of Object.entries(collections) as [string, ModelClass][]) {
      const path = `/api/${name}`;
      const documented = documentedFields(parametersOf(doc, path));
      const columns = await tableColumns(app.db.knex, model.tableName);
      for (const modifier of fieldModifiers) {
        for (const column of columns) {
          const url = `${path}?${probe(modifier, column)}`;
          if (documented[modifier].has(column.name)) await expectStatus(url, 200);
          else await expectRefused(url, 'FIELD_NOT_ALLOWED');
        }
      }
    }
  });

  it('allows exactly the documented expansions, and the documented alias modifiers of each', async function () {
    for (const [name, model] of Object.entries(collections) as [string, ModelClass][]) {
      const path = `/api/${name}`;
      const params = parametersOf(doc, path);
      const relations = model.getRelations();
      for (const relation of [...Object.keys(relations), 'no_such_relation']) {
        const param = params.find((p) => p.name === `expand[${relation}]`);
        if (param === undefined) {
          await expectRefused(`${path}?expand[${relation}]`, 'UNKNOWN_RELATION');
          continue;
        }
        await expectStatus(`${path}?expand[${relation}]`, 200);
        const allowed = aliasFields(param.extensions['x-alias-modifiers']);
        const related = relations[relation]?.relatedModelClass.tableName ?? '';
        for (const modifier of fieldModifiers) {
          for (const column of await tableColumns(app.db.knex, related)) {
            const url = `${path}?expand[${relation}]=r&${probe(modifier, column, 'r_')}`;
            if (allowed[modifier].has(column.name)) await expectStatus(url, 200);
            else await expectRefused(url, 'FIELD_NOT_ALLOWED');
          }
        }
      }
    }
  });

  it('allows exactly the documented nested expansions and windows at every depth', async function () {
    let checked = 0;
    const walk = async (path: string, query: string, alias: string, modifiers: Json, depth: number): Promise<void> => {
      const window = modifiers.window === true;
      if (window) await expectStatus(`${path}?${query}&${alias}_limit=1&${alias}_offset=1`, 200);
      else await expectRefused(`${path}?${query}&${alias}_limit=1`, 'MALFORMED_PARAMETER');
      const nested = asJson(modifiers.expand, 'x-alias-modifiers.expand');
      await expectRefused(`${path}?${query}&${alias}_expand[no_such_relation]`, 'UNKNOWN_RELATION');
      // The depth cap (3) ends the documented tree.
      if (depth === 3) expect(nested, query).to.deep.equal({});
      for (const [name, inner] of Object.entries(nested)) {
        const next = `${alias}n`;
        const fields = asJson(inner, name).fields as string[];
        await expectStatus(`${path}?${query}&${alias}_expand[${name}]=${next}&${next}_fields=${fields.join(',')}`, 200);
        const outside = fields.length === 0 ? undefined : 'no_such_field';
        if (outside !== undefined)
          await expectRefused(`${path}?${query}&${alias}_expand[${name}]=${next}&${next}_fields=${outside}`, 'FIELD_NOT_ALLOWED');
        checked += 1;
        await walk(path, `${query}&${alias}_expand[${name}]=${next}`, next, asJson(inner, name), depth + 1);
      }
    };
    for (const name of Object.keys(collections)) {
      for (const p of parametersOf(doc, `/api/${name}`).filter((q) => q.name.startsWith('expand['))) {
        await walk(`/api/${name}`, `${p.name}=a`, 'a', asJson(p.extensions['x-alias-modifiers'], 'x-alias-modifiers'), 1);
      }
    }
    expect(checked, 'nested expansions probed').to.be.greaterThan(5);
  });

  it('describes nested response bodies to the depth cap', async function () {
    const validate = schemas.compile(okSchema(doc, '/api/users'));
    const query = 'expand[posts]=p&p_expand[comments]=c&c_expand[author]=a&p_expand[author]=pa&expand[roles]&per-page=5';
    const res = await expectStatus(`/api/users?${query}`, 200);
    expect(validate(res.body), `${query}: ${schemas.errorsText(validate)}`).to.equal(true);
    const comment = asJson(schemas.named('record.users.posts.comments').schema, 'record.users.posts.comments');
    expect(Object.keys(asJson(comment.properties, 'properties'))).to.include('author');
    const deepest = asJson(schemas.named('record.users.posts.comments.author').schema, 'deepest');
    expect(Object.keys(asJson(deepest.properties, 'properties'))).to.deep.equal(['id', 'name', 'status']);
  });

  it('describes facets and stats in each envelope, typed per field', async function () {
    const validate = schemas.compile(okSchema(doc, '/api/users'));
    const summary = 'facet[status]&facet[created_at]=month&facet[score]=25&facet[active]&stats[score]&stats[birthday]&stats[visits]';
    for (const envelope of ['per-page=2', 'per-page=2&total=none', 'per-page=2&cursor=']) {
      const query = `${summary}&${envelope}`;
      const res = await expectStatus(`/api/users?${query}`, 200);
      expect(Object.keys(asJson(res.body, 'body'))).to.include.members(['facets', 'stats']);
      expect(validate(res.body), `${query}: ${schemas.errorsText(validate)}`).to.equal(true);
    }
    const page = asJson(schemas.named('page.users').schema, 'page.users');
    const facets = asJson(asJson(page.properties, 'properties').facets, 'facets');
    expect(Object.keys(asJson(facets.properties, 'facet properties'))).to.not.include('password_hash');
  });

  it('allows exactly the documented dot paths in sort, filter, in, between and search', async function () {
    let allowed = 0;
    for (const [name, model] of Object.entries(collections) as [string, ModelClass][]) {
      const path = `/api/${name}`;
      const documented = documentedFields(parametersOf(doc, path));
      const relations: [string, ModelClass][] = Object.entries(model.getRelations()).map(([r, m]) => [r, m.relatedModelClass]);
      for (const [relation, related] of [...relations, ['no_such_relation', model] as [string, ModelClass]]) {
        for (const column of await tableColumns(app.db.knex, related.tableName)) {
          const dotted = { ...column, name: `${relation}.${column.name}` };
          for (const modifier of ['sort', 'filter', 'in', 'between', 'search'] as const) {
            const url = `${path}?${probe(modifier, dotted)}`;
            if (!documented[modifier].has(dotted.name)) await expectRefused(url, 'FIELD_NOT_ALLOWED');
            else {
              await expectStatus(url, 200);
              allowed += 1;
            }
          }
        }
      }
    }
    expect(allowed).to.be.greaterThan(10);
  });

  it('allows exactly the documented has and has! relations, and the documented conditions of their alias', async function () {
    for (const [name, model] of Object.entries(collections) as [string, ModelClass][]) {
      const path = `/api/${name}`;
      const params = parametersOf(doc, path);
      const relations = model.getRelations();
      for (const relation of [...Object.keys(relations), 'no_such_relation']) {
        for (const key of [`has[${relation}]`, `has![${relation}]`]) {
          const param = params.find((p) => p.name === key);
          if (param === undefined) {
            await expectRefused(`${path}?${key}`, 'UNKNOWN_RELATION');
            continue;
          }
          await expectStatus(`${path}?${key}`, 200);
          const allowed = aliasFields(param.extensions['x-alias-modifiers']);
          const related = relations[relation]?.relatedModelClass.tableName ?? '';
          for (const modifier of ['filter', 'in', 'between', 'search'] as const) {
            for (const column of await tableColumns(app.db.knex, related)) {
              const url = `${path}?${key}=h&${probe(modifier, column, 'h_')}`;
              if (allowed[modifier].has(column.name)) await expectStatus(url, 200);
              else await expectRefused(url, 'FIELD_NOT_ALLOWED');
            }
          }
        }
      }
    }
  });

  it('documents count[<relation>] exactly for to-many relations, and <relation>_count as an integer field of the request', async function () {
    for (const [name, model] of Object.entries(collections) as [string, ModelClass][]) {
      const path = `/api/${name}`;
      const params = parametersOf(doc, path);
      for (const relation of [...Object.keys(model.getRelations()), 'no_such_relation']) {
        const param = params.find((p) => p.name === `count[${relation}]`);
        const res = await get(`${path}?count[${relation}]`);
        if (param === undefined) {
          expect(res.status, `${path}?count[${relation}]`).to.equal(400);
          continue;
        }
        expect(res.status, `${path}?count[${relation}]`).to.equal(200);
        const field = `${relation}_count`;
        expect(param.extensions['x-count-field']).to.equal(field);
        for (const key of [`sort[${field}]=desc`, `filter[${field}]=>=1`, `in[${field}]=0,1`, `between[${field}]=0,2`]) {
          await expectStatus(`${path}?count[${relation}]&${key}`, 200);
          await expectRefused(`${path}?${key}`, 'FIELD_NOT_ALLOWED');
        }
      }
    }
  });

  it('returns each documented record field when asked for it with fields', async function () {
    for (const name of Object.keys(collections)) {
      const record = asJson(schemas.named(`record.${name}`).schema, 'record');
      const params = parametersOf(doc, `/api/${name}`);
      for (const field of Object.keys(asJson(record.properties, 'properties'))) {
        const isRelation = params.some((p) => p.name === `expand[${field}]`);
        const counter = params.find((p) => p.extensions['x-count-field'] === field);
        const query = isRelation
          ? `expand[${field}]&limit=3`
          : counter !== undefined
            ? `${counter.name}&limit=3`
            : `fields=${field}&limit=3`;
        const res = await expectStatus(`/api/${name}?${query}`, 200);
        const rows = res.body as Json[];
        expect(rows.length, `${name}?${query}`).to.be.greaterThan(0);
        for (const row of rows) {
          if (isRelation || counter !== undefined) expect(row).to.have.property(field);
          else expect(Object.keys(row)).to.deep.equal([field]);
        }
      }
    }
  });

  it('describes real response bodies: arrays, envelopes with every expansion, and problems', async function () {
    for (const name of Object.keys(collections)) {
      const path = `/api/${name}`;
      const validate = schemas.compile(okSchema(doc, path));
      const expands = parametersOf(doc, path)
        .filter((p) => p.name.startsWith('expand[') || p.name.startsWith('count['))
        .map((p) => p.name)
        .join('&');
      const pages = [`${expands}&per-page=5&page=2`, 'page=99'];
      const totals = ['estimated', 'none'].flatMap((total) => pages.map((page) => `${page}&total=${total}`));
      const cursors = [`${expands}&per-page=5&cursor=`, 'cursor=&filter[id]=0'];
      for (const query of ['', expands, ...pages, ...totals, ...cursors]) {
        const res = await expectStatus(`${path}?${query}`, 200);
        expect(validate(res.body), `${path}?${query}: ${schemas.errorsText(validate)}`).to.equal(true);
      }
    }
    const problem = schemas.named('Problem');
    for (const url of ['/api/users?filter[nope]=1&sort[id]=up', '/api/nope', '/api/users?per-page=1000', '/api/users?cursor=abc']) {
      const res = await get(url);
      expect(res.type).to.equal('application/problem+json');
      expect(problem(res.body), `${url}: ${schemas.errorsText(problem)}`).to.equal(true);
    }
  });

  it('is served at GET /api/openapi.json', async function () {
    const res = await expectStatus('/api/openapi.json', 200);
    expect(res.type).to.equal('application/json');
    const served = asJson(res.body, 'served document');
    expect(served.paths).to.deep.equal(doc.paths);
    expect(served.components).to.deep.equal(doc.components);
  });
});
