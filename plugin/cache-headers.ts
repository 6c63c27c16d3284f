// Who may keep an answer (docs/configuration.md, "Caching under hooks"): with an `authorize`, `scope` or
// `scopeModel` hook an answer depends on who asks, so it is `private` unless the host's
// `cacheControl` decides sharing itself; a shared one (`public`, `s-maxage`) needs the `vary` headers
// the hooks read, or a shared cache would give one caller's answer to another.

/** The parts of the options this file reads; the unresolved options have them too. */
interface CachingOptions {
  readonly cacheControl?: string | Readonly<Record<string, string>>;
  readonly vary?: readonly string[];
  readonly authorize?: unknown;
  readonly scope?: unknown;
  readonly scopeModel?: unknown;
}

/** The same parts once resolved: `cacheControl` and `vary` always set. */
interface ResolvedCaching extends CachingOptions {
  readonly cacheControl: string | Readonly<Record<string, string>>;
  readonly vary: readonly string[];
}

/** What a successful answer carries: its Cache-Control, and the request headers added to Vary. */
export interface Caching {
  readonly cacheControl: string;
  readonly vary: readonly string[];
}

/** `'public, max-age=60'` -> `['public', 'max-age']`. */
function directives(value: string): string[] {
  return value.split(',').map((part) => (part.split('=')[0] ?? '').trim().toLowerCase());
}

/** The directives that let a shared cache keep an answer for others, even one to a request with `Authorization`. */
const sharedDirectives: ReadonlySet<string> = new Set(['public', 's-maxage']);

/** The directives that say by themselves who may keep an answer. */
const decidingDirectives: ReadonlySet<string> = new Set([...sharedDirectives, 'private', 'no-store']);

/** Whether the answers depend on who asks: a hook reads the request. */
export function dependsOnCaller(options: CachingOptions): boolean {
  return options.authorize !== undefined || options.scope !== undefined || options.scopeModel !== undefined;
}

/**
 * A start-up problem for each `cacheControl` that lets shared caches keep answers that depend on who
 * asks, without `vary`. Example: `{scope, cacheControl: 'public, max-age=60'}` -> one problem.
 */
export function sharedCacheProblems(options: CachingOptions): string[] {
  if (!dependsOnCaller(options) || (options.vary?.length ?? 0) > 0) return [];
  const setting = options.cacheControl;
  const values: [string, unknown][] =
    typeof setting === 'object'
      ? Object.entries(setting).map(([name, value]) => [`cacheControl.${name}`, value])
      : [['cacheControl', setting]];
  return values
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && directives(entry[1]).some((d) => sharedDirectives.has(d)))
    .map(
      ([where, value]) =>
        `${where} "${value}" lets shared caches keep answers, but the authorize, scope or scopeModel hook makes each answer ` +
        "depend on who asks: set vary to the request headers those hooks read (e.g. vary: ['Authorization', 'X-Tenant']) " +
        'so a shared cache keeps one copy per caller, or drop public and s-maxage',
    );
}

function configured(options: ResolvedCaching, collection: string | undefined): string {
  const setting = options.cacheControl;
  if (typeof setting === 'string') return setting;
  if (collection !== undefined && Object.prototype.hasOwnProperty.call(setting, collection)) return setting[collection] as string;
  return 'no-cache';
}

/**
 * The Cache-Control and Vary of a successful answer about `collection` (or of the plugin's other
 * JSON: `_meta`, `openapi.json`). Example: with a scope hook and no `cacheControl`,
 * `{cacheControl: 'private, no-cache', vary: []}`.
 */
export function cachingFor(options: ResolvedCaching, collection?: string): Caching {
  let known = cachingOf.get(options);
  if (known === undefined) {
    known = new Map();
    cachingOf.set(options, known);
  }
  const key = collection ?? '';
  const found = known.get(key);
  if (found !== undefined) return found;
  const value = configured(options, collection);
  const decided = directives(value).some((d) => decidingDirectives.has(d));
  const made = Object.freeze({ cacheControl: decided || !dependsOnCaller(options) ? value : `private, ${value}`, vary: options.vary });
  known.set(key, made);
  return made;
}

// Worked out once per router and collection (`''`: the plugin's other JSON); bounded by the collections.
const cachingOf = new WeakMap<ResolvedCaching, Map<string, Caching>>();
