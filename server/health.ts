// Owns the demo server's probes: `GET /health` (the process answers) and `GET /ready` (the database
// answers and every table the app serves is there). Both sit outside the plugin, so they need no API
// token. /ready tells a failure apart the way the plugin's routes do, so the two agree on 503.
import type Koa from 'koa';
import type { Knex } from 'knex';
import { isUnavailable } from '../plugin/errors';
import { DEMO_TABLES } from './demo/schema';
import type { Logger } from './logging';
import { methodNotAllowed, sendProblem } from './problems';

const READY_TIMEOUT_MS = 2000;

/** The probe took longer than READY_TIMEOUT_MS: as unavailable as a statement timeout. */
class ReadyTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReadyTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One statement that reads no row but names every table, so a table that is gone fails it with
 * 42P01 as the routes would. Example: `['users', 'posts']` ->
 * `select 1, (select 1 from "users" limit 0), (select 1 from "posts" limit 0)`.
 */
function readinessProbe(knex: Knex, tables: readonly string[]): Knex.Raw {
  return knex.raw(`select 1${tables.map(() => ', (select 1 from ?? limit 0)').join('')}`, [...tables]);
}

function sendOk(ctx: Koa.Context): void {
  ctx.status = 200;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = JSON.stringify({ status: 'ok' });
  ctx.type = 'application/json; charset=utf-8';
}

/**
 * `GET /health` -> 200 `{"status":"ok"}`; `GET /ready` -> 200 `{"status":"ok"}` when the database
 * answers a probe of `tables` (default: the demo tables) within 2 s, 503 `SERVICE_UNAVAILABLE`
 * problem+json when it cannot serve (the database error is logged); any other fault is thrown, a
 * 500 (problems.ts). Any other method on either path is a 405.
 */
export function healthRoutes(knex: Knex, logger: Logger, tables: readonly string[] = DEMO_TABLES): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/health' && ctx.path !== '/ready') {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      sendProblem(ctx, methodNotAllowed(ctx.method));
      return;
    }
    if (ctx.path === '/health') {
      sendOk(ctx);
      return;
    }
    try {
      await withTimeout(readinessProbe(knex, tables), READY_TIMEOUT_MS);
      sendOk(ctx);
    } catch (error) {
      if (!(error instanceof ReadyTimeout) && !isUnavailable(error)) throw error;
      logger.error({ requestId: ctx.state.requestId, err: error }, 'readiness check: the database does not answer');
      sendProblem(ctx, {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        detail: 'The database is not answering.',
        headers: { 'Retry-After': '1' },
      });
    }
  };
}
