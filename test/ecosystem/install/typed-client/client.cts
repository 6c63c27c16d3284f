// A small typed fetch client over the types openapi-typescript generates from the plugin's OpenAPI
// document (src/api.cts): the path chooses the query parameters and the 200 body's type.
import type { paths } from './api.cjs';

type Operation<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;

/** The query parameters of `GET <path>`: `fields`, the deepObject families (`filter`, `sort`, ...), paging. */
export type Query<P extends keyof paths> = Operation<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The 200 body of `GET <path>`: a bare array of records or one of the page envelopes. */
export type Ok<P extends keyof paths> =
  Operation<P> extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/**
 * As the document's styles say: `{filter: {status: 'a'}, fields: ['id', 'name'], 'per-page': 2}` ->
 * `filter%5Bstatus%5D=a&fields=id,name&per-page=2` (deepObject families, comma-separated lists).
 */
export function queryString(query: Readonly<Record<string, unknown>>): string {
  const pairs: string[] = [];
  const text = (value: unknown): string => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) pairs.push(`${encodeURIComponent(name)}=${value.map(text).join(',')}`);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) pairs.push(`${encodeURIComponent(`${name}[${key}]`)}=${text(item)}`);
    } else pairs.push(`${encodeURIComponent(name)}=${text(value)}`);
  }
  return pairs.join('&');
}

export async function list<P extends keyof paths>(origin: string, path: P, query: Query<P>): Promise<Ok<P>> {
  const res = await fetch(`${origin}${String(path)}?${queryString(query)}`);
  if (res.status !== 200) throw new Error(`${String(path)} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Ok<P>;
}
