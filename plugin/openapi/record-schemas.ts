// How each column's value comes back in a record, as JSON Schema for the OpenAPI document: the JSON
// forms of docs/query-language.md, "How values come back" (enums as one of their labels, arrays of
// their elements' forms).

import { elementOf, type Column, type ColumnType } from '../schema';
import type { JsonSchema } from './value-forms';

function nullable(schema: JsonSchema, column: Column): JsonSchema {
  if (!column.nullable) return schema;
  const type = schema.type;
  if (type === undefined) return schema;
  const withNull = { ...schema, type: Array.isArray(type) ? [...(type as unknown[]), 'null'] : [type, 'null'] };
  return Array.isArray(schema.enum) ? { ...withNull, enum: [...(schema.enum as unknown[]), null] } : withNull;
}

const recordSchemas: Readonly<Record<Exclude<ColumnType, 'enum' | 'array'>, JsonSchema>> = {
  smallint: { type: 'integer', minimum: -32768, maximum: 32767 },
  integer: { type: 'integer', format: 'int32' },
  bigint: {
    type: ['integer', 'string'],
    pattern: '^-?[0-9]+$',
    description: 'A JSON number when it is a safe integer (|n| < 2^53), otherwise its decimal digits as a string.',
  },
  numeric: {
    type: 'string',
    pattern: '^(?:-?[0-9]+(?:\\.[0-9]+)?|NaN|-?Infinity)$',
    description: 'Exact decimal, as stored.',
  },
  float: { type: 'number' },
  text: { type: 'string' },
  virtual: { description: 'Computed by the model (a virtual attribute).' },
  boolean: { type: 'boolean' },
  timestamptz: {
    type: 'string',
    format: 'date-time',
    description: 'ISO 8601 in UTC with six fractional digits, e.g. 2025-04-17T01:19:49.123456Z.',
  },
  timestamp: {
    type: 'string',
    format: 'date-time',
    description: 'ISO 8601 in UTC with six fractional digits, e.g. 2025-04-17T01:19:49.123456Z.',
  },
  date: { type: 'string', format: 'date' },
  uuid: { type: 'string', format: 'uuid' },
  json: {},
  other: { type: 'string', description: 'The PostgreSQL text form of the value.' },
};

function baseSchema(column: Column): JsonSchema {
  switch (column.type) {
    case 'enum':
      return { type: 'string', enum: [...(column.labels ?? [])], description: "One of the enum's labels." };
    case 'array':
      // Elements may be NULL in any PostgreSQL array (elementOf marks them nullable).
      return { type: 'array', items: columnSchema(elementOf(column)) };
    default:
      return recordSchemas[column.type];
  }
}

/** `{name: 'score', type: 'numeric', nullable: true}` -> `{type: ['string', 'null'], pattern: ...}` */
export function columnSchema(column: Column): JsonSchema {
  return nullable(baseSchema(column), column);
}
