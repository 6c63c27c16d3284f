// The reference for ranked search (docs/query-language.md, "Ranked search: match and similar"): the
// expected records of a `match` / `similar` request over rows held in memory. PostgreSQL is asked
// only for the primitives of one record's own values (does its document match the text, its
// ts_rank, its trigram similarity, and whether the text holds a term at all); which records are
// kept, their order, paging and fields are worked out here. It shares no code with plugin/.

import type { Knex } from 'knex';

export interface NoteRow {
  readonly id: number;
  readonly title: string;
  readonly body: string | null;
}

export interface RankedSpec {
  readonly match: string | null;
  readonly similar: string | null;
  /** `filter[id]=>=<n>`, or none. */
  readonly minId: number | null;
  readonly sort: 'none' | '_relevance:asc' | '_relevance:desc' | '_similarity:desc' | 'id:desc';
  readonly fields: readonly string[];
  readonly paging:
    { readonly kind: 'limit'; readonly limit: number; readonly offset: number } | { readonly kind: 'cursor'; readonly perPage: number };
}

export type RankedExpected = { readonly kind: 'refused' } | { readonly kind: 'records'; readonly records: Record<string, unknown>[] };

const DOCUMENT =
  "setweight(to_tsvector('english', coalesce(t.title, '')), 'A') || setweight(to_tsvector('english', coalesce(t.body, '')), 'B')";

/** For each row's own values: whether its document matches, its rank, and its title's similarity. */
async function primitives(
  knex: Knex,
  rows: readonly NoteRow[],
  spec: RankedSpec,
): Promise<Map<number, { matches: boolean; relevance: number; similarity: number }>> {
  const result = await knex.raw<{ rows: { id: number; matches: boolean; relevance: number; similarity: number }[] }>(
    `select t.id, (${DOCUMENT}) @@ websearch_to_tsquery('english', ?) as "matches",
       ts_rank(${DOCUMENT}, websearch_to_tsquery('english', ?)) as "relevance", similarity(t.title, ?) as "similarity"
     from unnest(?::int[], ?::text[], ?::text[]) as t(id, title, body)`,
    [
      spec.match ?? '',
      spec.match ?? '',
      spec.similar ?? '',
      rows.map((r) => r.id),
      rows.map((r) => r.title),
      rows.map((r) => r.body),
    ] as unknown as Knex.RawBinding[],
  );
  return new Map(result.rows.map((row) => [row.id, row]));
}

/** Whether the text holds a search term at all (PostgreSQL's own reading of it). */
async function hasTerm(knex: Knex, text: string): Promise<boolean> {
  const result = await knex.raw<{ rows: { nodes: number }[] }>("select numnode(websearch_to_tsquery('english', ?)) as nodes", [text]);
  return (result.rows[0]?.nodes ?? 0) > 0 && /[\p{L}\p{N}]/u.test(text);
}

/** The expected records of `spec` over `rows`: every record of the walk for a cursor, the slice for limit/offset. */
export async function evaluateRanked(knex: Knex, rows: readonly NoteRow[], spec: RankedSpec, threshold: number): Promise<RankedExpected> {
  if (spec.match !== null && !(await hasTerm(knex, spec.match))) return { kind: 'refused' };
  const facts = await primitives(knex, rows, spec);
  const kept = rows.filter((row) => {
    const fact = facts.get(row.id);
    if (fact === undefined) return false;
    if (spec.match !== null && !fact.matches) return false;
    if (spec.similar !== null && !(fact.similarity >= threshold)) return false;
    return spec.minId === null || row.id >= spec.minId;
  });
  const relevance = (row: NoteRow) => facts.get(row.id)?.relevance ?? 0;
  const similarity = (row: NoteRow) => facts.get(row.id)?.similarity ?? 0;
  const byDefault = (a: NoteRow, b: NoteRow) =>
    (spec.match === null ? 0 : relevance(b) - relevance(a)) || (spec.similar === null ? 0 : similarity(b) - similarity(a)) || a.id - b.id;
  const orders: Record<RankedSpec['sort'], (a: NoteRow, b: NoteRow) => number> = {
    none: byDefault,
    '_relevance:asc': (a, b) => relevance(a) - relevance(b) || a.id - b.id,
    '_relevance:desc': (a, b) => relevance(b) - relevance(a) || a.id - b.id,
    '_similarity:desc': (a, b) => similarity(b) - similarity(a) || a.id - b.id,
    'id:desc': (a, b) => b.id - a.id,
  };
  const ordered = [...kept].sort(orders[spec.sort]);
  const shown = spec.paging.kind === 'limit' ? ordered.slice(spec.paging.offset, spec.paging.offset + spec.paging.limit) : ordered;
  const value = (row: NoteRow, field: string): unknown =>
    field === '_relevance' ? relevance(row) : field === '_similarity' ? similarity(row) : row[field as keyof NoteRow];
  return { kind: 'records', records: shown.map((row) => Object.fromEntries(spec.fields.map((field) => [field, value(row, field)]))) };
}

/** The request's query string, as a client writes it. */
export function rankedQuery(spec: RankedSpec): string {
  const parts: string[] = [];
  if (spec.match !== null) parts.push(`match=${encodeURIComponent(spec.match)}`);
  if (spec.similar !== null) parts.push(`similar[title]=${encodeURIComponent(spec.similar)}`);
  if (spec.minId !== null) parts.push(`filter[id]=%3E%3D${spec.minId}`);
  if (spec.sort !== 'none') {
    const [field, direction] = spec.sort.split(':');
    parts.push(`sort[${field}]=${direction}`);
  }
  parts.push(`fields=${spec.fields.join(',')}`);
  parts.push(
    spec.paging.kind === 'limit' ? `limit=${spec.paging.limit}&offset=${spec.paging.offset}` : `per-page=${spec.paging.perPage}&cursor=`,
  );
  return parts.join('&');
}
