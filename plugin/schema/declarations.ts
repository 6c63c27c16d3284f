// Reads a model's static declarations (getProjectableFields() and friends) and checks their shape.
// Problems are collected as messages naming the model, so start-up reports all of them at once.

import type { ModelClass } from './types';

export type ListDeclaration = 'getProjectableFields' | 'getSortableFields' | 'getSearchableFields' | 'getFilterableFields';

export interface RelationDeclaration {
  readonly options: {
    readonly projectable_fields?: readonly string[];
    readonly sortable_fields?: readonly string[];
    readonly searchable_fields?: readonly string[];
    readonly filterable_fields?: readonly string[];
  };
  readonly table?: string;
  readonly fk?: string;
}

export type RelationOptionList = keyof RelationDeclaration['options'];

const optionLists: readonly RelationOptionList[] = ['projectable_fields', 'sortable_fields', 'searchable_fields', 'filterable_fields'];

type Declared = Partial<Record<ListDeclaration | 'getExpandableRelations', () => unknown>>;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** `User.getSortableFields()` -> `['name', 'created_at']`; absent -> `['*']`. */
export function readListDeclaration(model: ModelClass, method: ListDeclaration, problems: string[]): readonly string[] {
  const fn = (model as unknown as Declared)[method];
  if (fn === undefined) return ['*'];
  if (typeof fn !== 'function') {
    problems.push(`${model.name}.${method} must be a static method returning an array of field names`);
    return [];
  }
  const value: unknown = fn.call(model);
  if (!isStringList(value)) {
    problems.push(`${model.name}.${method}() must return an array of field names (strings)`);
    return [];
  }
  return value;
}

function readRelationEntry(model: ModelClass, name: string, entry: unknown, problems: string[]): RelationDeclaration | undefined {
  const where = `${model.name}.getExpandableRelations().${name}`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    problems.push(`${where} must be an object with an "options" map`);
    return undefined;
  }
  const { options, table, fk } = entry as Record<string, unknown>;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    problems.push(`${where}.options is required and must be an object`);
    return undefined;
  }
  const optionMap = options as Record<string, unknown>;
  for (const key of Object.keys(optionMap)) {
    if (!(optionLists as readonly string[]).includes(key)) {
      problems.push(`${where}.options has an unknown key "${key}" (known: ${optionLists.join(', ')})`);
    } else if (!isStringList(optionMap[key])) {
      problems.push(`${where}.options.${key} must be an array of field names`);
    }
  }
  if (table !== undefined && typeof table !== 'string') problems.push(`${where}.table must be a string`);
  if (fk !== undefined && typeof fk !== 'string') problems.push(`${where}.fk must be a string`);
  return entry as RelationDeclaration;
}

/** `User.getExpandableRelations()` -> Map { 'posts' => {options: {...}, table: 'posts', fk: 'user_id'} }. */
export function readRelationDeclarations(model: ModelClass, problems: string[]): Map<string, RelationDeclaration> {
  const declarations = new Map<string, RelationDeclaration>();
  const fn = (model as unknown as Declared).getExpandableRelations;
  if (fn === undefined) return declarations;
  const value: unknown = typeof fn === 'function' ? fn.call(model) : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${model.name}.getExpandableRelations() must return an object keyed by relation name`);
    return declarations;
  }
  for (const [name, entry] of Object.entries(value)) {
    const read = readRelationEntry(model, name, entry, problems);
    if (read !== undefined) declarations.set(name, read);
  }
  return declarations;
}

/**
 * `User.getFieldLabels()` -> `{email_verified_at: 'Email verified'}`: the names the admin UI shows
 * for fields (docs/configuration.md, "Field labels"). Absent -> an empty map. Every key must be a
 * field of the model (`fields`), every label a non-empty string.
 */
export function readFieldLabels(model: ModelClass, fields: readonly string[], problems: string[]): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  const fn = (model as unknown as { getFieldLabels?: unknown }).getFieldLabels;
  if (fn === undefined) return labels;
  const value: unknown = typeof fn === 'function' ? fn.call(model) : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${model.name}.getFieldLabels() must be a static method returning an object of field name to label`);
    return labels;
  }
  for (const [field, label] of Object.entries(value)) {
    if (!fields.includes(field)) problems.push(`${model.name}.getFieldLabels() names "${field}", which is not a field of ${model.name}`);
    else if (typeof label !== 'string' || label.trim() === '')
      problems.push(`${model.name}.getFieldLabels().${field} must be a non-empty string`);
    else labels.set(field, label.trim());
  }
  return labels;
}
