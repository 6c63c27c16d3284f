// Owns the demo server's structured logs: a pino logger chosen from the environment, one JSON line
// per request (request id, method, path, collection, status, duration, SQL statements, problem code,
// the lane it ran in, and a 503's database error from the plugin's report), and the plugin's `logger` adapter.
import crypto from 'node:crypto';
import type Koa from 'koa';
import pino, { type Logger } from 'pino';
import type { QueryModifiersLogger, RequestReport } from '../plugin';

export type { Logger } from 'pino';

/** The environment variables logging reads. */
export interface LoggingEnv {
  readonly LOG_LEVEL?: string | undefined;
  readonly NODE_ENV?: string | undefined;
}

const levels = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * `createLogger({ LOG_LEVEL: 'debug' })` -> a JSON logger on stdout. Quiet (`silent`) under
 * `NODE_ENV=test` or `LOG_LEVEL=silent`; an unknown level falls back to `info`.
 */
export function createLogger(env: LoggingEnv, destination?: pino.DestinationStream): Logger {
  const wanted = (env.LOG_LEVEL ?? '').toLowerCase();
  const level = env.NODE_ENV === 'test' ? 'silent' : levels.has(wanted) ? wanted : 'info';
  const options: pino.LoggerOptions = { level, base: { service: 'koa-query-modifiers' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** Errors already written with their request line, so Koa's `error` event does not log them twice. */
const loggedErrors = new WeakSet();

// A client-supplied id is echoed back and written to the logs: keep it short and printable.
const requestIdShape = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

/** The client's `X-Request-Id` when it is short and printable, else a new one. */
export function requestIdFrom(given: string | undefined): string {
  return given !== undefined && requestIdShape.test(given) ? given : crypto.randomUUID();
}

/**
 * The `logger` option of the plugin. The plugin also puts a 503's database error on the request's
 * report, so the request line carries it with the request id; this logger keeps the plugin's own
 * error message at debug level only, to avoid writing the same error twice. (No AsyncLocalStorage:
 * its promise hooks cost every request, measured in docs/design/request-log-context.md.) A start-up
 * warning (cursors without CURSOR_SECRET), a replica leaving rotation (`warn`) and coming back
 * (`info`) belong to no request, so they are logged at their own level.
 */
export function pluginLogger(logger: Logger): Required<QueryModifiersLogger> {
  return {
    error(message, error) {
      logger.debug({ err: error }, message);
    },
    warn(message, error) {
      if (error === undefined) logger.warn(message);
      else logger.warn({ err: error }, message);
    },
    info(message) {
      logger.info(message);
    },
  };
}

/** Faults the server's own middleware answered (problems.ts), for the request's log line. */
const faults = new WeakMap<Koa.Context, unknown>();

/** Keeps `error` as the fault behind this request's 500 or 503, written on its log line. */
export function noteFault(ctx: Koa.Context, error: unknown): void {
  faults.set(ctx, error);
}

function pluginReport(ctx: Koa.Context): Readonly<RequestReport> {
  const report: unknown = (ctx.state as { queryModifiers?: unknown }).queryModifiers;
  return typeof report === 'object' && report !== null ? report : {};
}

/** The `code` of a problem+json body, for 4xx answered without a plugin report (e.g. /ready). */
function problemCode(ctx: Koa.Context): string | undefined {
  if (!ctx.response.is('application/problem+json') || typeof ctx.body !== 'string') return undefined;
  try {
    const code: unknown = (JSON.parse(ctx.body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Logs one line per request when the response is done. The request id comes from `X-Request-Id`
 * (or is generated) and is echoed in the response. 4xx lines carry the problem code, 5xx lines the error.
 */
export function requestLogger(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const requestId = requestIdFrom(ctx.get('X-Request-Id'));
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    let thrown: unknown;
    try {
      await next();
    } catch (error) {
      thrown = error;
      throw error;
    } finally {
      const exposed = thrown as { status?: unknown; expose?: unknown } | undefined;
      const status = thrown === undefined ? ctx.status : typeof exposed?.status === 'number' ? exposed.status : 500;
      const report = pluginReport(ctx);
      const line: Record<string, unknown> = {
        requestId,
        method: ctx.method,
        path: ctx.path,
        collection: report.collection,
        status,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
        statements: report.statements,
      };
      // With read replicas: which server answered, and the replica a first attempt failed on.
      if (report.server !== undefined) line.server = report.server;
      if (report.retriedFrom !== undefined) line.retriedFrom = report.retriedFrom;
      // Which lane the request ran (or waited) in: `heavy` or `cheap` (docs/scaling.md, lanes).
      if (report.lane !== undefined) line.lane = report.lane;
      if (status >= 400) line.code = report.code ?? problemCode(ctx);
      // A busy server refusing work is no fault: its line has the code, and no error.
      const busy = line.code === 'SERVER_BUSY';
      if (status >= 500 && !busy) line.err = thrown ?? report.error ?? faults.get(ctx);
      if (typeof thrown === 'object' && thrown !== null) loggedErrors.add(thrown);
      const level = status >= 500 && !busy ? 'error' : status >= 400 ? 'warn' : 'info';
      logger[level](line, 'request');
    }
  };
}

/** Replaces Koa's default stderr error printing: errors not already logged with a request go to pino. */
export function logAppErrors(app: Koa, logger: Logger): void {
  app.on('error', (error: unknown) => {
    if (typeof error === 'object' && error !== null && loggedErrors.has(error)) return;
    logger.error({ err: error }, 'unhandled application error');
  });
}
