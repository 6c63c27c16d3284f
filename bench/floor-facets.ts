// The floor's facets and stats for shape 23 (filter[status]=<s>&facet[status]&facet[role]&
// facet[created_at]=month&stats[score]): what a careful developer writes by hand. One statement: the
// status counts over every user (the page's own status clause does not apply to its facet), and one
// scan of the matching users grouped by grouping sets, role, month and the whole (for the stats).
// Ordered and cut to ten values per facet in JavaScript, as the API shows them.

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
     SELECT CASE WHEN grouping(role) = 0 THEN 1 WHEN grouping(m) = 0 THEN 2 ELSE 3 END,
            coalesce(role, to_char(m, 'YYYY-MM-DD')), count(*)::int,
            min(score)::text, max(score)::text, avg(score)::text, sum(score)::text
       FROM (SELECT role, date_trunc('month', created_at AT TIME ZONE 'UTC') AS m, score FROM users WHERE status = $1) AS s
      GROUP BY GROUPING SETS ((role), (m), ())`,
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
