// Helpers for the OpenAPI tests: reading parameters and schemas out of a generated document, and a
// JSON Schema 2020-12 validator (strict) over its component schemas.

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type Json = Record<string, unknown>;

export function asJson(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} is not an object`);
  return value as Json;
}

/** Follows a local `$ref` (`#/components/parameters/page`) inside the document. */
export function resolveRef(doc: Json, value: unknown): Json {
  const object = asJson(value, 'a reference or object');
  const target = object.$ref;
  if (typeof target !== 'string') return object;
  let at: unknown = doc;
  for (const part of target.replace(/^#\//, '').split('/')) at = asJson(at, target)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return asJson(at, target);
}

export interface DocumentedParameter {
  readonly name: string;
  readonly schema: Json;
  readonly example: unknown;
  readonly style?: string;
  readonly extensions: Json;
}

/**
 * One `deepObject` family (`filter`) as the keys a client writes (`filter[status]`, ...): each
 * property with its schema and example; the family's `x-alias-modifiers` and `x-count-fields` maps
 * give each relation key its own `x-alias-modifiers` and `x-count-field`.
 */
function familyKeys(p: Json): DocumentedParameter[] {
  const schema = asJson(p.schema, `${String(p.name)}.schema`);
  const maps = {
    'x-alias-modifiers': p['x-alias-modifiers'] as Json | undefined,
    'x-count-field': p['x-count-fields'] as Json | undefined,
  };
  return Object.entries(asJson(schema.properties, `${String(p.name)}.properties`)).map(([key, raw]) => {
    const property = asJson(raw, key);
    const extensions = Object.fromEntries(
      Object.entries(maps)
        .filter(([, map]) => map !== undefined && key in map)
        .map(([name, map]) => [name, (map as Json)[key]]),
    );
    return { name: `${String(p.name)}[${key}]`, schema: property, example: (property.examples as unknown[])[0], extensions };
  });
}

/** The parameters of the path `<prefix>/<collection>`, `$ref`s resolved, each deepObject family as its keys. */
export function parametersOf(doc: Json, path: string): DocumentedParameter[] {
  const item = asJson(asJson(doc.paths, 'paths')[path], path);
  const list = item.parameters;
  if (!Array.isArray(list)) throw new Error(`${path} has no parameters`);
  return list.flatMap((raw) => {
    const p = resolveRef(doc, raw);
    if (p.style === 'deepObject') return familyKeys(p);
    const extensions = Object.fromEntries(Object.entries(p).filter(([key]) => key.startsWith('x-')));
    return [
      {
        name: String(p.name),
        schema: asJson(p.schema, `${String(p.name)}.schema`),
        example: p.example,
        ...(typeof p.style === 'string' ? { style: p.style } : {}),
        extensions,
      },
    ];
  });
}

/** The parameters of `path` as the document lists them (families not split), `$ref`s resolved. */
export function rawParametersOf(doc: Json, path: string): Json[] {
  const list = asJson(asJson(doc.paths, 'paths')[path], path).parameters;
  if (!Array.isArray(list)) throw new Error(`${path} has no parameters`);
  return list.map((raw) => resolveRef(doc, raw));
}

/** How a parameter's example is written in a query string (form/explode=false arrays are comma-joined). */
export function serialize(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

/** `filter[id]=>=1` with key and value percent-encoded. */
/**
 * What a parameter needs beside it to be accepted alone: facets and stats an envelope, `facet_limit`
 * a facet too (docs/query-language.md, Facets and stats).
 */
export function companions(name: string): string {
  if (/^(facet|stats)\[/.test(name)) return '&page=1';
  return name === 'facet_limit' ? '&page=1&facet[id]' : '';
}

export function pair(name: string, value: unknown): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(serialize(value))}`;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? item.replace('#/components/schemas/', 'openapi#/$defs/') : rewriteRefs(item),
    ]),
  );
}

/**
 * A strict JSON Schema 2020-12 validator over the document's component schemas: unknown keywords,
 * unknown formats and broken references fail at compile time.
 */
export class DocumentSchemas {
  private readonly ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });

  constructor(doc: Json) {
    addFormats(this.ajv);
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    const components = asJson(doc.components, 'components');
    this.ajv.addSchema({ $id: 'openapi', $defs: rewriteRefs(components.schemas) });
  }

  /** Compiles an inline schema that may reference `#/components/schemas/...`. */
  compile(schema: unknown): ValidateFunction {
    return this.ajv.compile(asJson(rewriteRefs(schema), 'schema'));
  }

  named(name: string): ValidateFunction {
    const found = this.ajv.getSchema(`openapi#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found === undefined) throw new Error(`no component schema ${name}`);
    return found;
  }

  errorsText(validate: ValidateFunction): string {
    return this.ajv.errorsText(validate.errors, { separator: '\n' });
  }
}

/** The schema of the 200 application/json response of `GET <path>`. */
export function okSchema(doc: Json, path: string): Json {
  const get = asJson(asJson(asJson(doc.paths, 'paths')[path], path).get, `${path}.get`);
  const ok = resolveRef(doc, asJson(get.responses, 'responses')['200']);
  return asJson(asJson(asJson(ok.content, 'content')['application/json'], 'application/json').schema, 'schema');
}
