// Translates between the three names a field has in a host application
// (docs/configuration.md, "Your models as they are"): the database column (`first_name`), the name
// the host's Knex gives it (`firstName` under knexSnakeCaseMappers, otherwise the column), and the
// model's property name (the Knex name through the model's `columnNameMappers`). Objection's
// relation mappings and `idColumn` use Knex names.

import type { Knex } from 'knex';
import type { ModelClass } from './types';

export interface KnexNames {
  /** `first_name` -> `firstName` under knexSnakeCaseMappers: what the host's Knex returns as the key. */
  readonly fromDatabase: (column: string) => string;
  /** `firstName` -> `first_name`: what the host's Knex sends for an identifier. */
  readonly toDatabase: (name: string) => string;
}

interface MapperConfig {
  wrapIdentifier?: (value: string, origImpl: (value: string) => string, queryContext?: unknown) => string;
  postProcessResponse?: (result: unknown, queryContext?: unknown) => unknown;
}

/** The host Knex's identifier mappers, applied to single names the way Knex applies them to queries and rows. */
export function knexNames(knex: Knex): KnexNames {
  const config = (knex as unknown as { client?: { config?: MapperConfig } }).client?.config ?? {};
  const { wrapIdentifier, postProcessResponse } = config;
  return {
    fromDatabase: (column) => {
      if (typeof postProcessResponse !== 'function') return column;
      const rows = postProcessResponse([{ [column]: null }], undefined);
      const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
      const keys = typeof first === 'object' && first !== null ? Object.keys(first) : [];
      return keys.length === 1 ? (keys[0] as string) : column;
    },
    toDatabase: (name) => (typeof wrapIdentifier === 'function' ? wrapIdentifier(name, (value) => value, undefined) : name),
  };
}

/** `first_name` (as Knex returns it) -> `firstName` under the model's `columnNameMappers`. */
export function propertyName(model: ModelClass, knexName: string): string {
  const convert = (model as unknown as { columnNameToPropertyName?: (name: string) => string }).columnNameToPropertyName;
  if (typeof convert !== 'function') return knexName;
  const name = convert.call(model, knexName);
  return typeof name === 'string' && name !== '' ? name : knexName;
}
