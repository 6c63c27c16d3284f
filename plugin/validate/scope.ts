// Validates the modifiers of one scope (the root collection or one expansion alias) against that
// scope's catalog: field permissions, value types, search patterns, sort keys and projection.

import { problem, type Problem } from '../errors';
import type { Column, RelationCatalog, ScopeCatalog } from '../schema';
import type { ClauseDescription, ProjectionDescription, RawValue, ScopeDescription, SearchDescription, SortDescription } from '../syntax';
import { clauseFamilies } from '../syntax';
import type { Condition, ConditionGroup, OrderKey, RelationJoin, Term, ValidatedScope, Operand } from './types';
import { rankHint, validateRanked } from './ranked';
import { relationField, type RelationField } from './relation-fields';
import { coerceValue, comparisonOf, typeWords } from './values';

type Capability = 'projectable' | 'sortable' | 'searchable' | 'filterable';

const capabilityWords: Readonly<Record<Capability, string>> = {
  projectable: 'returned',
  sortable: 'sorted on',
  searchable: 'searched',
  filterable: 'filtered on',
};

/** One condition on the related records of `relation`, as an EXISTS (docs/query-language.md, "Relations in conditions"). */
const exists = (relation: RelationCatalog, condition: Condition): Condition => ({
  kind: 'exists',
  related: { relation, groups: [{ anyOf: [[{ negated: false, condition }]] }] },
});

/** What only the root reaches: its relations (dot paths) and the counts of this request (`posts_count`). */
export interface RootReach {
  readonly relations: ReadonlyMap<string, RelationCatalog>;
  readonly counts: readonly RelationJoin[];
}

class ScopeValidator {
  /** The root's relations, which dot paths name; undefined in an alias scope (no dot paths there). */
  private readonly relations: ReadonlyMap<string, RelationCatalog> | undefined;
  private readonly counts: readonly RelationJoin[];
  /** `_relevance` and `_similarity` of this request, for fields and sort. */
  private ranks: readonly Column[] = [];

  constructor(
    private readonly catalog: ScopeCatalog,
    private readonly problems: Problem[],
    reach: RootReach | undefined,
  ) {
    this.relations = reach?.relations;
    this.counts = reach?.counts ?? [];
  }

  /** `posts.status` at the root -> that relation and its field; anything else -> a field of this scope. */
  target(
    name: string,
    capability: 'filterable' | 'searchable',
    parameter: string,
  ): RelationField | { relation: undefined; column: Column } | undefined {
    if (this.relations !== undefined && name.includes('.')) {
      return relationField(this.catalog.label, this.relations, name, capability, parameter, this.problems);
    }
    const column = this.field(name, capability, parameter);
    return column && { relation: undefined, column };
  }

  /**
   * Unknown and forbidden fields get the same answer, so hidden columns cannot be discovered. A
   * count of this request (`posts_count`) is an integer field for filter, in, between and sort.
   */
  field(name: string, capability: Capability, parameter: string): Column | undefined {
    const ranked = capability === 'projectable' || capability === 'sortable' ? this.ranks : [];
    const rank = ranked.find((c) => c.name === name);
    if (rank !== undefined) return rank;
    const counted = [...(capability === 'filterable' || capability === 'sortable' ? this.counts.map((c) => c.column) : []), ...ranked];
    const allowed = [...this.catalog[capability], ...counted.map((c) => c.name)];
    const column = this.catalog.columns.get(name);
    if (column !== undefined && this.catalog[capability].includes(name)) return column;
    const count = counted.find((c) => c.name === name);
    if (count !== undefined) return count;
    // The list goes in `allowed` only: written in the detail too, a body would carry it twice per problem.
    const none = allowed.length === 0 ? '; no field can' : '';
    const countOf = /^(.+)_count$/.exec(name)?.[1];
    const hint =
      capability !== 'projectable' &&
      capability !== 'searchable' &&
      countOf !== undefined &&
      this.relations?.get(countOf)?.cardinality === 'many'
        ? `; add count[${countOf}] to the request to use ${name}`
        : capability === 'projectable' || capability === 'sortable'
          ? rankHint(name)
          : '';
    this.problems.push(
      problem(
        'FIELD_NOT_ALLOWED',
        parameter,
        `\`${parameter}\`: "${name}" cannot be ${capabilityWords[capability]} in ${this.catalog.label}${none}${hint}`,
        allowed,
      ),
    );
    return undefined;
  }

