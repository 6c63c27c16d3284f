// Owns the demo server's CORS (CORS_ORIGIN): which origins may read the API, and the CORS headers on
// every answer under the prefix, refusals included, with the preflights answered before the API
// token is asked for: a browser sends a preflight without credentials, and a 401 without CORS
// headers is one the page cannot even read.
import cors from '@koa/cors';
import type Koa from 'koa';

/** Headers a browser script may read on a cross-origin answer. */
const EXPOSED_HEADERS = ['X-Result-Truncated', 'X-Request-Id', 'Server-Timing'];

/**
 * `CORS_ORIGIN` as the app's `cors` setting: `*`, one origin, or a comma-separated list of origins.
 * Unset or empty turns CORS off. Example: `corsFromEnv('https://app.example')` -> `{origin: 'https://app.example'}`.
 */
export function corsFromEnv(value: string | undefined): { origin: string } | undefined {
  const origin = value?.trim();
  return origin === undefined || origin === '' ? undefined : { origin };
}

/** @koa/cors options for reads: a list echoes the request's Origin when it is listed. */
function corsOptions(setting: { readonly origin: string }): cors.Options {
  const allowed = setting.origin
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  const origin =
    allowed.length === 1 || allowed.includes('*')
      ? allowed.includes('*')
        ? '*'
        : (allowed[0] as string)
      : (ctx: Koa.Context): string => (allowed.includes(ctx.get('Origin')) ? ctx.get('Origin') : '');
  return { origin, allowMethods: ['GET', 'HEAD'], exposeHeaders: EXPOSED_HEADERS, maxAge: 600 };
}

/** A preflight asking for another method than a read: left to the 401 or 405 it will get. */
function isOtherPreflight(ctx: Koa.Context): boolean {
  const wanted = ctx.get('Access-Control-Request-Method').toUpperCase();
  return ctx.method === 'OPTIONS' && wanted !== '' && wanted !== 'GET' && wanted !== 'HEAD';
}

/**
 * CORS on every path under `prefix` (`/api`, `/api/users`, `/api/nope` alike, so a preflight tells
 * nothing about which collections exist). Example: `corsForApi({origin: 'https://app.example'}, '/api')`.
 */
export function corsForApi(setting: { readonly origin: string }, prefix: string): Koa.Middleware {
  const apply = cors(corsOptions(setting));
  return async (ctx, next) => {
    const under = ctx.path === prefix || ctx.path.startsWith(`${prefix}/`);
    if (!under || isOtherPreflight(ctx)) {
      await next();
      return;
    }
    await apply(ctx, next);
  };
}
