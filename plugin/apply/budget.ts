// One request's response byte budget (docs/configuration.md, limits.maxResponseBytes): each
// statement whose rows are shown reads only what is left of it (bytes.ts), the bytes read are added
// up, and the first statement that passes it ends the request with 400 LIMIT_EXCEEDED naming what
// to ask less of (contributor.ts), before any later statement runs.

import { raise } from '../errors';
import { takeBytes } from './bytes';
import { largestContributor, measureFields, type MeasuredPart } from './contributor';
import type { Runnable } from './runnable';
import type { Row } from './types';

/** A part of the response and the parameters that ask for less of it; its records are measured only on refusal. */
export interface BudgetPart {
  readonly fieldsParameter: string;
  readonly rowsParameter: string;
  /** The field names its records show. */
  readonly fields: readonly string[];
  readonly records: () => readonly Readonly<Record<string, unknown>>[];
}

export class ResponseBudget {
  private used = 0;
  private readonly parts: BudgetPart[] = [];

  /** `limit`: the bytes one response may hold; `rowsParameter`: what asks for fewer root records (`limit`, `per-page`). */
  constructor(
    readonly limit: number,
    readonly rowsParameter: string,
  ) {}

  /** The JSON text of the rows read so far, in bytes (what the response holds, roughly). */
  get bytes(): number {
    return this.used;
  }

  /** Reads a statement's rows within what is left of the budget; refuses the request past it. */
  async read(statement: Runnable, parts: (rows: readonly Row[]) => readonly BudgetPart[]): Promise<Row[]> {
    if (statement.rowsWithin === undefined) return statement.rows();
    const cap = Math.max(0, this.limit - this.used);
    const rows = await statement.rowsWithin(cap);
    const { bytes, over } = takeBytes(rows, cap);
    this.used += bytes;
    this.parts.push(...parts(rows));
    if (over || this.used > this.limit) this.refuse();
    return rows;
  }

  /** 400 LIMIT_EXCEEDED naming the largest contributor. */
  refuse(): never {
    const measured: MeasuredPart[] = this.parts.map((part) => ({
      fieldsParameter: part.fieldsParameter,
      rowsParameter: part.rowsParameter,
      fields: measureFields(part.records(), part.fields),
    }));
    const { parameter, byFields } = largestContributor(measured, this.rowsParameter);
    const most = byFields
      ? `most of them in the fields \`${parameter}\` asks for; ask for fewer or smaller fields, fewer records`
      : `most of them in the records \`${parameter}\` lets through; ask for fewer records with it`;
    return raise(
      'LIMIT_EXCEEDED',
      parameter,
      `The response would be larger than ${this.limit} bytes, ${most}, or narrow the records with filter, in, between or search`,
      this.limit,
    );
  }
}