  operand(column: Column, raw: RawValue, parameter: string): Operand | undefined {
    const coerced = coerceValue(column, raw);
    if (coerced.ok) return coerced.operand;
    const shown = raw.kind === 'text' ? raw.text : 'null';
    this.problems.push(
      problem(
        'INVALID_VALUE',
        parameter,
        `\`${parameter}\`: "${shown.slice(0, 100)}" ${coerced.detail} (field ${column.name} is ${typeWords(column)})`,
        coerced.allowed,
      ),
    );
    return undefined;
  }

  /**
   * Arrays and JSON have no order a client could mean
   * (docs/query-language.md, "Enums, arrays and JSON"): `filter[tags]=>a` and `between[doc]=...`
   * are refused before their values are read. Returns true when refused.
   */
  unordered(column: Column, clause: ClauseDescription): boolean {
    const comparison = comparisonOf(column);
    const operator = clause.kind === 'filter' ? clause.operator : undefined;
    const ranged = clause.kind === 'between' || (operator !== undefined && operator !== '=' && operator !== '<>');
    if (comparison === 'ordered' || !ranged) return false;
    const field = comparison === 'membership' ? 'an array field' : 'a JSON field';
    const equality = comparison === 'membership' ? '= (contains) or <> (does not contain)' : '= or <>';
    const why = operator === undefined ? 'has no range; use filter or in' : `takes ${equality}, not ${operator}`;
    this.problems.push(
      problem('INVALID_VALUE', clause.parameter, `\`${clause.parameter}\`: ${field} ${why} (field ${column.name} is ${typeWords(column)})`),
    );
    return true;
  }

  notNull(operand: Operand | undefined, parameter: string, why: string): Operand | undefined {
    if (operand?.kind !== 'null') return operand;
    this.problems.push(problem('INVALID_VALUE', parameter, `\`${parameter}\`: null ${why}`));
    return undefined;
  }

  /** A clause of this scope, or through a dot path one EXISTS on the related records. */
  condition(clause: ClauseDescription): Condition | undefined {
    const target = this.target(clause.field, 'filterable', clause.parameter);
    if (target === undefined) return undefined;
    const condition = this.conditionOn(target.column, clause);
    return condition && (target.relation === undefined ? condition : exists(target.relation, condition));
  }

  /** A clause on `column` (of this scope or a related one): its values checked against the column's type. */
  conditionOn(column: Column, clause: ClauseDescription): Condition | undefined {
    if (this.unordered(column, clause)) return undefined;
    const p = clause.parameter;
    switch (clause.kind) {
      case 'filter': {
        const raw = this.operand(column, clause.value, p);
        const equality = clause.operator === '=' || clause.operator === '<>';
        const operand = equality ? raw : this.notNull(raw, p, `can only be compared with = or <> (use filter[field]=null or <>null)`);
        return operand && { kind: 'compare', column, operator: clause.operator, operand };
      }
      case 'in': {
        const items = clause.items.map((item) => this.operand(column, item, p));
        return items.every((i) => i !== undefined) ? { kind: 'in', column, items: items } : undefined;
      }
      case 'between': {
        const min = this.notNull(this.operand(column, clause.min, p), p, 'cannot be a range bound');
        const max = this.notNull(this.operand(column, clause.max, p), p, 'cannot be a range bound');
        return min && max && { kind: 'between', column, min, max };
      }
    }
  }

  /** `[A, or B, and! C]` -> `{anyOf: [[A], [B, NOT C]]}`: an `or` starts a new AND-list. */
  group(clauses: readonly ClauseDescription[]): ConditionGroup | undefined {
    const anyOf: Term[][] = [];
    clauses.forEach((clause, index) => {
      const condition = this.condition(clause);
      if (condition === undefined) return;
      const term: Term = { negated: clause.negated, condition };
      const current = anyOf[anyOf.length - 1];
      if (index === 0 || clause.word === 'or' || current === undefined) anyOf.push([term]);
      else current.push(term);
    });
    return anyOf.length > 0 ? { anyOf } : undefined;
  }

