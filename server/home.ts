// Owns the demo server's index at `/`: the collection names, a few example URLs to try, and where the
// admin UI, the OpenAPI document and the health probe are, as JSON, or for a browser as a page whose
// first link opens the admin UI. Any other method on `/` is a 405.
import type Koa from 'koa';
import { methodNotAllowed, sendProblem } from './problems';

const EXAMPLE_QUERIES: readonly string[] = [
  'users?filter[id]=>=5&sort[name]=desc&per-page=10',
  'users?search[name]=an&fields=id,name,email',
  'users?between[created_at]=2025-04-01,2025-04-17&filter[status]=active',
  'users?filter[role]=admin&filter[or status]=banned&sort[created_at]=desc',
  'users?in[role]=admin,editor&fields!=updated_at',
  'users?expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&p_filter[status]=published',
  'posts?expand[author]&sort[views]=desc&limit=5',
];

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The index for a browser: the admin UI first, then the collections, the OpenAPI document and the probe. */
function homePage(index: { collections: Record<string, string>; admin?: string; openapi: string; health: string }): string {
  const link = (href: string, text: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
  const collections = Object.entries(index.collections).map(([name, url]) => link(url, `${name} (JSON)`));
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>koa-query-modifiers demo</title></head><body><h1>koa-query-modifiers demo</h1>',
    index.admin === undefined
      ? ''
      : `<p><a href="${escapeHtml(index.admin)}"><strong>Open the admin UI</strong></a>: browse, filter and export the records.</p>`,
    `<h2>For developers</h2><ul>${collections.join('')}${link(index.openapi, 'OpenAPI document')}${link(index.health, 'Health probe')}</ul>`,
    '</body></html>',
  ].join('');
}

/**
 * `GET /` -> `{name, collections: {users: '<origin>/api/users', ...}, examples, admin, openapi, health}`;
 * `admin` (the admin UI's address) only when `adminPath` is given.
 */
export function homeRoute(prefix: string, collections: readonly string[], adminPath?: string): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/') {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      sendProblem(ctx, methodNotAllowed(ctx.method));
      return;
    }
    // Koa 3 `ctx.origin` is the Origin request header, not this server: build the origin from protocol and host.
    const origin = `${ctx.protocol}://${ctx.host}`;
    const base = `${origin}${prefix}`;
    const index = {
      name: 'koa-query-modifiers demo',
      collections: Object.fromEntries(collections.map((name) => [name, `${base}/${name}`])),
      examples: EXAMPLE_QUERIES.map((query) => `${base}/${query}`),
      ...(adminPath === undefined ? {} : { admin: `${origin}${adminPath}/` }),
      openapi: `${base}/openapi.json`,
      health: `${origin}/health`,
    };
    ctx.vary('Accept');
    // A browser asks for HTML first: it gets a page with links; every other client the JSON.
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.type = 'html';
      ctx.body = homePage(index);
    } else ctx.body = index;
  };
}
