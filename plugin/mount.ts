// Owns how the plugin's routers live beside the host's routes in one Koa app, whatever the mount
// order. A plugin router answers only GET and HEAD on the paths it serves and lets every other
// request through. The outermost plugin router whose prefix holds the path waits until everything
// after it has run and, only if nothing answered, sends the problem+json 404 or 405, or answers
// OPTIONS with the methods of every router that serves the path.

import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { problem, QueryError } from './errors';
import { renderProblem, unknownCollection } from './middleware';

/** What the fallback needs from one plugin router, besides its routes. */
export interface MountSettings {
  readonly prefix: string;
  readonly cors: Middleware | undefined;
  /** The collection names, or undefined when this client may not see them. */
  listCollections(ctx: Context): Promise<readonly string[] | undefined>;
  /** Answers a fault met while answering (a host hook that throws when asked about `_meta`). */
  fault(ctx: Context, error: unknown): void;
}

interface Mount extends MountSettings {
  readonly router: Router;
}

/** The plugin routers that own the request, outermost first; the first one answers what is left. */
const visits = new WeakMap<Context, Mount[]>();

/** `/api`, `/api/users` and `/api/a/b` are under `/api`; every path is under the empty prefix. */
function owns(mount: Mount, path: string): boolean {
  return path === mount.prefix || path.startsWith(`${mount.prefix}/`);
}

/** A CORS preflight asking to GET or HEAD, the only methods the plugin's CORS settings cover. */
function isReadPreflight(ctx: Context): boolean {
  const wanted = ctx.get('Access-Control-Request-Method').toUpperCase();
  return ctx.method === 'OPTIONS' && (wanted === 'GET' || wanted === 'HEAD');
}

/** The route layers (not plain middleware) of every router that matched the path, in match order. */
function matchedRoutes(ctx: Context): { readonly methods: readonly string[] }[] {
  const matched: unknown = (ctx as { matched?: unknown }).matched;
  if (!Array.isArray(matched)) return [];
  return matched.filter(
    (layer): layer is { methods: string[] } =>
      typeof layer === 'object' &&
      layer !== null &&
      Array.isArray((layer as { methods?: unknown }).methods) &&
      (layer as { methods: unknown[] }).methods.length > 0,
  );
}

/** `GET, HEAD` first, then every other method a matched route or an earlier Allow header names. */
function allowHeader(routes: readonly { readonly methods: readonly string[] }[], earlier: string): string {
  const methods = new Set<string>();
  for (const route of routes) for (const method of route.methods) methods.add(method.toUpperCase());
  for (const method of earlier.split(',')) if (method.trim() !== '') methods.add(method.trim().toUpperCase());
  const reads = ['GET', 'HEAD'].filter((method) => methods.has(method));
  return [...reads, ...[...methods].filter((method) => !reads.includes(method))].join(', ');
}

/** The Allow header already on the response ('' when none); Koa 3 gives undefined for a missing header. */
function allowSoFar(ctx: Context): string {
  const value: unknown = ctx.response.get('Allow');
  return typeof value === 'string' ? value : '';
}

function methodNotAllowed(ctx: Context, allow: string): QueryError {
  const methods = allow.split(', ').filter((method) => method !== 'OPTIONS');
  const use = methods.length < 2 ? methods.join('') : `${methods.slice(0, -1).join(', ')} or ${methods.at(-1) ?? ''}`;
  return new QueryError([problem('METHOD_NOT_ALLOWED', undefined, `${ctx.method} is not allowed here; use ${use}`)], { Allow: allow });
}

/** The 404 of the most specific prefix holding the path, naming collections only when every router allows. */
async function notFound(ctx: Context, mounts: readonly Mount[]): Promise<QueryError> {
  const longest = Math.max(...mounts.map((mount) => mount.prefix.length));
  const nearest = mounts.filter((mount) => mount.prefix.length === longest);
  const lists = await Promise.all(nearest.map((mount) => mount.listCollections(ctx)));
  const listed = lists.every((list) => list !== undefined) ? lists.flat() : undefined;
  // As sent, not decoded: routes match the path as sent, so `/api/%75sers` is not `/api/users`.
  return unknownCollection(ctx.path.slice(longest + 1), listed);
}

/**
 * The problem to send instead of what the response holds now, or undefined to leave it (after
 * adding the plugin's methods to an OPTIONS answer, or answering OPTIONS for a path the host serves).
 */
