// Validates a CSV export (docs/query-language.md, "Export as CSV"): what a CSV answer has no place for
// (related records, facets and stats, an envelope's total or cursor) is refused, and a request without
// page parameters or `limit` becomes the whole list, read in keyset batches of `exportBatchRows`.

import { problem, type Problem } from '../errors';
import type { QueryDescription } from '../syntax';
import type { CsvExport, ValidatedPaging } from './types';

export interface ExportLimits {
  readonly exportBatchRows: number;
}

/** How a CSV request is named in a refusal: by the parameter when it was sent, else by the header that chose it. */
const CSV = '`format=csv` (or `Accept: text/csv`)';

function conflict(parameter: string, why: string): Problem {
  return problem('CONFLICTING_PARAMETERS', parameter, `\`${parameter}\` cannot be combined with ${CSV}: ${why}`);
}

/** The parameters a CSV answer cannot carry, each refused with why. */
function exportConflicts(description: QueryDescription): Problem[] {
  const problems: Problem[] = [];
  for (const expand of description.expands) {
    if (expand.owner === undefined) {
      problems.push(
        conflict(expand.parameter, 'a CSV row has no place for related records; ask for them as JSON, or count them with `count`'),
      );
    }
  }
  for (const item of [...description.summary.facets, ...description.summary.stats]) {
    problems.push(conflict(item.parameter, 'facets and stats belong to a JSON envelope'));
  }
  if (description.keys.includes('facet_limit')) problems.push(conflict('facet_limit', 'facets belong to a JSON envelope'));
  if (description.keys.includes('total')) problems.push(conflict('total', 'a CSV answer has no envelope to carry a total'));
  if (description.cursor !== undefined) {
    problems.push(
      conflict('cursor', 'a CSV answer has no envelope to carry the next cursor; leave out page parameters to export every record'),
    );
  }
  return problems;
}

/**
 * `format=csv` -> the whole list in batches: `{csv: {whole: true}, paging: {kind: 'cursor', pageSize: 1000}}`;
 * `format=csv&per-page=20&page=2` -> that page, as JSON would answer it: `{csv: {whole: false}}`.
 * Undefined when the request asks for JSON.
 */
export function validateExport(
  description: QueryDescription,
  paging: ValidatedPaging,
  limits: ExportLimits,
  problems: Problem[],
): { readonly csv: CsvExport; readonly paging: ValidatedPaging } | undefined {
  if (description.format !== 'csv') return undefined;
  problems.push(...exportConflicts(description));
  const whole = description.paging.kind === 'none' && description.cursor === undefined;
  if (!whole) return { csv: Object.freeze({ whole: false }), paging };
  return {
    csv: Object.freeze({ whole: true }),
    paging: Object.freeze({ kind: 'cursor', pageSize: limits.exportBatchRows, cursor: undefined }),
  };
}
