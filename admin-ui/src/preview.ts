// Owns the texts shown live beside the form: the curl command and the whole condition (the root's
// and each expansion's), all derived from the form state.
import type { CollectionMeta, RelationMeta } from './meta';
import { conditionGroups, conditionLines, groupLines, hasText } from './query/condition';
import type { ExpandState, FormState } from './state';

/** Single-quotes a word for POSIX shells. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * `curl -g -H 'Accept: application/json' 'http://…/api/users?sort[name]=desc'`; `-g` stops curl from
 * reading `[...]` as a glob. The token is read from $API_TOKEN so it never lands in a copied command.
 */
export function curlCommand(url: string, withToken: boolean): string {
  const auth = withToken ? ` \\\n  -H "Authorization: Bearer $API_TOKEN"` : '';
  return `curl -g -H 'Accept: application/json'${auth} \\\n  ${shellQuote(url)}`;
}

/** One paragraph per expansion at any depth that narrows its related records (`posts.comments`). */
function expandConditions(expands: readonly ExpandState[], relations: readonly RelationMeta[], path: string, parts: string[]): void {
  for (const expand of expands) {
    const relation = relations.find((r) => r.name === expand.relation);
    if (relation === undefined) continue;
    const name = `${path}${expand.relation}`;
    if (conditionGroups(expand.scope, relation).length > 0) {
      parts.push(`${name} (alias ${expand.alias}): only related records\n${conditionLines(expand.scope, relation).join('\n')}`);
    }
    expandConditions(expand.expands, relation.relations, `${name}.`, parts);
  }
}

/** The root condition, then one paragraph per expansion that narrows its related records. */
export function conditionText(state: FormState, meta: CollectionMeta): string {
  const has = state.has.map((row) =>
    hasText(
      row,
      meta.relations.find((r) => r.name === row.relation),
    ),
  );
  const parts = [groupLines([...conditionGroups(state.root, meta), ...has]).join('\n')];
  expandConditions(state.expands, meta.relations, '', parts);
  return parts.join('\n\n');
}

/**
 * The text split after every `?` and `&` into inline blocks, so a long URL wraps between parameters
 * and never inside one (a hyphen in `per-page` is a break opportunity otherwise). Text is unchanged.
 */
export function breakable(text: string): Node[] {
  return text.split(/(?<=[?&])/).map((part) => {
    const span = document.createElement('span');
    span.className = 'param';
    span.textContent = part;
    return span;
  });
}
