// The floor's side of `total=estimated` and `total=none`
// (docs/query-language.md, "Totals: total=exact, estimated, none"), written by hand as a careful
// developer would: a count that stops at estimateAbove + 1 rows, PostgreSQL's planner estimate past
// it (kept 5 s per query, as the plugin keeps it by default), and Laravel's simple envelope from
// one row read past the page. BENCH_ESTIMATE_ABOVE (both servers read it; default the plugin's
// 10000) lowers the threshold, so a small data set can check the estimate path.

export type TotalMode = 'exact' | 'estimated' | 'none';

export const ESTIMATE_ABOVE = Number(process.env.BENCH_ESTIMATE_ABOVE ?? 10000);

export function totalMode(value: unknown): TotalMode {
  return value === 'estimated' || value === 'none' ? value : 'exact';
}

type Run = <R extends object>(sql: string, values: unknown[]) => Promise<R[]>;

/** The plugin's default `pagination.estimateTtlSeconds`, and a small bound on what is kept. */
const ESTIMATE_TTL_MS = 5000;
const ESTIMATES_KEPT = 256;
const estimates = new Map<string, { readonly rows: number; readonly expires: number }>();

/** `Plan Rows` of the query, planned at most once per ESTIMATE_TTL_MS for the same `where` and values. */
async function plannedRows(run: Run, where: string, values: unknown[]): Promise<number> {
  const key = `${where}\u0000${JSON.stringify(values)}`;
  const now = performance.now();
  const kept = estimates.get(key);
  if (kept !== undefined && now < kept.expires) return kept.rows;
  const plan = await run<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(
    `EXPLAIN (FORMAT JSON) SELECT * FROM users ${where}`,
    values,
  );
  const rows = plan[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  estimates.delete(key);
  estimates.set(key, { rows, expires: performance.now() + ESTIMATE_TTL_MS });
  // Oldest first out (a Map keeps insertion order).
  if (estimates.size > ESTIMATES_KEPT) estimates.delete(estimates.keys().next().value as string);
  return rows;
}

/**
 * `where` is `WHERE status = $1` (or ''), its values in `values`. A short page tells the exact total;
 * else a capped count, and past the threshold the plan's `Plan Rows`, never below the threshold + 1
 * nor below the records a full page proves.
 */
export async function estimatedTotal(
  run: Run,
  shown: number,
  page: number,
  perPage: number,
  where: string,
  values: unknown[],
): Promise<{ total: number; estimate: boolean }> {
  const offset = (page - 1) * perPage;
  if ((shown > 0 || page === 1) && shown < perPage) return { total: offset + shown, estimate: false };
  const capped = await run<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM users ${where} LIMIT $${values.length + 1}) capped`, [
    ...values,
    ESTIMATE_ABOVE + 1,
  ]);
  const counted = Number(capped[0]?.n);
  if (counted <= ESTIMATE_ABOVE) return { total: counted, estimate: false };
  const rows = Math.round(await plannedRows(run, where, values));
  return { total: Math.max(rows, ESTIMATE_ABOVE + 1, offset + shown), estimate: true };
}

/** Laravel's simple paginator: `rows` holds up to one row past the page. */
export function simpleEnvelope(path: string, url: (page: number) => string, rows: unknown[], page: number, perPage: number): object {
  const data = rows.slice(0, perPage);
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from,
    next_page_url: rows.length > perPage ? url(page + 1) : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: from === null ? null : from + data.length - 1,
  };
}
