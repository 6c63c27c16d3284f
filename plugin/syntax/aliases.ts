// Aliases and relations in the query string: who declares an alias (`expand`, `has`, `count`; one
// alias names one relation, docs/query-language.md, "Aliases and alias modifiers"), what an alias
// no `expand` declares may carry, and every relation the request names, for limits.maxExpansions.

import { problem } from '../errors';
import { freezeScope, malformed, report, type AliasedEntry, type AliasOwner, type Collector, type ScopeBuilder } from './collector';
import { notAnAliasModifier } from './parse-key';
import type { ScopeDescription } from './types';
import { conditionModifiers, reservedAliases } from './vocabulary';

const aliasShape = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Reads the alias of `expand[relation]=<alias>` (or `has`, `count`, `<owner>_expand`): empty means
 * none. One alias names one relation of one owner
 * (docs/query-language.md, "Aliases and alias modifiers"); `expand`, `has` and `count` of that
 * relation may share it.
 */
function declareAlias(
  c: Collector,
  key: string,
  relation: string,
  value: string,
  expanded: boolean,
  owner?: string,
): { ok: boolean; alias?: string } {
  if (value === '') return { ok: true };
  if (!aliasShape.test(value)) {
    malformed(c, key, `has an invalid alias "${value}": an alias is a letter followed by letters or digits`);
    return { ok: false };
  }
  if (reservedAliases.has(value)) {
    malformed(c, key, `cannot use "${value}" as an alias: it is a modifier of the collection (${[...reservedAliases].join(', ')})`, [
      ...reservedAliases,
    ]);
    return { ok: false };
  }
  const known = c.aliases.get(value);
  if (known !== undefined && (known.relation !== relation || known.owner !== owner)) {
    report(
      c,
      'DUPLICATE_PARAMETER',
      key,
      `The alias "${value}" is already used by \`${known.parameter}\`; give each relation its own alias`,
    );
    return { ok: false };
  }
  // A second expand of the same relation behind the same alias is a duplicate key, found by describe.ts.
  if (known === undefined) c.aliases.set(value, { relation, owner, parameter: key, expanded });
  else known.expanded ||= expanded;
  return { ok: true, alias: value };
}

/** `expand[posts]=p` (owner undefined) or `p_expand[comments]=c` (owner `p`, docs/query-language.md, "Nested expansion"). */
export function addExpand(c: Collector, owner: string | undefined, key: string, relation: string, value: string): void {
  const declared = declareAlias(c, key, relation, value, true, owner);
  if (declared.ok) c.expands.push({ kind: 'expand', parameter: key, relation, alias: declared.alias, owner });
}

/** `has[posts]=p`, `has![posts]`: the alias's conditions are read from its alias modifiers. */
export function addHas(c: Collector, key: string, relation: string, value: string, negated: boolean): void {
  const declared = declareAlias(c, key, relation, value, false);
  if (!declared.ok) return;
  // One more test of the related records, like a clause (docs/query-language.md, "Cost limits").
  c.clauses++;
  c.has.push({ kind: 'has', parameter: key, relation, alias: declared.alias, negated });
}

/** `count[posts]`, `count[posts]=p`: the alias's conditions choose which related records are counted. */
export function addCount(c: Collector, key: string, relation: string, value: string): void {
  const declared = declareAlias(c, key, relation, value, false);
  if (declared.ok) c.counts.push({ kind: 'count', parameter: key, relation, alias: declared.alias });
}

/** Notes a relation the request names (once, with the first key), for limits.maxExpansions. */
export function nameRelation(c: Collector, relation: string | undefined, key: string): void {
  if (relation !== undefined && !c.relations.has(relation)) c.relations.set(relation, key);
}

/**
 * The scope of an alias no `expand` declares: only its conditions mean something
 * (docs/query-language.md, "has and has!: all conditions on one related record"), so `p_sort[...]`
 * and `p_fields` there are refused rather than silently ignored.
 */
function conditionsOnly(c: Collector, alias: string, owner: AliasOwner, entry: AliasedEntry): ScopeBuilder {
  for (const { key, index, modifier } of entry.parameters) {
    if ((conditionModifiers as readonly string[]).includes(modifier)) continue;
    c.problems.push({
      index,
      problem: problem(
        'MALFORMED_PARAMETER',
        key,
        `\`${key}\`: the alias "${alias}" is declared by \`${owner.parameter}\`, which reads only ` +
          `its conditions (${alias}_filter, ${alias}_in, ${alias}_between, ${alias}_search); shape records with \`expand[${owner.relation}]=${alias}\``,
      ),
    });
  }
  return { ...entry.scope, sorts: [], projection: undefined, window: undefined };
}

/**
 * The aliases declared: those of the root's `expand`, `has` and `count`, and those an
 * `<alias>_expand` declares behind an alias that is itself declared by an expand, at any depth
 * (docs/query-language.md, "Nested expansion"): `p_expand[x]=q&q_expand[y]=p` alone declares nothing.
 */
function declaredAliases(c: Collector): Map<string, AliasOwner> {
  const declared = new Map<string, AliasOwner>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [alias, owner] of c.aliases) {
      if (declared.has(alias)) continue;
      if (owner.owner !== undefined && declared.get(owner.owner)?.expanded !== true) continue;
      declared.set(alias, owner);
      grew = true;
    }
  }
  return declared;
}

/**
 * The scope behind each declared alias; every key behind an undeclared one is UNKNOWN_ALIAS, and a
 * key not of ours that starts with a declared alias (`p_page`) is MALFORMED_PARAMETER.
 */
export function resolveAliases(c: Collector): Map<string, ScopeDescription> {
  const aliased = new Map<string, ScopeDescription>();
  const declared = declaredAliases(c);
  for (const [alias, entry] of c.aliased) {
    const owner = declared.get(alias);
    if (owner !== undefined) {
      aliased.set(alias, freezeScope(owner.expanded ? entry.scope : conditionsOnly(c, alias, owner, entry)));
      continue;
    }
    for (const { key, index } of entry.parameters) {
      c.problems.push({
        index,
        problem: problem(
          'UNKNOWN_ALIAS',
          key,
          `\`${key}\` uses the alias "${alias}", but no \`expand[...]=${alias}\`, \`has[...]=${alias}\` or \`count[...]=${alias}\` declares it`,
        ),
      });
    }
  }
  for (const { alias, key, index } of c.aliasLike) {
    if (declared.has(alias)) c.problems.push({ index, problem: problem('MALFORMED_PARAMETER', key, notAnAliasModifier(key, alias)) });
  }
  return aliased;
}
