// The page size of a `page` or `cursor` request: the one it gives (`per-page` or `page-size`) or the
// mount's default, refused past the largest (docs/query-language.md, Pagination).

import { problem, type Problem } from '../errors';
import type { QueryDescription } from '../syntax';

export interface PageSizeLimits {
  readonly defaultPageSize: number;
  readonly maxPageSize: number;
}

/**
 * The page size the request reads; past `maxPageSize` a PAGE_SIZE_TOO_LARGE problem naming the
 * parameter that set it is added. Example: `per-page=500` with a largest page size of 100 -> 500,
 * and the problem "`per-page` is 500; the largest page size is 100".
 */
export function validatePageSize(paging: QueryDescription['paging'], limits: PageSizeLimits, problems: Problem[]): number {
  const pageSize = (paging.kind === 'page' ? paging.pageSize : undefined) ?? limits.defaultPageSize;
  if (pageSize > limits.maxPageSize) {
    const parameter = (paging.kind === 'page' ? paging.pageSizeParameter : undefined) ?? 'per-page';
    problems.push(
      problem(
        'PAGE_SIZE_TOO_LARGE',
        parameter,
        `\`${parameter}\` is ${pageSize}; the largest page size is ${limits.maxPageSize}`,
        limits.maxPageSize,
      ),
    );
  }
  return pageSize;
}
