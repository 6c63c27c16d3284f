// Owns the line between "the database cannot serve right now" (503 SERVICE_UNAVAILABLE, worth a
// retry) and every other server-side fault, so the plugin's routes and a host's readiness probe
// can classify a database error the same way.

const unavailableCodes = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH',
  '57014', // statement timeout / query canceled
  '57P01', '57P02', '57P03', // shutdown, crash, cannot connect now
  '53300', // too many connections
]);

/**
 * Database down, pool exhausted or a statement timed out: the client may retry later. Example: the
 * error of a statement cut by `statement_timeout` (SQLSTATE 57014, wrapped by Objection) -> true.
 */
export function isUnavailable(error: unknown): boolean {
  // Objection wraps driver errors (DBError and its subclasses) and keeps the original as
  // `nativeError`; knex may chain it as `cause`. Look through a few layers of wrapping.
  for (let current = error, depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, name, message, nativeError, cause } = current as {
      code?: unknown; name?: unknown; message?: unknown; nativeError?: unknown; cause?: unknown;
    };
    if (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08'))) return true;
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string'
      && /Connection terminated|connection is closed|Client has encountered a connection error|PGlite is closed/i.test(message)) {
      return true;
    }
    current = nativeError ?? cause;
  }
  return false;
}
