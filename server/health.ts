// Owns the demo server's probes: `GET /health` (the process answers) and `GET /ready` (the database
// answers `select 1`). Both sit outside the plugin, so they need no API token.
import type Koa from 'koa';
import type { Knex } from 'knex';
import { QueryError } from '../plugin';
import type { Logger } from './logging';

const READY_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function sendJson(ctx: Koa.Context, status: number, body: unknown, type = 'application/json; charset=utf-8'): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = JSON.stringify(body);
  ctx.type = type;
}

/**
 * `GET /health` -> 200 `{"status":"ok"}`; `GET /ready` -> 200 `{"status":"ok"}` when `select 1` answers
 * within 2 s, otherwise 503 `SERVICE_UNAVAILABLE` problem+json (the database error is logged).
 */
export function healthRoutes(knex: Knex, logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/health') return sendJson(ctx, 200, { status: 'ok' });
    if (ctx.path !== '/ready') return next();
    try {
      await withTimeout(knex.raw('select 1'), READY_TIMEOUT_MS);
      sendJson(ctx, 200, { status: 'ok' });
    } catch (error) {
      logger.error({ requestId: ctx.state.requestId, err: error }, 'readiness check: the database does not answer');
      const problem = new QueryError([{ code: 'SERVICE_UNAVAILABLE', detail: 'The database is not answering.' }], { 'Retry-After': '1' });
      for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
      sendJson(ctx, 503, problem.toBody(), 'application/problem+json');
    }
  };
}
