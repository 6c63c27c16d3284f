// What a model's own JSON conversion lets clients see
// (docs/configuration.md, "What your model's JSON hides or masks"). At start-up, probe records go through the conversion exactly as records do
// (model-class.ts modelJson): a field missing from the result is hidden, one whose value comes back
// changed is masked. What the probe cannot see is written in that section of the docs.

import { isDeepStrictEqual } from 'node:util';
import { customisesJson, modelJson } from './model-class';
import type { Column, ColumnType, ModelClass } from './types';

/** Fields the conversion removes (never projectable) and fields it changes (shown, never compared). */
export interface Visibility {
  readonly hidden: ReadonlySet<string>;
  readonly masked: ReadonlySet<string>;
}

/** A model that customises nothing: its records are its rows, every field is as stored. */
export const allVisible: Visibility = Object.freeze({ hidden: new Set<string>(), masked: new Set<string>() });

type ProbeValue = string | number | boolean | ProbeValue[] | { [key: string]: ProbeValue };

const dayMs = 86_400_000;

/**
 * The value of the `n`th field in probe `variant` (0 or 1), in the JSON form a record's value has
 * (respond/values.ts): distinct from every other field's and from the other variant's, except where
 * the type has too few values (booleans, enums with few labels).
 */
function probeScalar(type: ColumnType, labels: readonly string[] | undefined, n: number, variant: number): ProbeValue {
  const k = 2 * n + variant;
  const instant = new Date(Date.UTC(2001 + 10 * variant, 1, 3, 4, 5, 6, 789) + n * dayMs).toISOString();
  switch (type) {
    case 'smallint':
      return 1000 + k;
    case 'integer':
      return 100_000 + k;
    case 'bigint':
      return 5_000_000_000 + k;
    case 'float':
      return 0.5 + k;
    case 'numeric':
      return `${300 + k}.25`;
    case 'boolean':
      return (n + variant) % 2 === 0;
    case 'timestamptz':
    case 'timestamp':
      return `${instant.slice(0, 23)}012Z`;
    case 'date':
      return instant.slice(0, 10);
    case 'uuid':
      return `${(0x1000_0000 + k).toString(16)}-b0be-4a11-8f00-${k.toString(16).padStart(12, '0')}`;
    case 'json':
      return variant === 0 ? { probe: k, text: `kqm probe ${n}` } : [k, `kqm probe ${n}`];
    case 'enum':
      return labels === undefined || labels.length === 0 ? `probe-${k}` : (labels[(n + variant) % labels.length] as string);
    // Two shapes of text, so a mask that only touches e-mail-like or digit-bearing values is seen by one of them.
    case 'text':
      return variant === 0 ? `kqm.probe.${n}@probe.example` : `Kqm Probe ${n}: 0123456789 ${k}`;
    case 'array':
    case 'other':
    case 'virtual':
      return `kqm-probe-${k}`;
  }
}

function probeValue(column: Column, n: number, variant: number): ProbeValue {
  if (column.type !== 'array') return probeScalar(column.type, column.labels, n, variant);
  return [probeScalar(column.elementType ?? 'other', column.labels, n, variant)];
}

/**
 * `User` with `$formatJson` deleting `passwordHash` and masking `email` -> hidden {passwordHash},
 * masked {email}. `fields` are every field the records of this scope are built from (stored columns,
 * a relation's join-table extras) plus the virtual attributes, which are checked for presence only.
 * A conversion that throws is a start-up problem naming the model.
 */
export function probeVisibility(model: ModelClass, fields: readonly Column[], problems: string[]): Visibility {
  if (!customisesJson(model)) return allVisible;
  const hidden = new Set<string>();
  const masked = new Set<string>();
  for (const variant of [0, 1]) {
    const sent = new Map<string, ProbeValue>();
    fields.forEach((field, n) => {
      if (field.type !== 'virtual') sent.set(field.name, probeValue(field, n, variant));
    });
    let json: Readonly<Record<string, unknown>>;
    try {
      json = modelJson(model, Object.fromEntries(sent));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      problems.push(
        `${model.name}: its own JSON conversion ($formatJson, toJSON) threw on a probe record (${why}). At start-up the plugin ` +
          'passes records with every column holding a value of its type through it, to learn which fields it removes or changes; ' +
          'make it accept any value of each column type',
      );
      return { hidden: new Set(fields.map((f) => f.name)), masked };
    }
    for (const field of fields) {
      const shown = Object.prototype.hasOwnProperty.call(json, field.name) ? json[field.name] : undefined;
      if (shown === undefined) hidden.add(field.name);
      else if (sent.has(field.name) && !isDeepStrictEqual(shown, sent.get(field.name))) masked.add(field.name);
    }
  }
  for (const name of hidden) masked.delete(name);
  return Object.freeze({ hidden, masked });
}

/**
 * Why a declaration may not use `name` for sorting, searching or filtering, or undefined when the
 * conversion leaves it alone: "which User's own JSON ($formatJson, toJSON) removes ...".
 */
export function invisibleBecause(
  model: ModelClass,
  visibility: Visibility,
  name: string,
  use: 'projected' | 'compared',
): string | undefined {
  if (visibility.hidden.has(name)) {
    return (
      `which ${model.name}'s own JSON conversion ($formatJson, toJSON) removes: it is never returned, ` +
      `so no modifier may name it (remove it from the list, or stop removing it in the conversion)`
    );
  }
  if (use === 'compared' && visibility.masked.has(name)) {
    return (
      `which ${model.name}'s own JSON conversion ($formatJson, toJSON) changes: it is returned only as the model masks it, ` +
      `and comparing, ordering or searching by the stored value would reveal it (remove it from the list, or stop masking it)`
    );
  }
  return undefined;
}
