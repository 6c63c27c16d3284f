// Each alias's scope, validated once whatever declares it (`expand`, `has`, `count`): one alias
// names one relation (checked by the syntax stage), so its problems are reported once and the
// records `expand` shows are chosen by the very conditions `has` tested
// (docs/query-language.md, "has and has!: all conditions on one related record").

import type { Problem } from '../errors';
import type { ScopeCatalog } from '../schema';
import type { QueryDescription, ScopeDescription } from '../syntax';
import { validateScope } from './scope';
import type { ValidatedScope } from './types';

export const emptyScope: ScopeDescription = {
  clauses: { filter: [], in: [], between: [] },
  searches: [],
  sorts: [],
  projection: undefined,
};

export class AliasScopes {
  private readonly validated = new Map<string, ValidatedScope>();

  constructor(
    private readonly description: QueryDescription,
    private readonly problems: Problem[],
  ) {}

  /** The modifiers written behind `alias` (none without one). */
  described(alias: string | undefined): ScopeDescription | undefined {
    return alias === undefined ? undefined : this.description.aliased.get(alias);
  }

  /** The alias's scope validated against the related records' catalog (under the path's label). */
  of(alias: string | undefined, catalog: ScopeCatalog): ValidatedScope {
    const known = alias === undefined ? undefined : this.validated.get(alias);
    if (known !== undefined) return known;
    const scope = validateScope(this.described(alias) ?? emptyScope, catalog, this.problems);
    if (alias !== undefined) this.validated.set(alias, scope);
    return scope;
  }
}
