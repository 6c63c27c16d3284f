// `503 SERVER_BUSY`: the server refuses work it could do later (the heavy lane is full, or the
// responses in flight already hold their byte budget). `Retry-After` says when to ask again.

import { problem, QueryError } from './query-error';

/** `serverBusy(2, 'The heavy-request lane is full.')` -> a 503 with `Retry-After: 2`. */
export function serverBusy(retryAfterSeconds: number, detail: string): QueryError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new QueryError([problem('SERVER_BUSY', undefined, detail)], { 'Retry-After': String(seconds) });
}
