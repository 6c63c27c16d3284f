// The floor's facets and stats for shape 23 (filter[status]=<s>&facet[status]&facet[role]&
// facet[created_at]=month&stats[score]): what a careful developer writes by hand. One statement: the
// status counts over every user (the page's own status clause does not apply to its facet), and the
// matching users grouped by role, by month, and aggregated for the stats, each a plain GROUP BY (one
// scan grouped by GROUPING SETS was slower: docs/benchmarks.md, "Facets and stats"). Ordered and cut
// to ten values per facet in JavaScript, as the API shows them.

type Row = Record<string, unknown>;
type Query = <R extends object>(sql: string, values: unknown[]) => Promise<R[]>;

const LIMIT = 10;

interface Counted {
  value: string;
  count: number;
}

const byCountThenValue = (a: Counted, b: Counted): number => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
const byValue = (a: Counted, b: Counted): number => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

export async function facetsOf(query: Query, status: string): Promise<object> {
  const rows = await query<Row>(
    `SELECT 0 AS i, status AS v, count(*)::int AS n, NULL::text AS min, NULL::text AS max, NULL::text AS avg, NULL::text AS sum
       FROM users GROUP BY status
     UNION ALL
     SELECT 1, role, count(*)::int, NULL, NULL, NULL, NULL FROM users WHERE status = $1 GROUP BY role
     UNION ALL
     SELECT 2, to_char(m, 'YYYY-MM-DD'), n, NULL, NULL, NULL, NULL
       FROM (SELECT date_trunc('month', created_at AT TIME ZONE 'UTC') AS m, count(*)::int AS n FROM users WHERE status = $1 GROUP BY 1) AS months
     UNION ALL
     SELECT 3, NULL, NULL, min(score)::text, max(score)::text, avg(score)::text, sum(score)::text FROM users WHERE status = $1`,
    [status],
  );
  const of = (i: number): Counted[] => rows.filter((r) => r.i === i).map((r) => ({ value: r.v as string, count: r.n as number }));
  const whole = rows.find((r) => r.i === 3);
  return {
    facets: {
      status: of(0).sort(byCountThenValue).slice(0, LIMIT),
      role: of(1).sort(byCountThenValue).slice(0, LIMIT),
      created_at: of(2).sort(byValue).slice(0, LIMIT),
    },
    stats: { score: { min: whole?.min ?? null, max: whole?.max ?? null, avg: whole?.avg ?? null, sum: whole?.sum ?? null } },
  };
}
