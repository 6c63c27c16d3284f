// What facets and stats refuse (docs/query-language.md, Facets and stats), each a 400 naming the
// parameter: a field that cannot be filtered on or is not there, no envelope to carry them, a bucket
// or stats on a type it has no meaning for, facet_limit out of range, malformed values, and the
// root modifier names as aliases.

import { useApp } from '../support/app';
import { expectProblem, type ExpectedProblem } from '../support/problems';

const cases: readonly [string, ExpectedProblem][] = [
  ['page=1&facet[password_hash]', { code: 'FIELD_NOT_ALLOWED', parameter: 'facet[password_hash]' }],
  ['page=1&facet[nothing]', { code: 'FIELD_NOT_ALLOWED', parameter: 'facet[nothing]' }],
  ['page=1&stats[password_hash]', { code: 'FIELD_NOT_ALLOWED', parameter: 'stats[password_hash]' }],
  ['page=1&facet[posts.status]', { code: 'FIELD_NOT_ALLOWED', parameter: 'facet[posts.status]' }],
  ['facet[status]', { code: 'MALFORMED_PARAMETER', parameter: 'facet[status]' }],
  ['limit=5&stats[score]', { code: 'MALFORMED_PARAMETER', parameter: 'stats[score]' }],
  ['page=1&facet[status]=month', { code: 'INVALID_VALUE', parameter: 'facet[status]' }],
  ['page=1&facet[created_at]=10', { code: 'INVALID_VALUE', parameter: 'facet[created_at]' }],
  ['page=1&facet[id]=2.5', { code: 'INVALID_VALUE', parameter: 'facet[id]' }],
  ['page=1&stats[status]', { code: 'INVALID_VALUE', parameter: 'stats[status]' }],
  ['page=1&stats[active]', { code: 'INVALID_VALUE', parameter: 'stats[active]' }],
  ['page=1&facet[status]=quarter', { code: 'MALFORMED_PARAMETER', parameter: 'facet[status]' }],
  ['page=1&facet[score]=0', { code: 'MALFORMED_PARAMETER', parameter: 'facet[score]' }],
  ['page=1&stats[score]=x', { code: 'MALFORMED_PARAMETER', parameter: 'stats[score]' }],
  ['page=1&facet[status]&facet_limit=0', { code: 'MALFORMED_PARAMETER', parameter: 'facet_limit' }],
  ['page=1&facet[status]&facet_limit=abc', { code: 'MALFORMED_PARAMETER', parameter: 'facet_limit' }],
  ['page=1&facet[status]&facet_limit=101', { code: 'LIMIT_EXCEEDED', parameter: 'facet_limit', allowed: 100 }],
  ['page=1&facet_limit=5', { code: 'MALFORMED_PARAMETER', parameter: 'facet_limit' }],
  ['page=1&facet[status]&facet[status]', { code: 'DUPLICATE_PARAMETER', parameter: 'facet[status]' }],
  ['expand[posts]=facet', { code: 'MALFORMED_PARAMETER', parameter: 'expand[posts]' }],
  [
    'has[posts]=limit&limit_filter[status]=draft',
    {
      code: 'MALFORMED_PARAMETER',
      parameter: 'has[posts]',
      errors: [
        { code: 'MALFORMED_PARAMETER', parameter: 'has[posts]' },
        { code: 'UNKNOWN_ALIAS', parameter: 'limit_filter[status]' },
      ],
    },
  ],
];

describe('facets and stats: refusals', function () {
  const h = useApp();

  for (const [query, expected] of cases) {
    it(`${query} -> ${expected.code}`, async function () {
      expectProblem(await h.get(`/api/users?${query}`), expected);
    });
  }
});
