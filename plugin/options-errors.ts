// Turns ajv's findings on the options into one line per problem that names the option path
// (`limits.maxExpandDepth`), the form it expects (read from the options schema) and what was given:
// `limits.maxExpandDepth must be an integer of at least 1; got 0`.

import type { ErrorObject } from 'ajv';

type Schema = Readonly<Record<string, unknown>>;

const json = (value: unknown): string => JSON.stringify(value);

/** `/limits/maxRows` -> `limits.maxRows`; `/replicas/servers/0` -> `replicas.servers[0]`; `` -> `options`. */
export function optionPath(instancePath: string, key?: string): string {
  const parts = instancePath === '' ? [] : instancePath.slice(1).split('/');
  if (key !== undefined) parts.push(key);
  const path = parts
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text === '' ? part : `${text}.${part}`), '');
  return path === '' ? 'options' : path;
}

function numberForm(schema: Schema): string {
  const kind = schema.type === 'integer' ? 'an integer' : 'a number';
  const { minimum, maximum, exclusiveMinimum } = schema;
  const low = typeof exclusiveMinimum === 'number' ? `above ${exclusiveMinimum}` : typeof minimum === 'number' ? `${minimum}` : undefined;
  if (typeof maximum === 'number' && typeof minimum === 'number') return `${kind} from ${minimum} to ${maximum}`;
  if (typeof maximum === 'number')
    return `${kind} ${low === undefined ? '' : `${low.startsWith('above') ? low : `of at least ${low}`} and `}at most ${maximum}`;
  if (low !== undefined) return `${kind} ${low.startsWith('above') ? low : `of at least ${low}`}`;
  return kind;
}

/** What a schema asks for, in words: `{type: 'integer', minimum: 1}` -> `an integer of at least 1`. */
export function formOf(schema: Schema): string {
  if ('const' in schema) return json(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(json).join(', ')}`;
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Schema[]).map(formOf).join(', or ');
  switch (schema.type) {
    case 'integer':
    case 'number':
      return numberForm(schema);
    case 'string':
      if (typeof schema.pattern === 'string') return `a string matching ${schema.pattern}`;
      return schema.minLength === 1 ? 'a non-empty string' : 'a string';
    case 'boolean':
      return 'true or false';
    case 'array':
      return typeof schema.minItems === 'number'
        ? `a list of at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`
        : 'a list';
    case 'object': {
      const keys = Object.keys((schema.properties as Schema | undefined) ?? {});
      const values = schema.additionalProperties;
      if (keys.length > 0) return `an object with ${keys.join(', ')}${schema.additionalProperties === false ? ' only' : ''}`;
      if (typeof values === 'object' && values !== null) return `an object whose values are ${formOf(values as Schema)}`;
      return typeof schema.minProperties === 'number' ? `an object with at least ${schema.minProperties} entry` : 'an object';
    }
    default:
      if (typeof schema.pattern === 'string') return `a name matching ${schema.pattern}`;
      return typeof schema.description === 'string' ? schema.description.replace(/\.$/, '') : 'as documented';
  }
}

function given(value: unknown): string {
  if (typeof value === 'function') return 'got a function';
  if (value === undefined) return 'got nothing';
  const text = json(value);
  return `got ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`;
}

/** Whether `data` is of the kind a `oneOf` branch describes, so the branch's own findings are the ones to report. */
function fits(branch: Schema, data: unknown): boolean {
  if ('const' in branch) return data === branch.const;
  if (Array.isArray(branch.enum)) return branch.enum.some((v) => typeof v === typeof data);
  switch (branch.type) {
    case 'object':
      return typeof data === 'object' && data !== null && !Array.isArray(data);
    case 'array':
      return Array.isArray(data);
    case 'integer':
    case 'number':
      return typeof data === 'number';
    default:
      return typeof data === branch.type;
  }
}

/** Keeps, under each `oneOf`, only the findings of the branch the value is a kind of; a value of no branch's kind is reported whole. */
function resolveOneOf(errors: readonly ErrorObject[]): { kept: ErrorObject[]; whole: ErrorObject[] } {
  let kept = errors.filter((e) => e.keyword !== 'oneOf');
  const whole: ErrorObject[] = [];
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const error of oneOfs) {
    const base = `${error.schemaPath}/`;
    const branch = (error.schema as Schema[]).findIndex((b) => fits(b, error.data));
    kept = kept.filter((e) => !e.schemaPath.startsWith(base) || (branch >= 0 && e.schemaPath.startsWith(`${base}${branch}/`)));
    if (branch < 0 || !kept.some((e) => e.schemaPath.startsWith(`${base}${branch}/`))) whole.push(error);
  }
  return { kept, whole };
}

function describeError(error: ErrorObject): string | undefined {
  const parent = (error.parentSchema ?? {}) as Schema;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const known = Object.keys((parent.properties as Schema | undefined) ?? {});
      return `${optionPath(error.instancePath, String(params.additionalProperty))} is not an option${known.length === 0 ? '' : `; known: ${known.join(', ')}`}`;
    }
    case 'required':
      return `${optionPath(error.instancePath, String(params.missingProperty))} is required`;
    case 'propertyNames': {
      const names = (parent.propertyNames ?? {}) as Schema;
      return `${optionPath(error.instancePath)} has the key ${json(params.propertyName)}, which must be ${formOf(names)}`;
    }
    default:
      // A key refused by `propertyNames` is reported once, by the error above.
      if (error.schemaPath.includes('/propertyNames/')) return undefined;
      return `${optionPath(error.instancePath)} must be ${formOf(parent)}; ${given(error.data)}`;
  }
}

/**
 * One line per option ajv refused (it must run with `allErrors` and `verbose`), each naming the
 * path and the expected form. Example: `{limits: {maxClauses: 0}}` ->
 * `['limits.maxClauses must be an integer of at least 1; got 0']`.
 */
export function optionProblems(errors: readonly ErrorObject[]): string[] {
  const { kept, whole } = resolveOneOf(errors);
  const lines = [
    ...whole.map((e) => `${optionPath(e.instancePath)} must be ${formOf((e.parentSchema ?? {}) as Schema)}; ${given(e.data)}`),
    ...kept.map(describeError).filter((line): line is string => line !== undefined),
  ];
  return [...new Set(lines)];
}
