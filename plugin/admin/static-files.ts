// Serves the built admin UI (dist/admin-ui) under a mount path. Only files inside that folder are
// served; anything else is left to the host app.

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

/** `/admin/assets/app.js` -> that file from dist/admin-ui; `/admin` -> index.html. Returns false if none. */
export async function serveAdminFile(ctx: Context, relative: string): Promise<boolean> {
  const wanted = relative === '' || relative === '/' ? 'index.html' : relative.replace(/^\/+/, '');
  const file = path.resolve(adminUiRoot, wanted);
  if (!file.startsWith(adminUiRoot + path.sep)) return false;
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat === undefined || !stat.isFile()) return false;
  ctx.type = contentTypes[path.extname(file)] ?? 'application/octet-stream';
  ctx.set('Cache-Control', wanted === 'index.html' ? 'no-cache' : 'public, max-age=3600');
  ctx.body = await fs.readFile(file);
  return true;
}
