// Serves the built admin UI (dist/admin-ui) under a mount path, telling the page where its API is.
// Only files inside that folder are served; anything else is left to the host app.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The folder the build writes the admin UI to: dist/admin-ui beside dist/plugin. */
export const adminUiRoot = path.resolve(__dirname, '..', '..', 'admin-ui');

/** The meta tag the admin UI reads its API prefix from (admin-ui/src/prefix.ts). */
export const prefixMetaName = 'koa-query-modifiers-prefix';

/** `/cms/v2` -> index.html with `<meta name="koa-query-modifiers-prefix" content="/cms/v2">` in its head. */
export function withPrefix(html: string, prefix: string): string {
  const escaped = prefix.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return html.replace('</head>', `  <meta name="${prefixMetaName}" content="${escaped}">\n</head>`);
}

/**
 * `/admin/assets/app.js` -> that file from dist/admin-ui; `/admin` -> index.html, naming the API
 * `prefix` in a meta tag. Returns false if there is no such file.
 */
export async function serveAdminFile(ctx: Context, relative: string, prefix: string): Promise<boolean> {
  const wanted = relative === '' || relative === '/' ? 'index.html' : relative.replace(/^\/+/, '');
  const file = path.resolve(adminUiRoot, wanted);
  if (!file.startsWith(adminUiRoot + path.sep)) return false;
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) return false;
  ctx.type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
  ctx.set('Cache-Control', wanted === 'index.html' ? 'no-cache' : 'public, max-age=3600');
  // The UI is built once but mounted anywhere: only the server knows where the API is.
  ctx.body = wanted === 'index.html' ? withPrefix(await fs.readFile(file, 'utf8'), prefix) : await fs.readFile(file);
  return true;
}
