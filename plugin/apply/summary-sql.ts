// The one statement of a request's facets and stats (docs/query-language.md, Facets and stats): each
// facet and each stats reads its own records (the request's conditions without the clauses on its
// field) as a derived table, grouped or aggregated, and all of them are joined by `union all` into
// rows of one shape, `(i, t, n, r, min, max, avg, sum)`: the item, a value's text form, its count
// and rank, and a stats' four text forms. Values are always bindings; identifiers come from the catalog.

import type { Column, ColumnType } from '../schema';
import type { ValidatedBucket } from '../validate';
import { qualified, quoteLiteral, textOf } from './sql';
import type { Fragment } from './types';

/** One facet or stats as the statement reads it; `source` is its records, `(select "users".* ...)`. */
export type SummaryPart =
  | { readonly kind: 'facet'; readonly column: Column; readonly bucket: ValidatedBucket; readonly source: Fragment }
  | { readonly kind: 'stats'; readonly column: Column; readonly source: Fragment };

const rowsAlias = '"__kqm_s"';
const groupAlias = '"__kqm_g"';
const noStats = 'null::text as "min", null::text as "max", null::text as "avg", null::text as "sum"';

/** The type a facet's values have: an array's elements' type. */
export const valueType = (column: Column): ColumnType => (column.type === 'array' ? (column.elementType ?? 'other') : column.type);

/** The column read from the derived table of the item's records. */
const readRef = (column: Column): string => qualified('__kqm_s', column.column);

/** A column standing for the values, so textOf() writes their text form as the field's. */
const valueColumn = (column: Column, type: ColumnType): Column => ({ ...column, type });

/** `date_trunc('month', <value> at time zone 'UTC')`: the bucket's first moment, in UTC. */
function dateBucket(type: ColumnType, ref: string, unit: string): string {
  const utc = type === 'timestamptz' ? `${ref} at time zone 'UTC'` : type === 'date' ? `${ref}::timestamp` : ref;
  return `date_trunc(${quoteLiteral(unit)}, ${utc})`;
}

/** `floor(v / w) * w`: the lower bound of the value's bucket, in the field's arithmetic. */
function widthBucket(type: ColumnType, ref: string): string {
  if (type === 'float') return `floor(${ref} / ?::float8) * ?::float8`;
  const bound = `floor(${ref}::numeric / ?::numeric) * ?::numeric`;
  return type === 'numeric' ? `trim_scale(${bound})` : bound;
}

/** Text is ranked by its code points, so a tie is broken the same way under any database collation. */
const ranked = (type: ColumnType, ref: string): string => (type === 'text' ? `${ref} collate "C"` : ref);

/**
 * `select ? as "i", <text> as "t", "n", row_number() over (...) as "r", ...` over the values (each
 * array element; NULL as a value) grouped: most frequent first, ties by value; buckets in bucket order.
 */
function facetSql(index: number, part: Extract<SummaryPart, { kind: 'facet' }>, limit: number): Fragment {
  const { column, bucket } = part;
  const type = valueType(column);
  let ref = readRef(column);
  let from = `${part.source.sql} as ${rowsAlias}`;
  if (column.type === 'array') {
    // A NULL array counts as one NULL value; an empty one adds nothing.
    from += ` cross join lateral unnest(coalesce(${ref}, '{NULL}')) as "__kqm_e"("v")`;
    ref = '"__kqm_e"."v"';
  }
  const grouped = `${groupAlias}."v"`;
  let value = ref;
  let text = textOf(valueColumn(column, type), grouped);
  let order = `"n" desc, ${ranked(type, grouped)} asc nulls last`;
  let widths: unknown[] = [];
  if (bucket.kind === 'date') {
    value = dateBucket(type, ref, bucket.unit);
    text = `to_char(${grouped}, 'YYYY-MM-DD')`;
    order = `${grouped} asc nulls last`;
  } else if (bucket.kind === 'width') {
    value = widthBucket(type, ref);
    widths = [bucket.width, bucket.width];
    text = `${grouped}::text`;
    order = `${grouped} asc nulls last`;
  }
  const groups = `select ${value} as "v", count(*) as "n" from ${from} group by 1`;
  // The first `limit` groups are cut before they are numbered: a top-N sort of the groups, which the
  // planner costs by the values kept, not by its (often far too high) guess of how many groups there are.
  const top = `select "v", "n" from (${groups}) as ${groupAlias} order by ${order} limit ?`;
  return {
    sql: `select ?::int as "i", ${text} as "t", "n", row_number() over (order by ${order}) as "r", ${noStats} from (${top}) as ${groupAlias}`,
    bindings: [index, ...widths, ...part.source.bindings, limit],
  };
}

/** `min`, `max` in the field's text form; `avg` and `sum` for numbers only. */
function statsSql(index: number, part: Extract<SummaryPart, { kind: 'stats' }>): Fragment {
  const { column } = part;
  const ref = readRef(column);
  const numeric = column.type !== 'date' && column.type !== 'timestamp' && column.type !== 'timestamptz';
  const avg = numeric ? `avg(${ref})::text` : 'null::text';
  const sum = numeric ? `sum(${ref})::text` : 'null::text';
  const min = textOf(column, `min(${ref})`);
  const max = textOf(column, `max(${ref})`);
  return {
    sql:
      `select ?::int as "i", null::text as "t", null::bigint as "n", 1::bigint as "r", ` +
      `${min} as "min", ${max} as "max", ${avg} as "avg", ${sum} as "sum" from ${part.source.sql} as ${rowsAlias}`,
    bindings: [index, ...part.source.bindings],
  };
}

/**
 * All parts in one statement: `select * from (<part 0> union all <part 1> ...) as "__kqm_all"`, each
 * facet cut to its first `limit` values. Rows come in no set order: readSummary() orders them by
 * item and rank, so the planner is free to run the parts side by side.
 */
export function summaryStatement(parts: readonly SummaryPart[], limit: number): Fragment {
  const each = parts.map((part, index) => (part.kind === 'facet' ? facetSql(index, part, limit) : statsSql(index, part)));
  const union = each.map((p) => `(${p.sql})`).join(' union all ');
  return { sql: `select * from (${union}) as "__kqm_all"`, bindings: each.flatMap((p) => p.bindings) };
}
