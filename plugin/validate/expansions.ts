// Validates the expansion tree: each `expand[...]` at the root and each `<alias>_expand[...]` below it
// against the relations of the model it expands, with the depth cap, each alias's modifiers against
// its relation's options, and its per-parent window (docs/query-language.md, "Nested expansion").

import { problem, type Problem } from '../errors';
import type { RelationCatalog, ScopeCatalog } from '../schema';
import type { ExpandDescription, QueryDescription, WindowDescription } from '../syntax';
import type { AliasScopes } from './alias-scopes';
import type { ExpansionWindow, ValidatedExpansion } from './types';

export interface ExpansionLimits {
  readonly maxExpandDepth: number;
  readonly maxRelatedRows: number;
  /** limits.maxResponseBytes: what an expansion read inside the root's statement reads at most (docs/configuration.md). */
  readonly maxResponseBytes?: number;
}

/** Where a level's expansions come from: the collection, or the relation an alias expanded. */
interface Owner {
  /** `users`, `users.posts`: what problems and the scope hook call it. */
  readonly label: string;
  readonly relations: ReadonlyMap<string, RelationCatalog>;
  /** undefined at the root; else the alias whose `_expand` keys belong to this level. */
  readonly alias: string | undefined;
  readonly depth: number;
}

// A relation's scope under each path's label, made once: the compiled queries the plan cache keeps
// point to it as they point into the catalog, instead of each holding a copy. Bounded by the paths
// the declarations and maxExpandDepth allow, and kept no longer than the catalog.
const labelledOf = new WeakMap<ScopeCatalog, Map<string, ScopeCatalog>>();

/** The relation's scope under this path's label (one catalog serves every path to a model). */
export function labelled(scope: ScopeCatalog, label: string): ScopeCatalog {
  if (scope.label === label) return scope;
  let byLabel = labelledOf.get(scope);
  if (byLabel === undefined) {
    byLabel = new Map();
    labelledOf.set(scope, byLabel);
  }
  let made = byLabel.get(label);
  if (made === undefined) {
    made = Object.freeze({ ...scope, label });
    byLabel.set(label, made);
  }
  return made;
}

/** The expandable relation `name` of `label`, or the UNKNOWN_RELATION problem listing them. */
export function relationNamed(
  label: string,
  relations: ReadonlyMap<string, RelationCatalog>,
  name: string,
  parameter: string,
  problems: Problem[],
): RelationCatalog | undefined {
  const relation = relations.get(name);
  if (relation !== undefined) return relation;
  const allowed = [...relations.keys()];
  // The list goes in `allowed` only: written in the detail too, a body would carry it twice per problem.
  const none = allowed.length === 0 ? `; ${label} has none` : '';
  problems.push(
    problem('UNKNOWN_RELATION', parameter, `\`${parameter}\`: "${name}" is not an expandable relation of ${label}${none}`, allowed),
  );
  return undefined;
}

/**
 * `p_limit=3&p_offset=1` on a to-many relation; on a to-one relation each key is refused
 * (docs/query-language.md, "Per-parent windows").
 */
function validateWindow(
  window: WindowDescription | undefined,
  relation: RelationCatalog,
  problems: Problem[],
): ExpansionWindow | undefined {
  if (window === undefined) return undefined;
  if (relation.cardinality === 'one') {
    for (const bound of [window.limit, window.offset]) {
      if (bound === undefined) continue;
      problems.push(
        problem(
          'MALFORMED_PARAMETER',
          bound.parameter,
          `\`${bound.parameter}\`: a per-parent window needs a to-many relation; ${relation.name} is ${relation.kind} (one record or null per parent)`,
        ),
      );
    }
    return undefined;
  }
  return Object.freeze({ limit: window.limit?.value, offset: window.offset?.value ?? 0 });
}

function validateOne(
  expand: ExpandDescription,
  owner: Owner,
  description: QueryDescription,
  limits: ExpansionLimits,
  aliases: AliasScopes,
  problems: Problem[],
): ValidatedExpansion | undefined {
  const relation = relationNamed(owner.label, owner.relations, expand.relation, expand.parameter, problems);
  if (relation === undefined) return undefined;
  const depth = owner.depth + 1;
  if (depth > limits.maxExpandDepth) {
    problems.push(
      problem(
        'LIMIT_EXCEEDED',
        expand.parameter,
        `\`${expand.parameter}\` expands at depth ${depth}; at most ${limits.maxExpandDepth} levels of expansion are allowed`,
        limits.maxExpandDepth,
      ),
    );
    return undefined;
  }
  const label = `${owner.label}.${relation.name}`;
  const scope = aliases.of(expand.alias, labelled(relation.scope, label));
  const window = validateWindow(aliases.described(expand.alias)?.window, relation, problems);
  const expansions =
    expand.alias === undefined
      ? []
      : validateLevel({ label, relations: relation.relations, alias: expand.alias, depth }, description, limits, aliases, problems);
  // The per-parent window is the way to fewer related records (docs/query-language.md, "Cost limits").
  const limitParameter = expand.alias !== undefined && relation.cardinality === 'many' ? `${expand.alias}_limit` : expand.parameter;
  return Object.freeze({
    relation,
    parameter: expand.parameter,
    maxRows: limits.maxRelatedRows,
    ...(limits.maxResponseBytes === undefined ? {} : { maxBytes: limits.maxResponseBytes }),
    limitParameter,
    fieldsParameter: expand.alias === undefined ? expand.parameter : `${expand.alias}_fields`,
    scope,
    expansions,
    ...(window === undefined ? {} : { window }),
  });
}

function validateLevel(
  owner: Owner,
  description: QueryDescription,
  limits: ExpansionLimits,
  aliases: AliasScopes,
  problems: Problem[],
): ValidatedExpansion[] {
  const expansions: ValidatedExpansion[] = [];
  for (const expand of description.expands) {
    if (expand.owner !== owner.alias) continue;
    const validated = validateOne(expand, owner, description, limits, aliases, problems);
    if (validated !== undefined) expansions.push(validated);
  }
  return expansions;
}

/** `expand[posts]=p&p_expand[comments]=c` on users -> [posts with [comments]]; problems added to `problems`. */
export function validateExpansions(
  description: QueryDescription,
  label: string,
  relations: ReadonlyMap<string, RelationCatalog>,
  limits: ExpansionLimits,
  aliases: AliasScopes,
  problems: Problem[],
): ValidatedExpansion[] {
  return validateLevel({ label, relations, alias: undefined, depth: 0 }, description, limits, aliases, problems);
}
