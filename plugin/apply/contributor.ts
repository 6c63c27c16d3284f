// Which parameter a response over its byte budget names (docs/errors.md, LIMIT_EXCEEDED): the part
// of the response (the root's records, or one expansion's) holding the most bytes, and in it either
// its fields, when one field holds most of the part, or its number of records.

/** What one part of a response held, field by field, and the parameters that ask for less of it. */
export interface MeasuredPart {
  /** `fields`, or an alias's `p_fields` (`expand[posts]` without an alias). */
  readonly fieldsParameter: string;
  /** `limit` or `per-page`, or an alias's `p_limit` (`expand[posts]` without one). */
  readonly rowsParameter: string;
  /** Bytes of JSON text per field name, summed over the part's records. */
  readonly fields: ReadonlyMap<string, number>;
}

export interface Contributor {
  readonly parameter: string;
  /** Whether asking for fewer fields (rather than fewer records) is the way to a smaller response. */
  readonly byFields: boolean;
}

const total = (part: MeasuredPart): number => {
  let sum = 0;
  for (const bytes of part.fields.values()) sum += bytes;
  return sum;
};

/**
 * `[{fieldsParameter: 'fields', rowsParameter: 'limit', fields: {id: 6000}},
 *   {fieldsParameter: 'p_fields', rowsParameter: 'p_limit', fields: {title: 9e6, id: 5000}}]`
 * -> `{parameter: 'p_fields', byFields: true}`: the posts hold most bytes, and their titles most of those.
 */
export function largestContributor(parts: readonly MeasuredPart[], fallback: string): Contributor {
  let largest: MeasuredPart | undefined;
  let largestBytes = -1;
  for (const part of parts) {
    const bytes = total(part);
    if (bytes > largestBytes) {
      largest = part;
      largestBytes = bytes;
    }
  }
  if (largest === undefined) return { parameter: fallback, byFields: false };
  let field = 0;
  for (const bytes of largest.fields.values()) field = Math.max(field, bytes);
  // One field holding most of the part: leaving it out shrinks the response more than fewer records would.
  if (field * 2 > largestBytes) return { parameter: largest.fieldsParameter, byFields: true };
  return { parameter: largest.rowsParameter, byFields: false };
}

/** The JSON text of each named field of `records`, in bytes (on the refusal path only). */
export function measureFields(records: readonly Readonly<Record<string, unknown>>[], names: readonly string[]): Map<string, number> {
  const fields = new Map<string, number>();
  for (const name of names) fields.set(name, 0);
  for (const record of records) {
    for (const name of names) {
      const value = record[name];
      const text = value === undefined ? undefined : JSON.stringify(value);
      if (text !== undefined) fields.set(name, (fields.get(name) ?? 0) + Buffer.byteLength(text));
    }
  }
  return fields;
}
