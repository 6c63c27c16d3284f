// Owns the line between "the database cannot serve right now" (503 SERVICE_UNAVAILABLE, worth a
// retry) and every other server-side fault (500): by SQLSTATE class, a few single SQLSTATEs, a table
// or column gone since start-up, and the kind of driver error, looking through the wrappers Objection
// and knex put around the driver's. A statement written wrongly, by the plugin or a host hook, is a
// fault, never "unavailable".

/** SQLSTATE classes (first two characters) in which every condition means the database cannot serve. */
const unavailableClasses: ReadonlySet<string> = new Set([
  '08', // connection exception: refused, lost, rejected at start-up
  '3D', // invalid catalog name: the database does not exist (dropped)
  '3F', // invalid schema name: a schema the catalog was read from is gone
  '40', // transaction rollback: serialization failure, deadlock, recovery conflicts on a standby
  '53', // insufficient resources: too many connections, out of memory, disk full
  '55', // object not in prerequisite state: not accepting connections, object in use, lock timeout
  '57', // operator intervention: statement timeout or cancel, shutdown, crash, starting up
  '58', // system error outside PostgreSQL: I/O error, missing file
]);

/**
 * Single SQLSTATEs from classes that also hold faults of the plugin or the host (class 42 is
 * mostly statement errors, which stay 500).
 */
const unavailableCodes: ReadonlySet<string> = new Set([
  '25006', // read_only_sql_transaction: a standby, or default_transaction_read_only
  '25P03', // idle_in_transaction_session_timeout: the session was ended
  '25P04', // transaction_timeout: cut like a statement timeout
]);

/**
 * Statement errors that mean a table or column the catalog read at start-up is gone (the database
 * changed under the app: restored without it, dropped, renamed), told apart from a statement
 * written wrongly by the routine that raised them. The SQLSTATE alone cannot: 42P01 is also
 * "missing FROM-clause entry", a statement naming a table it never joined. The routine is the name
 * of PostgreSQL's function, which pg and PGlite both pass on and `lc_messages` does not translate,
 * unlike the message. Without a routine it stays a fault.
 */
const goneObjects: ReadonlyMap<string, string> = new Map([
  ['42P01', 'parserOpenTable'], // relation "members" does not exist (not errorMissingRTE: missing FROM-clause entry)
  ['42703', 'errorMissingColumn'], // column members.status does not exist
]);

/** Node's errors on the socket to the database: refused, reset, unreachable, name not resolved. */
const socketCodes: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Driver errors that carry no code, by the end of their message (knex puts the statement in front):
 * pg's lost or timed-out connections, a closed client or pool, knex after `destroy()`, PGlite closed.
 */
const driverMessage = new RegExp(
  `(?:${[
    'Connection terminated(?: unexpectedly| due to connection timeout)?',
    'timeout expired',
    'timeout exceeded when trying to connect',
    'Query read timeout',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'Cannot use a pool after calling end on the pool',
    'Unable to acquire a connection',
    'connection is closed',
    'PGlite is closed',
  ].join('|')})\\.?$`,
  'i',
);

function isSqlState(code: string): boolean {
  return /^[0-9A-Z]{5}$/.test(code);
}

function isUnavailableLayer(layer: { code?: unknown; name?: unknown; message?: unknown; syscall?: unknown; routine?: unknown }): boolean {
  const { code, name, message, syscall, routine } = layer;
  if (typeof code === 'string') {
    if (socketCodes.has(code)) return true;
    // A Unix socket that is missing (ENOENT) or refused (EACCES) while connecting: the server is not there.
    if (syscall === 'connect') return true;
    if (isSqlState(code)) {
      return (
        unavailableClasses.has(code.slice(0, 2)) ||
        unavailableCodes.has(code) ||
        (routine !== undefined && goneObjects.get(code) === routine)
      );
    }
    return false;
  }
  // Knex's pool gave up waiting for a connection (acquireConnectionTimeout). Not any `TimeoutError`:
  // that is also what AbortSignal.timeout() throws in a host's hook, which stays a 500.
  if (name === 'KnexTimeoutError') return true;
  // A message is read only when there is no code: a SQLSTATE error's message may quote client values.
  return typeof message === 'string' && driverMessage.test(message);
}

/**
 * Whether `error` means the database cannot serve right now (answered 503 SERVICE_UNAVAILABLE with
 * Retry-After), as opposed to a fault of the plugin or the host (500). Example: the error of a
 * query on a dropped database (SQLSTATE 3D000, wrapped by Objection as `DBError` with the driver's
 * error as `nativeError`) -> true; `relation "members" does not exist` (42P01 from parserOpenTable)
 * -> true; `missing FROM-clause entry for table "role_user"` (42P01 from errorMissingRTE) -> false;
 * `invalid input syntax for type integer` (22P02) -> false.
 */
export function isUnavailable(error: unknown): boolean {
  // Objection wraps driver errors (DBError and its subclasses) and keeps the original as
  // `nativeError`; knex may chain it as `cause`. Look through a few layers of wrapping.
  for (let current = error, depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const layer = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      syscall?: unknown;
      routine?: unknown;
      nativeError?: unknown;
      cause?: unknown;
    };
    if (isUnavailableLayer(layer)) return true;
    current = layer.nativeError ?? layer.cause;
  }
  return false;
}