  /**
   * `search[name,posts.title]=an`: the scope's own fields in one condition, each relation's fields in
   * one EXISTS, any of them matching (docs/query-language.md, "Relations in conditions").
   */
  search(search: SearchDescription): ConditionGroup | undefined {
    const targets = search.fields.map((f) => this.target(f, 'searchable', search.parameter));
    if (!targets.every((t) => t !== undefined)) return undefined;
    if (search.term.includes('\u0000')) {
      // PostgreSQL text cannot hold NUL; refuse it here rather than let the driver fail.
      this.problems.push(
        problem('INVALID_VALUE', search.parameter, `\`${search.parameter}\`: the search term must not contain a NUL character`),
      );
      return undefined;
    }
    const escaped = search.term.replace(/[\\%_]/g, (ch) => '\\' + ch);
    const pattern = (search.anchorStart ? '' : '%') + escaped + (search.anchorEnd ? '' : '%');
    const bySource = new Map<RelationCatalog | undefined, Column[]>();
    for (const { relation, column } of targets) bySource.set(relation, [...(bySource.get(relation) ?? []), column]);
    const anyOf = [...bySource].map(([relation, columns]): Term[] => {
      const condition: Condition = { kind: 'search', columns, pattern };
      return [{ negated: false, condition: relation === undefined ? condition : exists(relation, condition) }];
    });
    return { anyOf };
  }

  output(projection: ProjectionDescription | undefined): Column[] {
    const projectable = this.catalog.projectable;
    const columnsOf = (names: readonly string[]) => names.map((n) => this.catalog.columns.get(n) as Column);
    if (projection === undefined) return columnsOf(projectable);
    const named = projection.fields.map((f) => this.field(f, 'projectable', projection.parameter));
    if (projection.kind === 'include') return named.filter((c): c is Column => c !== undefined);
    const kept = projectable.filter((name) => !projection.fields.includes(name));
    if (kept.length === 0) {
      this.problems.push(
        problem('MALFORMED_PARAMETER', projection.parameter, `\`${projection.parameter}\` excludes every field; at least one must remain`),
      );
    }
    return columnsOf(kept);
  }

  scope(description: ScopeDescription): ValidatedScope {
    const groups: ConditionGroup[] = [];
    for (const family of clauseFamilies) {
      const group = this.group(description.clauses[family]);
      if (group !== undefined) groups.push(group);
    }
    for (const search of description.searches) {
      const group = this.search(search);
      if (group !== undefined) groups.push(group);
    }
    const ranked = validateRanked(description, this.catalog, this.problems);
    groups.push(...ranked.groups);
    this.ranks = ranked.ranks.map((rank) => rank.column);
    const order: OrderKey[] = [];
    const joins: RelationJoin[] = [...this.counts];
    for (const sort of description.sorts) {
      const column = this.sortKey(sort, joins);
      if (column !== undefined) order.push({ column, direction: sort.direction });
    }
    // Without a sort, the best match first (docs/query-language.md, "Ranked search: match and similar").
    if (description.sorts.length === 0) for (const column of this.ranks) order.push({ column, direction: 'desc' });
    for (const id of this.catalog.idColumns) {
      const column = this.catalog.columns.get(id);
      if (column !== undefined && !order.some((o) => o.column.name === id)) order.push({ column, direction: 'asc' });
    }
    const ranks = ranked.ranks.length === 0 ? {} : { ranks: ranked.ranks };
    return Object.freeze({ catalog: this.catalog, output: this.output(description.projection), groups, order, joins, ...ranks });
  }

  /**
   * A sort key: a sortable field, or at the root a field of a to-one relation's record
   * (`sort[author.name]`), joined as the first related record's value; NULL without one
   * (docs/query-language.md, "Sorting by a related record").
   */
  sortKey(sort: SortDescription, joins: RelationJoin[]): Column | undefined {
    if (this.relations === undefined || !sort.field.includes('.')) return this.field(sort.field, 'sortable', sort.parameter);
    const target = relationField(this.catalog.label, this.relations, sort.field, 'sortable', sort.parameter, this.problems);
    if (target === undefined) return undefined;
    const alias = `__kqm_s${joins.length - this.counts.length}`;
    // NULL when there is no related record, or the hooks hide it, whatever the related column allows.
    const column: Column = Object.freeze({ ...target.column, name: sort.field, table: alias, column: 'v', nullable: true });
    joins.push({ kind: 'first', alias, related: { relation: target.relation, groups: [] }, field: target.column, column });
    return column;
  }
}

/**
 * Validates one scope, adding every problem found to `problems`. `reach` (the root's) lets its
 * conditions name related fields (`filter[posts.status]`) and the request's counts; alias scopes have none.
 */
export function validateScope(
  description: ScopeDescription,
  catalog: ScopeCatalog,
  problems: Problem[],
  reach?: RootReach,
): ValidatedScope {
  return new ScopeValidator(catalog, problems, reach).scope(description);
}
