// The stable problem codes a client can receive, with their HTTP status and title (docs/errors.md, "Codes").
// One table, so status and wording never drift between stages.

export const problemCodes = {
  MALFORMED_PARAMETER: { status: 400, title: 'Malformed query parameter' },
  FIELD_NOT_ALLOWED: { status: 400, title: 'Field not allowed' },
  INVALID_VALUE: { status: 400, title: 'Invalid value' },
  UNKNOWN_RELATION: { status: 400, title: 'Unknown relation' },
  UNKNOWN_ALIAS: { status: 400, title: 'Unknown alias' },
  DUPLICATE_PARAMETER: { status: 400, title: 'Duplicate parameter' },
  CONFLICTING_PARAMETERS: { status: 400, title: 'Conflicting parameters' },
  PAGE_SIZE_TOO_LARGE: { status: 400, title: 'Page size too large' },
  LIMIT_EXCEEDED: { status: 400, title: 'Limit exceeded' },
  INVALID_CURSOR: { status: 400, title: 'Invalid cursor' },
  UNAUTHORIZED: { status: 401, title: 'Unauthorized' },
  FORBIDDEN: { status: 403, title: 'Forbidden' },
  UNKNOWN_COLLECTION: { status: 404, title: 'Unknown collection' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  INTERNAL_ERROR: { status: 500, title: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable' },
  SERVER_BUSY: { status: 503, title: 'Server busy' },
} as const;

export type ProblemCode = keyof typeof problemCodes;

export const problemTypeBase = 'https://koa-query-modifiers.dev/problems/';

/** `FIELD_NOT_ALLOWED` -> `https://koa-query-modifiers.dev/problems/field-not-allowed` */
export function problemType(code: ProblemCode): string {
  return problemTypeBase + code.toLowerCase().replace(/_/g, '-');
}
