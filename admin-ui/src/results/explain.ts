// Owns showing what `GET <prefix>/_explain/<collection>` returned: every SQL statement with its
// bindings, PostgreSQL's plan as an indented tree (raw JSON folded underneath), and the advised
// indexes on the large tables a plan reads whole.
import { h } from '../dom';

interface Statement {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{"Node Type": "Seq Scan", "Relation Name": "users", ...}` -> `Seq Scan on users  (cost=0.00..7.75 rows=300)` */
function planLine(node: Json): string {
  const parts = [typeof node['Node Type'] === 'string' ? node['Node Type'] : 'node'];
  if (typeof node['Relation Name'] === 'string') parts.push(`on ${node['Relation Name']}`);
  if (typeof node['Index Name'] === 'string') parts.push(`using ${node['Index Name']}`);
  const cost =
    typeof node['Total Cost'] === 'number'
      ? `cost=${typeof node['Startup Cost'] === 'number' ? node['Startup Cost'] : 0}..${node['Total Cost']}`
      : '';
  const rows = typeof node['Plan Rows'] === 'number' ? `rows=${node['Plan Rows']}` : '';
  const extra = [cost, rows].filter((part) => part !== '').join(' ');
  const filter = ['Filter', 'Index Cond', 'Sort Key', 'Hash Cond', 'Join Filter']
    .filter((key) => node[key] !== undefined)
    .map((key) => `\n    ${key}: ${Array.isArray(node[key]) ? (node[key] as unknown[]).join(', ') : String(node[key])}`)
    .join('');
  return `${parts.join(' ')}${extra === '' ? '' : `  (${extra})`}${filter}`;
}

function planTree(node: Json, depth: number, lines: string[]): void {
  const indent = '  '.repeat(depth);
  lines.push(`${indent}${depth === 0 ? '' : '-> '}${planLine(node).replace(/\n/g, `\n${indent}`)}`);
  const children = Array.isArray(node.Plans) ? node.Plans.filter(isObject) : [];
  for (const child of children) planTree(child, depth + 1, lines);
}

/** Finds the `Plan` objects in whatever shape the EXPLAIN output arrived in. */
function plansIn(value: unknown): Json[] {
  if (Array.isArray(value)) return value.flatMap(plansIn);
  if (!isObject(value)) return [];
  if (isObject(value.Plan)) return [value.Plan];
  return Object.values(value).flatMap(plansIn);
}

const clauseStarts = /^ (from|where|order by|group by|having|limit|offset|left join|inner join|union all) /i;

/**
 * Starts each top-level clause on its own line for reading: `select … from "users" where …` ->
 * `select …\nfrom "users"\nwhere …`. Text inside quotes is never touched.
 */
export function formatSql(sql: string): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql.charAt(i);
    if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === ' ' && clauseStarts.test(sql.slice(i, i + 12))) {
      out += '\n';
      continue;
    }
    out += ch;
  }
  return out;
}

function statementBlock(statement: Statement, index: number, plan: unknown): HTMLElement {
  const plans = plansIn(plan);
  const lines: string[] = [];
  plans.forEach((node) => planTree(node, 0, lines));
  return h(
    'section',
    { class: 'statement', attrs: { 'aria-label': `Statement ${index + 1}` } },
    h('h3', { text: `Statement ${index + 1}` }),
    h('pre', { class: 'code sql', text: formatSql(statement.sql) }),
    h('p', { class: 'bindings' }, h('strong', { text: 'Bindings: ' }), h('code', { text: JSON.stringify(statement.bindings) })),
    plan === undefined
      ? null
      : plan === null
        ? // The estimate of total=estimated is an EXPLAIN itself: its answer is the plan the total came from.
          h('p', { class: 'help', text: "No plan: this statement is itself an EXPLAIN (the planner's estimate of total=estimated)." })
        : h(
            'div',
            {},
            h('h4', { text: 'Plan' }),
            h('pre', { class: 'code plan', text: lines.length > 0 ? lines.join('\n') : JSON.stringify(plan, null, 2) }),
            h('details', {}, h('summary', { text: 'Plan as JSON' }), h('pre', { class: 'code', text: JSON.stringify(plan, null, 2) })),
          ),
  );
}

/** `seqScans` of the answer: each large table a plan reads whole, with the advised indexes on it. */
function scansBlock(scans: unknown): HTMLElement | null {
  if (!Array.isArray(scans) || scans.length === 0) return null;
  const lines = scans
    .filter(isObject)
    .flatMap((scan) => [
      `-- Seq Scan on ${String(scan.table)} (about ${String(scan.rows)} rows): the advised indexes on it`,
      ...(Array.isArray(scan.indexes) ? scan.indexes.filter(isObject) : []).flatMap((index) => [
        `-- serves ${Array.isArray(index.serves) ? index.serves.join(', ') : ''}`,
        `${String(index.statement)};`,
      ]),
    ]);
  return h(
    'section',
    { class: 'seq-scans', attrs: { 'aria-label': 'Sequential scans' } },
    h('h3', { text: 'Sequential scans on large tables' }),
    h('pre', { class: 'code sql', text: lines.join('\n') }),
  );
}

/** The statements and plans of an explain response, or a note when the body has another shape. */
export function explainView(body: unknown): HTMLElement {
  if (!isObject(body) || !Array.isArray(body.statements)) {
    return h('pre', { class: 'code', text: JSON.stringify(body, null, 2) });
  }
  const statements = body.statements.filter(isObject).map((s) => ({
    sql: typeof s.sql === 'string' ? s.sql : '',
    bindings: Array.isArray(s.bindings) ? s.bindings : [],
  }));
  const plans = Array.isArray(body.plan) ? body.plan : [];
  return h(
    'div',
    { class: 'explain' },
    h('p', {
      class: 'help',
      text: `${statements.length} statement${statements.length === 1 ? '' : 's'}, run in a read-only transaction that was rolled back.`,
    }),
    scansBlock(body.seqScans),
    ...statements.map((statement, index) => statementBlock(statement, index, Array.isArray(body.plan) ? plans[index] : undefined)),
  );
}
