// Who may use the explain view. It shows what the API hides (the scope hooks' conditions and values,
// columns that are not projectable, the keys of a page), so it needs two things: the host turned it
// on (`admin: {explain: true}`), and the authorize hook answers exactly `true` to `'_explain'`.

import type { Context } from 'koa';
import type { ResolvedOptions } from '../options';

/**
 * Whether this client could use the explain view, for `<prefix>/_meta` (the admin UI hides its
 * button otherwise). Example: with `admin: {}`, false for everyone. The hook is asked quietly: the
 * headers it sets while answering (a `WWW-Authenticate` on refusal) do not belong on `_meta`.
 */
export async function mayExplain(ctx: Context, options: ResolvedOptions): Promise<boolean> {
  if (options.admin?.explain !== true) return false;
  if (options.authorize === undefined) return true;
  const before = { ...ctx.response.headers };
  const result = await options.authorize(ctx, '_explain');
  const after = ctx.response.headers;
  for (const name of Object.keys(after)) if (!(name in before)) ctx.remove(name);
  for (const [name, value] of Object.entries(before)) {
    if (value !== undefined && after[name] !== value) ctx.set(name, Array.isArray(value) ? value : String(value));
  }
  return result === true;
}
