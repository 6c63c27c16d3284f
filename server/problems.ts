// Owns the demo server's own problem answers, in the plugin's shape and codes (plugin/errors): the
// problem+json body written on a Koa context or as a whole HTTP response for a request that never
// reaches Koa, and the last word on every request: a fault in the server's middleware is a 500
// INTERNAL_ERROR (503 when the database cannot serve), and what nothing answered is a 404 or a 405
// problem, never Koa's text/plain.
import { STATUS_CODES } from 'node:http';
import type Koa from 'koa';
import { isUnavailable, problem, problemBody, QueryError, type ProblemCode } from '../plugin/errors';
import { noteFault } from './logging';

/** One answer: a status and a code of the plugin's table, whose statuses it may widen (LIMIT_EXCEEDED as 414). */
export interface ServerProblem {
  readonly status: number;
  readonly code: ProblemCode;
  readonly detail: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The methods every path of the demo server answers; anything else is a 405 naming them. */
export const READ_METHODS = 'GET, HEAD';

/** `{status: 431, code: 'LIMIT_EXCEEDED', ...}` -> its problem+json text. */
export function problemText(answer: ServerProblem): string {
  return JSON.stringify(problemBody([problem(answer.code, undefined, answer.detail)], answer.status));
}

function writeProblem(ctx: Koa.Context, status: number, text: string, headers: Readonly<Record<string, string>>): void {
  ctx.status = status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = text;
  ctx.type = 'application/problem+json';
}

/** Sends `answer` as application/problem+json, never cached, as the plugin sends its own. */
export function sendProblem(ctx: Koa.Context, answer: ServerProblem): void {
  writeProblem(ctx, answer.status, problemText(answer), answer.headers ?? {});
}

/**
 * A whole HTTP/1.1 response for a connection that never reached the app, closing it. Example:
 * `rawProblem({status: 400, code: 'MALFORMED_PARAMETER', ...}, id)` -> `HTTP/1.1 400 Bad Request\r\n...`.
 */
export function rawProblem(answer: ServerProblem, requestId: string): string {
  const body = problemText(answer);
  const headers: Record<string, string> = {
    ...answer.headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** `POST` on a path that only reads: 405 with `Allow: GET, HEAD`. */
export function methodNotAllowed(method: string, allow = READ_METHODS): ServerProblem {
  const methods = allow.split(', ');
  const use = methods.length < 2 ? allow : `${methods.slice(0, -1).join(', ')} or ${methods.at(-1) ?? ''}`;
  return { status: 405, code: 'METHOD_NOT_ALLOWED', detail: `${method} is not allowed here; use ${use}`, headers: { Allow: allow } };
}

/** `HEAD, GET, OPTIONS` (as a router sets it) -> `GET, HEAD` first, then the rest; empty -> `GET, HEAD`. */
function allowOf(header: unknown): string {
  const methods = new Set(
    typeof header === 'string'
      ? header
          .split(',')
          .map((m) => m.trim().toUpperCase())
          .filter((m) => m !== '')
      : [],
  );
  methods.delete('OPTIONS');
  const others = [...methods].filter((method) => method !== 'GET' && method !== 'HEAD');
  return ['GET', 'HEAD', ...others].join(', ');
}

/** A client error thrown the Koa way (`ctx.throw(400)`), by the status it carries. */
const codeOfStatus: Readonly<Record<number, ProblemCode>> = {
  400: 'MALFORMED_PARAMETER',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'UNKNOWN_COLLECTION',
  405: 'METHOD_NOT_ALLOWED',
  408: 'LIMIT_EXCEEDED',
  414: 'LIMIT_EXCEEDED',
  431: 'LIMIT_EXCEEDED',
};

function exposedClientError(error: unknown): ServerProblem | undefined {
  const { status, expose, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
  };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true) return undefined;
  const code = codeOfStatus[status];
  const detail = typeof message === 'string' && message !== '' ? message : 'The request cannot be answered';
  // A 4xx with no code of its own is still the client's: the generic 400.
  return code === undefined ? { status: 400, code: 'MALFORMED_PARAMETER', detail } : { status, code, detail };
}

/** Headers that still hold after a fault: the request's id, what answers vary on, and CORS (so a page can read the 500). */
const keptAfterFault = (name: string): boolean => name === 'x-request-id' || name === 'vary' || name.startsWith('access-control-');

function answerFault(ctx: Koa.Context, error: unknown): void {
  if (error instanceof QueryError) return writeProblem(ctx, error.status, JSON.stringify(error.toBody()), error.headers);
  const client = exposedClientError(error);
  if (client !== undefined) return sendProblem(ctx, client);
  noteFault(ctx, error);
  // Headers set before the fault describe an answer that was not sent.
  for (const name of Object.keys(ctx.response.headers)) if (!keptAfterFault(name)) ctx.remove(name);
  sendProblem(
    ctx,
    isUnavailable(error)
      ? {
          status: 503,
          code: 'SERVICE_UNAVAILABLE',
          detail: 'The database is not answering right now; try again shortly',
          headers: { 'Retry-After': '1' },
        }
      : { status: 500, code: 'INTERNAL_ERROR', detail: 'The server failed to answer this request; the error has been logged' },
  );
}

/**
 * What to send when nothing answered: a router's bare 404, 405 or 501 (a method no router knows),
 * or the empty 200 a router's allowedMethods() gives OPTIONS, which the plugin answers 405 on its
 * own paths too.
 */
function unanswered(ctx: Koa.Context): ServerProblem | undefined {
  if (ctx.method === 'OPTIONS' && ctx.status === 200 && ctx.body === '')
    return methodNotAllowed(ctx.method, allowOf(ctx.response.get('Allow')));
  if (ctx.body !== undefined && ctx.body !== null) return undefined;
  if (ctx.status === 404) {
    return {
      status: 404,
      code: 'UNKNOWN_COLLECTION',
      detail: `Nothing is served at ${JSON.stringify(ctx.path.slice(0, 100))}; / lists what this server serves`,
    };
  }
  if (ctx.status === 405 || ctx.status === 501) return methodNotAllowed(ctx.method, allowOf(ctx.response.get('Allow')));
  return undefined;
}

/**
 * The server's outermost answer (inside the request log, so the log line has the final status):
 * every fault below it and every request nothing answered ends as a problem, with the request's
 * `X-Request-Id` kept. A fault after the headers went out can only be left to Koa, which closes
 * the connection.
 */
export function serverProblems(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (ctx.headerSent) throw error;
      answerFault(ctx, error);
      return;
    }
    const answer = unanswered(ctx);
    if (answer !== undefined) sendProblem(ctx, answer);
  };
}
