// Validates the modifiers of one scope (the root collection or one expansion alias) against that
// scope's catalog: field permissions, value types, search patterns, sort keys and projection.

import { problem, type Problem } from '../errors';
import type { Column, ScopeCatalog } from '../schema';
import type { ClauseDescription, ProjectionDescription, RawValue, ScopeDescription, SearchDescription } from '../syntax';
import { clauseFamilies } from '../syntax';
import type { Condition, ConditionGroup, OrderKey, Term, ValidatedScope, Operand } from './types';
import { coerceValue, comparisonOf, typeWords } from './values';

type Capability = 'projectable' | 'sortable' | 'searchable' | 'filterable';

const capabilityWords: Readonly<Record<Capability, string>> = {
  projectable: 'returned',
  sortable: 'sorted on',
  searchable: 'searched',
  filterable: 'filtered on',
};

class ScopeValidator {
  constructor(
    private readonly catalog: ScopeCatalog,
    private readonly problems: Problem[],
  ) {}

  /** Unknown and forbidden fields get the same answer, so hidden columns cannot be discovered. */
  field(name: string, capability: Capability, parameter: string): Column | undefined {
    const allowed = this.catalog[capability];
    const column = this.catalog.columns.get(name);
    if (column !== undefined && allowed.includes(name)) return column;
    // The list goes in `allowed` only: written in the detail too, a body would carry it twice per problem.
    const none = allowed.length === 0 ? '; no field can' : '';
    this.problems.push(problem('FIELD_NOT_ALLOWED', parameter,
      `\`${parameter}\`: "${name}" cannot be ${capabilityWords[capability]} in ${this.catalog.label}${none}`, allowed));
    return undefined;
  }

  operand(column: Column, raw: RawValue, parameter: string): Operand | undefined {
    const coerced = coerceValue(column, raw);
    if (coerced.ok) return coerced.operand;
    const shown = raw.kind === 'text' ? raw.text : 'null';
    this.problems.push(problem('INVALID_VALUE', parameter,
      `\`${parameter}\`: "${shown.slice(0, 100)}" ${coerced.detail} (field ${column.name} is ${typeWords(column)})`,
      coerced.allowed));
    return undefined;
  }

  /**
   * Arrays and JSON have no order a client could mean (decisions.md 35): `filter[tags]=>a` and
   * `between[doc]=...` are refused before their values are read. Returns true when refused.
   */
  unordered(column: Column, clause: ClauseDescription): boolean {
    const comparison = comparisonOf(column);
    const operator = clause.kind === 'filter' ? clause.operator : undefined;
    const ranged = clause.kind === 'between' || (operator !== undefined && operator !== '=' && operator !== '<>');
    if (comparison === 'ordered' || !ranged) return false;
    const field = comparison === 'membership' ? 'an array field' : 'a JSON field';
    const equality = comparison === 'membership' ? '= (contains) or <> (does not contain)' : '= or <>';
    const why = operator === undefined ? 'has no range; use filter or in' : `takes ${equality}, not ${operator}`;
    this.problems.push(problem('INVALID_VALUE', clause.parameter,
      `\`${clause.parameter}\`: ${field} ${why} (field ${column.name} is ${typeWords(column)})`));
    return true;
  }

  notNull(operand: Operand | undefined, parameter: string, why: string): Operand | undefined {
    if (operand?.kind !== 'null') return operand;
    this.problems.push(problem('INVALID_VALUE', parameter, `\`${parameter}\`: null ${why}`));
    return undefined;
  }

  condition(clause: ClauseDescription): Condition | undefined {
    const column = this.field(clause.field, 'filterable', clause.parameter);
    if (column === undefined || this.unordered(column, clause)) return undefined;
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

  search(search: SearchDescription): ConditionGroup | undefined {
    const columns = search.fields.map((f) => this.field(f, 'searchable', search.parameter));
    if (!columns.every((c) => c !== undefined)) return undefined;
    if (search.term.includes('\u0000')) {
      // PostgreSQL text cannot hold NUL; refuse it here rather than let the driver fail.
      this.problems.push(problem('INVALID_VALUE', search.parameter, `\`${search.parameter}\`: the search term must not contain a NUL character`));
      return undefined;
    }
    const escaped = search.term.replace(/[\\%_]/g, (ch) => '\\' + ch);
    const pattern = (search.anchorStart ? '' : '%') + escaped + (search.anchorEnd ? '' : '%');
    return { anyOf: [[{ negated: false, condition: { kind: 'search', columns: columns, pattern } }]] };
  }

  output(projection: ProjectionDescription | undefined): Column[] {
    const projectable = this.catalog.projectable;
    const columnsOf = (names: readonly string[]) => names.map((n) => this.catalog.columns.get(n) as Column);
    if (projection === undefined) return columnsOf(projectable);
    const named = projection.fields.map((f) => this.field(f, 'projectable', projection.parameter));
    if (projection.kind === 'include') return named.filter((c): c is Column => c !== undefined);
    const kept = projectable.filter((name) => !projection.fields.includes(name));
    if (kept.length === 0) {
      this.problems.push(problem('MALFORMED_PARAMETER', projection.parameter,
        `\`${projection.parameter}\` excludes every field; at least one must remain`));
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
    const order: OrderKey[] = [];
    for (const sort of description.sorts) {
      const column = this.field(sort.field, 'sortable', sort.parameter);
      if (column !== undefined) order.push({ column, direction: sort.direction });
    }
    for (const id of this.catalog.idColumns) {
      const column = this.catalog.columns.get(id);
      if (column !== undefined && !order.some((o) => o.column.name === id)) order.push({ column, direction: 'asc' });
    }
    return Object.freeze({ catalog: this.catalog, output: this.output(description.projection), groups, order });
  }
}

/** Validates one scope, adding every problem found to `problems`. */
export function validateScope(description: ScopeDescription, catalog: ScopeCatalog, problems: Problem[]): ValidatedScope {
  return new ScopeValidator(catalog, problems).scope(description);
}
