// Now and then puts into a generated request one field its model's own JSON removes or masks
// (docs/configuration.md, "What your model's JSON hides or masks"), wherever a field can be named:
// a root clause, search, sort or projection, a dot path, an alias's modifiers at any depth, or the
// conditions of a `has` or `count` alias. The reference (reference-refusals.ts) and the plugin must
// refuse it alike.

import fc from 'fast-check';
import { casedWord } from './literals';
import type { CollectionSpec, RelationSpec, ScopeSpec } from './model';
import type { ClauseSpec, ExpandSpec, Family, Literal, QuerySpec, ScopeQuery } from './query';

/** Names the scope's model removes (`project`), or removes or masks (`compare`). */
function forbidden(scope: ScopeSpec, use: 'project' | 'compare'): string[] {
  return [...(scope.hidden ?? []), ...(use === 'compare' ? [...(scope.masks?.keys() ?? [])] : [])];
}

const text = (t: string): Literal => ({ isNull: false, text: t, quoted: false });

/** `list` with `item` at a drawn position. */
function insertArb<T>(list: readonly T[], item: T): fc.Arbitrary<T[]> {
  return fc.nat(list.length).map((at) => [...list.slice(0, at), item, ...list.slice(at)]);
}

/** The ways one scope's own modifiers can name `names` (as `<prefix>name` for dot paths). */
function scopeArbs(query: ScopeQuery, scope: ScopeSpec, prefix: string, projection: boolean): fc.Arbitrary<ScopeQuery>[] {
  const compared = forbidden(scope, 'compare').map((n) => `${prefix}${n}`);
  if (compared.length === 0) return [];
  const name = fc.constantFrom(...compared);
  const clause = fc
    .record({
      family: fc.constantFrom<Family>('filter', 'in', 'between'),
      prefix: fc.option(casedWord(['and', 'or', 'and!', 'or!']), { freq: 3 }),
      field: name,
      operator: fc.constantFrom('=' as const, '>=' as const, '<' as const),
    })
    .map((c): ClauseSpec => ({ ...c, writeOperator: true, values: c.family === 'between' ? [text('a'), text('n')] : [text('hash-1')] }));
  const arbs: fc.Arbitrary<ScopeQuery>[] = [
    clause.chain((c) => insertArb(query.clauses, c).map((clauses) => ({ ...query, clauses }))),
    name.map((n) => ({ ...query, searches: [...query.searches, { fields: [n], term: 'a', mode: 'contains' as const }] })),
  ];
  if (prefix === '') {
    arbs.push(
      fc
        .tuple(name, casedWord(['', 'asc', 'desc']))
        .chain(([n, word]) => insertArb(query.sorts, { field: n, word, bare: word === '' }).map((sorts) => ({ ...query, sorts }))),
    );
  }
  const hidden = forbidden(scope, 'project');
  if (projection && hidden.length > 0) {
    const shown = scope.fields.map((f) => f.name);
    arbs.push(
      fc.tuple(fc.constantFrom(...hidden), fc.subarray(shown, { maxLength: 2 }), fc.boolean()).chain(([n, others, except]) =>
        insertArb(others, n).map((list) => ({
          ...query,
          projection: { kind: except ? ('fields!' as const) : ('fields' as const), list },
        })),
      ),
    );
  }
  return arbs;
}

/** A to-one relation's field in a root sort (docs/query-language.md, "Sorting by a related record"). */
function dotSortArbs(query: ScopeQuery, relations: readonly RelationSpec[]): fc.Arbitrary<ScopeQuery>[] {
  const names = relations.filter((r) => r.cardinality === 'one').flatMap((r) => forbidden(r.scope, 'compare').map((n) => `${r.name}.${n}`));
  if (names.length === 0) return [];
  return [
    fc
      .constantFrom(...names)
      .chain((n) => insertArb(query.sorts, { field: n, word: '', bare: true }).map((sorts) => ({ ...query, sorts }))),
  ];
}

/** Every aliased expansion, at any depth, with the relation it expands and where it sits. */
function aliased(
  expands: readonly ExpandSpec[],
  relations: readonly RelationSpec[],
  path: number[] = [],
): { path: number[]; relation: RelationSpec }[] {
  return expands.flatMap((expand, i) => {
    const relation = relations.find((r) => r.name === expand.relation);
    if (relation === undefined || expand.alias === null) return [];
    return [{ path: [...path, i], relation }, ...aliased(expand.expands, relation.relations, [...path, i])];
  });
}

function replaceAt(expands: readonly ExpandSpec[], path: readonly number[], scope: ScopeQuery): ExpandSpec[] {
  const [at, ...rest] = path;
  return expands.map((e, i) => (i !== at ? e : rest.length === 0 ? { ...e, scope } : { ...e, expands: replaceAt(e.expands, rest, scope) }));
}

function expandArbs(spec: QuerySpec, collection: CollectionSpec): fc.Arbitrary<QuerySpec>[] {
  return aliased(spec.expands, collection.relations).flatMap(({ path, relation }) => {
    let expand: ExpandSpec | undefined;
    let level: readonly ExpandSpec[] = spec.expands;
    for (const i of path) {
      expand = level[i];
      level = expand?.expands ?? [];
    }
    if (expand === undefined) return [];
    return scopeArbs(expand.scope, relation.scope, '', true).map((arb) =>
      arb.map((scope) => ({ ...spec, expands: replaceAt(spec.expands, path, scope) })),
    );
  });
}

/** The conditions of a `has` or `count` alias of its own (a shared one is an expand's). */
function conditionArbs(spec: QuerySpec, collection: CollectionSpec): fc.Arbitrary<QuerySpec>[] {
  const relationOf = (name: string) => collection.relations.find((r) => r.name === name);
  const has = spec.has.flatMap((h, i) => {
    const relation = relationOf(h.relation);
    if (relation === undefined || h.alias === null || h.shared) return [];
    return scopeArbs(h.scope, relation.scope, '', false)
      .slice(0, 1)
      .map((arb) => arb.map((scope) => ({ ...spec, has: spec.has.map((x, j) => (j === i ? { ...x, scope } : x)) })));
  });
  const counts = spec.counts.flatMap((c, i) => {
    const relation = relationOf(c.relation);
    if (relation === undefined || c.alias === null || c.shared) return [];
    return scopeArbs(c.scope, relation.scope, '', false)
      .slice(0, 1)
      .map((arb) => arb.map((scope) => ({ ...spec, counts: spec.counts.map((x, j) => (j === i ? { ...x, scope } : x)) })));
  });
  return [...has, ...counts];
}

/** `spec` as it is, or (one time in three, where its collection reaches such a field) with one forbidden name in it. */
export function withForbiddenField(spec: QuerySpec, collection: CollectionSpec): fc.Arbitrary<QuerySpec> {
  const root = [
    ...scopeArbs(spec.root, collection, '', true),
    ...collection.relations.flatMap((r) => scopeArbs(spec.root, r.scope, `${r.name}.`, false).slice(0, 2)),
    ...dotSortArbs(spec.root, collection.relations),
  ].map((arb) => arb.map((root) => ({ ...spec, root })));
  const sites = [...root, ...expandArbs(spec, collection), ...conditionArbs(spec, collection)];
  if (sites.length === 0) return fc.constant(spec);
  return fc.oneof({ arbitrary: fc.constant(spec), weight: 2 }, { arbitrary: fc.oneof(...sites), weight: 1 });
}
