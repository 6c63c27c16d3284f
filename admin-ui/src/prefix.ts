// Owns where the page looks for its API: the prefix the plugin writes into the page when it serves
// it (a meta tag), and the spelling of a prefix typed into the settings.

/** The meta tag the plugin adds to index.html (plugin/admin/static-files.ts). */
const PREFIX_META = 'meta[name="koa-query-modifiers-prefix"]';

/** ` api/ ` -> `/api`; empty stays empty (collections at the root). */
export function normalisePrefix(text: string): string {
  const trimmed = text.trim().replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * The prefix the serving plugin named, e.g. `/cms/v2`; `fallback` when the page was not served by
 * the plugin (Vite's development server, which forwards `/api`).
 */
export function servedPrefix(fallback: string): string {
  const meta = document.querySelector<HTMLMetaElement>(PREFIX_META);
  return normalisePrefix(meta === null ? fallback : meta.content);
}
