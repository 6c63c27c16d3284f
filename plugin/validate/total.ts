// Which total a paginated request gets
// (docs/query-language.md, "Totals: total=exact, estimated, none"): the client's `total=`, else the
// host's default for the collection (`pagination.total`), else exact.

import type { TotalMode } from '../syntax';
import type { ValidatedTotal } from './types';

export interface TotalSettings {
  /** One mode for every collection, or a mode per collection name (the others: exact). */
  readonly total: TotalMode | Readonly<Record<string, TotalMode>>;
  /** Up to this many matching records the estimated mode counts exactly. */
  readonly estimateAbove: number;
}

/** The mode a collection's envelopes get when the client does not choose one. */
export function defaultTotalMode(settings: TotalSettings, collection: string): TotalMode {
  if (typeof settings.total === 'string') return settings.total;
  return Object.prototype.hasOwnProperty.call(settings.total, collection) ? (settings.total[collection] as TotalMode) : 'exact';
}

/** `total=estimated` with `estimateAbove: 10000` -> `{kind: 'estimated', estimateAbove: 10000}`. */
export function validateTotal(requested: TotalMode | undefined, collection: string, settings: TotalSettings): ValidatedTotal {
  const mode = requested ?? defaultTotalMode(settings, collection);
  switch (mode) {
    case 'exact':
      return { kind: 'exact' };
    case 'estimated':
      return { kind: 'estimated', estimateAbove: settings.estimateAbove };
    case 'none':
      return { kind: 'none' };
  }
}
