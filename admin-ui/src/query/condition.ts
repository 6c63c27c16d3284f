// Owns the condition preview: the WHERE clause the request will mean, written with explicit
// parentheses (docs/query-language.md, "Logical prefixes and how clauses group"). Each family
// (filter, in, between) is one group in form order with NOT before AND before OR; every search
// parameter is one more group; the groups are joined by AND.
import { fieldType, type RelationMeta, type ScopeMeta } from '../meta';
import { readPath } from './paths';
import { clauseFamilies, type ClauseFamily, type ClauseRow, type HasState, type ScopeState, type SearchRow } from '../state';
import { splitList, unquote } from './values';

const numericTypes = new Set(['smallint', 'integer', 'bigint', 'numeric', 'float', 'boolean', 'timestamptz', 'timestamp', 'date']);

/** How one value reads in the preview: `null` -> NULL, text in single quotes, numbers and dates bare. */
function showValue(raw: string, quoteText: boolean): string {
  if (raw === 'null') return 'NULL';
  const text = unquote(raw);
  return quoteText || raw.startsWith('"') ? `'${text.replace(/'/g, "''")}'` : text;
}

/** A clause on the scope's own field, or on a relation's (tested by EXISTS, docs/query-language.md, "Relations in conditions"). */
interface ClauseText {
  readonly text: string;
  /** The relation whose records the clause tests. */
  readonly relation: string | undefined;
}

/** `posts.status = 'draft'` -> `EXISTS a posts record with status = 'draft'`; negated -> `NOT EXISTS ...`. */
function related(clause: ClauseText, negated: boolean): string {
  if (clause.relation === undefined) return negated ? `NOT (${clause.text})` : clause.text;
  return `${negated ? 'NOT EXISTS' : 'EXISTS'} a ${clause.relation} record with ${clause.text}`;
}

function clauseText(family: ClauseFamily, row: ClauseRow, meta: ScopeMeta): ClauseText {
  const target = readPath(meta, row.field);
  return { text: comparisonText(family, row, target.field, target.scope), relation: target.relation?.name };
}

function comparisonText(family: ClauseFamily, row: ClauseRow, name: string, meta: ScopeMeta): string {
  // A count of the request (`posts_count`) is no field of the metadata: an integer.
  const count = /_count$/.test(name) && !meta.fields.some((f) => f.name === name);
  const quoteText = !count && !numericTypes.has(fieldType(meta, name));
  const field = name === '' ? '?' : name;
  switch (family) {
    case 'filter':
      if (row.value === 'null' && row.operator === '=') return `${field} IS NULL`;
      if (row.value === 'null' && row.operator === '<>') return `${field} IS NOT NULL`;
      return `${field} ${row.operator} ${showValue(row.value, quoteText)}`;
    case 'in':
      return `${field} IN (${splitList(row.value)
        .map((item) => showValue(item, quoteText))
        .join(', ')})`;
    case 'between':
      return `${field} BETWEEN ${showValue(row.value, quoteText)} AND ${showValue(row.max, quoteText)}`;
  }
}

/**
 * One family's clauses as a parenthesised group. Example: `a`, `and b`, `or! c` ->
 * `((a AND b) OR NOT (c))`: AND binds tighter than OR, and `!` negates its own clause.
 */
export function groupText(family: ClauseFamily, rows: readonly ClauseRow[], meta: ScopeMeta): string {
  const runs: string[][] = [];
  rows.forEach((row, index) => {
    const negated = row.logical.endsWith('!');
    const term = related(clauseText(family, row, meta), negated);
    const startsRun = index === 0 || row.logical.startsWith('or');
    if (startsRun) runs.push([term]);
    else runs[runs.length - 1]?.push(term);
  });
  const parts = runs.map((run) => (run.length > 1 && runs.length > 1 ? `(${run.join(' AND ')})` : run.join(' AND ')));
  return `(${parts.join(' OR ')})`;
}

function searchText(row: SearchRow, meta: ScopeMeta): string {
  let term = row.pattern;
  const leading = term.startsWith('*');
  if (leading) term = term.slice(1);
  const trailing = term.endsWith('*');
  if (trailing) term = term.slice(0, -1);
  const how = trailing && !leading ? 'starts with' : leading && !trailing ? 'ends with' : 'contains';
  const fields = row.fields.length === 0 ? ['?'] : row.fields;
  const quoted = `'${term.replace(/'/g, "''")}'`;
  return `(${fields
    .map((path) => {
      const target = readPath(meta, path);
      return related({ text: `${target.field === '' ? '?' : target.field} ${how} ${quoted}`, relation: target.relation?.name }, false);
    })
    .join(' OR ')})`;
}

/** Every group of a scope, in order; empty when the scope has no condition. */
export function conditionGroups(scope: ScopeState, meta: ScopeMeta): string[] {
  const groups = clauseFamilies.filter((family) => scope[family].length > 0).map((family) => groupText(family, scope[family], meta));
  return [...groups, ...scope.search.map((row) => searchText(row, meta))];
}

/**
 * A has row as one group: `(EXISTS a posts record with (status = 'draft' AND views > 1000))`, or
 * `NOT EXISTS`; without conditions, any related record: `(EXISTS a posts record)`.
 */
export function hasText(has: HasState, relation: RelationMeta | undefined): string {
  const groups = relation === undefined ? [] : conditionGroups(has.scope, relation);
  const exists = `${has.negated ? 'NOT EXISTS' : 'EXISTS'} a ${has.relation} record`;
  return `(${groups.length === 0 ? exists : `${exists} with ${groups.join(' AND ')}`})`;
}

/** Groups as lines: `WHERE (...)` then `  AND (...)` for every further group. */
export function groupLines(groups: readonly string[]): string[] {
  if (groups.length === 0) return ['(no condition: every record)'];
  return groups.map((group, index) => (index === 0 ? `WHERE ${group}` : `  AND ${group}`));
}

/** The whole condition of a scope as lines. */
export function conditionLines(scope: ScopeState, meta: ScopeMeta): string[] {
  return groupLines(conditionGroups(scope, meta));
}
