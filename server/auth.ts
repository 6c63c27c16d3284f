// Owns the demo server's API token (API_TOKEN): whether a request carries it, and the gate that asks
// for it before anything else is answered, on every path but the probes `/health` and `/ready`.
// Programs send it as `Authorization: Bearer <token>`. A browser cannot add a header to a page it
// opens, so the token is also accepted as the password of HTTP Basic authentication (any user
// name): a refusal challenges both, and the browser asks for it once and sends it from then on.
import crypto from 'node:crypto';
import type Koa from 'koa';
import { sendProblem } from './problems';

/** Paths answered without the token: an orchestrator's probes carry no credentials. */
export const OPEN_PATHS: readonly string[] = ['/health', '/ready'];

/** The realm a browser shows in its sign-in box and keys the credentials it keeps by. */
const REALM = 'koa-query-modifiers demo';

function digest(text: string): Buffer {
  return crypto.createHash('sha256').update(text, 'utf8').digest();
}

/** The token an Authorization header carries: the Bearer token, or the password of Basic credentials. */
function presentedToken(header: string): string | undefined {
  const bearer = /^Bearer +(\S+) *$/i.exec(header);
  if (bearer !== null) return bearer[1];
  const basic = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (basic === null) return undefined;
  const credentials = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  return colon === -1 ? undefined : credentials.slice(colon + 1);
}

/**
 * A check of the Authorization header against `apiToken`, in constant time. Example:
 * `tokenCheck('s3cret')('Bearer s3cret')` -> `'valid'`; `''` -> `'missing'`; `'Bearer nope'` -> `'invalid'`.
 */
export function tokenCheck(apiToken: string): (authorization: string) => 'valid' | 'missing' | 'invalid' {
  const expected = digest(apiToken);
  return (authorization) => {
    if (authorization === '') return 'missing';
    const given = presentedToken(authorization);
    return given !== undefined && crypto.timingSafeEqual(digest(given), expected) ? 'valid' : 'invalid';
  };
}

/**
 * Lets a request through only with the token (or on an open path); otherwise 401 UNAUTHORIZED with
 * `WWW-Authenticate: Bearer` and a Basic challenge, whatever the path and the method.
 */
export function requireToken(apiToken: string): Koa.Middleware {
  const check = tokenCheck(apiToken);
  return async (ctx, next) => {
    if (OPEN_PATHS.includes(ctx.path)) {
      await next();
      return;
    }
    const verdict = check(ctx.get('Authorization'));
    if (verdict === 'valid') {
      await next();
      return;
    }
    sendProblem(ctx, {
      status: 401,
      code: 'UNAUTHORIZED',
      detail: verdict === 'missing' ? 'This API needs an "Authorization: Bearer <token>" header.' : 'The token is not valid.',
    });
    // Two header lines: browsers read one challenge per line.
    ctx.set('WWW-Authenticate', ['Bearer', `Basic realm="${REALM}", charset="UTF-8"`]);
  };
}