async function problemToSend(ctx: Context, mounts: readonly Mount[]): Promise<QueryError | undefined> {
  const answered = ctx.body !== undefined && ctx.body !== null;
  if (answered && ctx.method !== 'OPTIONS') return undefined;
  const routes = matchedRoutes(ctx);
  const isOurs = (route: object) => mounts.some((mount) => mount.router.stack.some((layer) => layer === route));
  const onlyOurs = routes.length > 0 && routes.every(isOurs);
  const allow = allowHeader(routes, allowSoFar(ctx));
  const { status, method } = ctx;
  if (answered) {
    if (status >= 300) return undefined;
    // allowedMethods() answers OPTIONS with an empty 200 built from the matched routes; when they are
    // only the plugin's, the answer is the plugin's own 405 (docs/errors.md, "METHOD_NOT_ALLOWED"),
    // as in the other mount order.
    if (ctx.body === '' && onlyOurs) return methodNotAllowed(ctx, allow);
    // Something else answered OPTIONS with the methods it knows: add the plugin's.
    if (allowSoFar(ctx) !== '' && routes.some(isOurs)) ctx.set('Allow', allow);
    return undefined;
  }
  if (status === 404 && (routes.length === 0 || routes.some((route) => route.methods.includes(method)))) {
    return notFound(ctx, mounts);
  }
  if (status === 404 && method === 'OPTIONS' && !onlyOurs) {
    // The host serves this path too: advertise every method served here, as allowedMethods() would.
    ctx.status = 200;
    ctx.body = '';
    ctx.set('Allow', allow);
    return undefined;
  }
  // A router's allowedMethods() may have set 405 or 501 without a body;
  // docs/errors.md, "METHOD_NOT_ALLOWED" wants 405 problem+json.
  if (status === 404 || (status === 405 && routes.length > 0)) return methodNotAllowed(ctx, allow);
  // 501 is a method no router implements (TRACE, PROPFIND), also where nothing serves the path. It
  // stays a 405 there (a 404 would be turned into 501 again by an allowedMethods() mounted before
  // this router), allowing what the plugin serves.
  if (status === 501) return methodNotAllowed(ctx, allow === '' ? 'GET, HEAD' : allow);
  return undefined;
}

/** Sends the plugin's answer once every router and middleware after it has run, if one is due. */
async function answerUnhandled(ctx: Context, mounts: readonly Mount[], mount: Mount): Promise<void> {
  let answer: (() => void) | undefined;
  try {
    const error = await problemToSend(ctx, mounts);
    if (error !== undefined) answer = () => renderProblem(ctx, error);
  } catch (fault) {
    answer = () => mount.fault(ctx, fault);
  }
  const send = answer;
  if (send === undefined) return;
  const cors = mounts.find((each) => each.cors !== undefined)?.cors;
  if (cors === undefined) {
    send();
    return;
  }
  await cors(ctx, () => {
    send();
    return Promise.resolve();
  });
}

type Dispatch = ReturnType<Router['middleware']>;

/** Wraps the router's dispatch: registers the visit, answers read preflights, and runs the fallback. */
function mountedDispatch(mount: Mount, dispatch: Dispatch): Dispatch {
  return async (ctx, next) => {
    if (!owns(mount, ctx.path)) {
      await dispatch(ctx, next);
      return;
    }
    const visit = visits.get(ctx);
    const mounts = visit ?? [];
    mounts.push(mount);
    if (visit === undefined) visits.set(ctx, mounts);
    // Routes match GET and HEAD only, so the router-level CORS middleware never sees a preflight.
    if (mount.cors !== undefined && isReadPreflight(ctx) && mount.router.match(ctx.path, 'GET').route) {
      await mount.cors(ctx, next);
      return;
    }
    await dispatch(ctx, next);
    if (visit === undefined) await answerUnhandled(ctx, mounts, mount);
  };
}

/**
 * The router `queryModifiers()` returns: an @koa/router Router whose `routes()` leaves every request
 * it does not serve to the rest of the app, and answers 404/405 under its prefix only when nothing
 * else did. Mount it before or after your own routers:
 * `app.use(router.routes()).use(router.allowedMethods()).use(own.routes()).use(own.allowedMethods())`.
 */
export class MountedRouter extends Router {
  private readonly mount: Mount;

  constructor(settings: MountSettings) {
    // Case-sensitive, like the collection names in the catalog: /api/USERS is not /api/users.
    super({ sensitive: true });
    this.mount = { ...settings, router: this };
  }

  override middleware(): Dispatch {
    // Keeps `.router`, which @koa/router reads when a router is nested in another.
    return Object.assign(mountedDispatch(this.mount, super.middleware()), { router: this });
  }
}
