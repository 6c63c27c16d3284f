// Where the plugin reports what clients are not told, as the host gives it (docs/configuration.md).

/**
 * Where the plugin reports what clients are not told: `error` for database failures and faults (and the
 * start-up warning about a random cursor key when there is no `warn`),
 * `warn` for a replica leaving rotation (falls back to `error`), `info` for one coming back (skipped
 * without it).
 */
export interface QueryModifiersLogger {
  error(message: string, error?: unknown): void;
  warn?(message: string, error?: unknown): void;
  info?(message: string): void;
}
