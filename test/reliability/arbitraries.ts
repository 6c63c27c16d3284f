// fast-check generators of valid requests over the fixture: random combinations of every modifier,
// logical prefixes in any case, negations, NULLs, dates and timestamps in every accepted form,
// quoted items, expansions with alias modifiers, per-parent windows and nested expansions up to the
// depth and count caps, pages and limit/offset. The values inside come from literals.ts; now and then
// a field the model's own JSON removes or masks is named somewhere (refusal-arbitraries.ts).

import fc from 'fast-check';
import { casedWord, GeneratorContext, literal, pool, recase } from './literals';
import { CollectionSpec, FieldSpec, RelationSpec, ScopeSpec } from './model';
import { withForbiddenField } from './refusal-arbitraries';
import { withSummary } from './summary-arbitraries';
import {
  ClauseSpec,
  CountSpec,
  Encoding,
  ExpandSpec,
  Family,
  HasSpec,
  Literal,
  Operator,
  Paging,
  Projection,
  QuerySpec,
  ScopeQuery,
  SearchMode,
  SearchSpec,
  SortSpec,
  TotalChoice,
  WindowSpec,
  EMPTY_SCOPE,
} from './query';

export type { GeneratorContext } from './literals';

const NULL: Literal = { isNull: true, text: 'null', quoted: false };

// ---- clauses --------------------------------------------------------------------------------

const prefixArb: fc.Arbitrary<string | null> = fc.option(casedWord(['and', 'or', 'or', 'and!', 'or!', 'or!']), { freq: 4 });

/** Fields of `scope` that can be ordered: text (and arrays of text) only under byte-order collation. */
function orderable(ctx: GeneratorContext, fields: readonly FieldSpec[]): FieldSpec[] {
  return fields.filter((f) => ctx.textOrder || (f.type !== 'text' && !(f.type === 'array' && f.element === 'text')));
}

/** `=`, `<>` only for arrays (contains, does not contain: docs/query-language.md, "Enums, arrays and JSON") and for unordered text. */
function operatorsOf(ctx: GeneratorContext, field: FieldSpec): Operator[] {
  const unordered = field.type === 'array' || (field.type === 'text' && !ctx.textOrder);
  return unordered ? ['=', '<>'] : ['=', '<>', '>', '>=', '<', '<='];
}

function clauseArb(ctx: GeneratorContext, scope: ScopeSpec, family: Family): fc.Arbitrary<ClauseSpec> | undefined {
  const filterable = scope.fields.filter((f) => scope.filterable.includes(f.name));
  // Arrays have no range (docs/query-language.md, "Enums, arrays and JSON").
  const fields = family === 'between' ? orderable(ctx, filterable).filter((f) => f.type !== 'array') : filterable;
  if (fields.length === 0) return undefined;
  return fc.constantFrom(...fields).chain((field) => {
    const item = literal(ctx, scope.table, field, family !== 'filter');
    const operators = operatorsOf(ctx, field);
    const values: fc.Arbitrary<Literal[]> =
      family === 'filter'
        ? fc.oneof(
            { arbitrary: item.map((l) => [l]), weight: 5 },
            { arbitrary: fc.constant<Literal[]>([NULL]), weight: field.nullable ? 2 : 1 },
          )
        : family === 'in'
          ? fc.array(fc.oneof({ arbitrary: item, weight: 6 }, { arbitrary: fc.constant(NULL), weight: 1 }), { minLength: 1, maxLength: 5 })
          : fc.tuple(item, item).map(([a, b]) => [a, b]);
    return fc
      .record({ prefix: prefixArb, values, operator: fc.constantFrom(...operators), writeOperator: fc.boolean() })
      .map(({ prefix, values: vs, operator, writeOperator }): ClauseSpec => ({
        family,
        prefix,
        field: field.name,
        // Only `=` and `<>` take null (docs/query-language.md, "filter").
        operator: vs[0]?.isNull && operator !== '<>' ? '=' : operator,
        writeOperator,
        values: vs,
      }));
  });
}

/**
 * A root clause: on the collection's own field, or now and then on a relation's field through a
 * dot path (docs/query-language.md, "Relations in conditions"), drawn from that relation's filterable fields and values.
 */
function rootClauseArb(
  ctx: GeneratorContext,
  collection: CollectionSpec,
  family: Family,
  counted: readonly string[] = [],
): fc.Arbitrary<ClauseSpec> | undefined {
  const own = clauseArb(ctx, collection, family);
  const related = collection.relations.flatMap((relation) => {
    const arb = clauseArb(ctx, relation.scope, family);
    return arb === undefined ? [] : [arb.map((clause): ClauseSpec => ({ ...clause, field: `${relation.name}.${clause.field}` }))];
  });
  const options = [
    ...(own === undefined ? [] : [{ arbitrary: own, weight: 3 * Math.max(related.length, 1) }]),
    ...related.map((arbitrary) => ({ arbitrary, weight: 2 })),
    ...counted.map((name) => ({ arbitrary: countClauseArb(`${name}_count`, family), weight: 2 })),
  ];
  return options.length === 0 ? undefined : fc.oneof(...options);
}

/** A field a search may name: the scope's own, or at the root a relation's as `<relation>.<field>`. */
interface Searchable {
  readonly name: string;
  readonly table: string;
  readonly field: string;
}

function searchables(scope: ScopeSpec, relations: readonly RelationSpec[]): Searchable[] {
  return [
    ...scope.searchable.map((field) => ({ name: field, table: scope.table, field })),
    ...relations.flatMap((r) => r.scope.searchable.map((field) => ({ name: `${r.name}.${field}`, table: r.scope.table, field }))),
  ];
}

function searchArb(ctx: GeneratorContext, scope: ScopeSpec, relations: readonly RelationSpec[]): fc.Arbitrary<SearchSpec> | undefined {
  const candidates = searchables(scope, relations);
  if (candidates.length === 0) return undefined;
  const odd = fc.constantFrom('%', '_', '\\', '*', 'a*b', 'Star*', '100%', 'e_r', ' ', "'", '"', 'zzz', 'é');
  const fields = fc.shuffledSubarray(candidates, { minLength: 1, maxLength: Math.min(3, candidates.length) });
  return fields.chain((chosen) => {
    // Terms cut from the searched fields' own text forms, so that searches find something.
    const texts = chosen.flatMap((c) => pool(ctx.data, c.table, c.field));
    const fromData =
      texts.length === 0
        ? odd
        : fc.tuple(fc.constantFrom(...texts), fc.nat(40), fc.nat(8), fc.nat(255)).map(([s, at, len, n]) => {
            const start = at % Math.max(s.length, 1);
            return recase(s.slice(start, start + 1 + len), n);
          });
    const term = fc
      .oneof({ arbitrary: fromData, weight: 5 }, { arbitrary: odd, weight: 1 })
      // Outer stars are wildcards, and edge spaces or quotes are not this test's question: trim them.
      .map((t) => t.replace(/^[*\s"]+|[*\s"]+$/g, ''))
      .filter((t) => t.length > 0);
    return fc.record({
      fields: fc.constant(chosen.map((c) => c.name)),
      term,
      mode: fc.constantFrom<SearchMode>('contains', 'both', 'start', 'end'),
    });
  });
}

const ASCENDING = ['', 'a', 'asc', 'ascending'];
const DESCENDING = ['-', 'd', 'des', 'desc', 'descending'];

/** Sort keys: the scope's sortable fields and, at the root, to-one relations' sortable fields (docs/query-language.md, "Sorting by a related record"). */
function sortsArb(
  ctx: GeneratorContext,
  scope: ScopeSpec,
  relations: readonly RelationSpec[] = [],
  counted: readonly string[] = [],
): fc.Arbitrary<SortSpec[]> {
  const related = relations
    .filter((r) => r.cardinality === 'one')
    .flatMap((r) =>
      orderable(
        ctx,
        r.scope.fields.filter((f) => r.scope.sortable.includes(f.name)),
      ).map((f) => `${r.name}.${f.name}`),
    );
  const sortable = [
    ...orderable(
      ctx,
      scope.fields.filter((f) => scope.sortable.includes(f.name)),
    ).map((f) => f.name),
    ...related,
    ...counted.map((name) => `${name}_count`),
  ];
  if (sortable.length === 0) return fc.constant([]);
  return fc
    .shuffledSubarray(sortable, { maxLength: Math.min(3, sortable.length) })
    .chain((fields) =>
      fc.tuple(
        ...fields.map((field) =>
          fc
            .tuple(casedWord([...ASCENDING, ...DESCENDING]), fc.boolean())
            .map(([word, bare]): SortSpec => ({ field, word, bare: bare && word === '' })),
        ),
      ),
    );
}

function projectionArb(scope: ScopeSpec): fc.Arbitrary<Projection | null> {
  const names = scope.fields.map((f) => f.name);
  const fields = fc.shuffledSubarray(names, { minLength: 1 }).map((list): Projection => ({ kind: 'fields', list }));
  const except =
    names.length < 2
      ? fields
      : fc.subarray(names, { minLength: 1, maxLength: names.length - 1 }).map((list): Projection => ({ kind: 'fields!', list }));
  return fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fields, weight: 2 }, { arbitrary: except, weight: 1 });
}

/**
 * Mostly short lists: every clause narrows the result, and a generator that mostly produces empty
 * answers tests little. Lengths 0 and 1 dominate, up to `max` now and then.
 */
function listOf<T>(item: fc.Arbitrary<T>, max: number, weights: readonly [number, number, number] = [5, 4, 2]): fc.Arbitrary<T[]> {
  const length = fc.oneof(
    { arbitrary: fc.constant(0), weight: weights[0] },
    { arbitrary: fc.constant(Math.min(1, max)), weight: weights[1] },
    { arbitrary: fc.integer({ min: Math.min(2, max), max }), weight: weights[2] },
  );
  return length.chain((n) => fc.array(item, { minLength: n, maxLength: n }));
}

interface ScopeSizes {
  readonly clauses: number;
  readonly searches: number;
}

/**
 * One scope's modifiers; at the root (`collection` given) clauses and searches may name related
 * fields, and clauses and sorts the counts of the request (`counted`: their relations).
 */
function scopeArb(
  ctx: GeneratorContext,
  scope: ScopeSpec,
  sizes: ScopeSizes,
  collection?: CollectionSpec,
  counted: readonly string[] = [],
): fc.Arbitrary<ScopeQuery> {
  const families: Family[] = ['filter', 'filter', 'in', 'between'];
  const clauseArbs = families
    .map((f) => (collection === undefined ? clauseArb(ctx, scope, f) : rootClauseArb(ctx, collection, f, counted)))
    .filter((a): a is fc.Arbitrary<ClauseSpec> => a !== undefined);
  const search = searchArb(ctx, scope, collection?.relations ?? []);
  return fc.record({
    clauses: clauseArbs.length === 0 ? fc.constant([]) : listOf(fc.oneof(...clauseArbs), sizes.clauses),
    searches: search === undefined ? fc.constant([]) : listOf(search, sizes.searches, [6, 3, 1]),
    projection: projectionArb(scope),
    sorts: sortsArb(ctx, scope, collection?.relations, counted),
  });
}

// ---- the request ----------------------------------------------------------------------------

/** Aliases match `^[A-Za-z][A-Za-z0-9]*$`; a few are Object.prototype names on purpose. */
const ALIASES = ['p', 'q', 'r2', 'Rel', 'constructor', 'toString', 'valueOf', 'x9'];

/** The plugin's defaults (docs/query-language.md, "Nested expansion"): expansions at every depth together, and levels. */
const MAX_EXPANSIONS = 5;
const MAX_DEPTH = 3;

/** One expansion before aliases are handed out and the count cap applied. */
interface Draft {
  readonly relation: RelationSpec;
  readonly aliased: boolean;
  readonly bare: boolean;
  readonly scope: ScopeQuery;
  readonly window: WindowSpec | null;
  readonly children: readonly Draft[];
}

const windowArb: fc.Arbitrary<WindowSpec | null> = fc.option(
  fc
    .record({ limit: fc.option(fc.nat(3)), offset: fc.option(fc.nat(2)) })
    .map((w) => (w.limit === null && w.offset === null ? { limit: 1, offset: null } : w)),
  { freq: 2 },
);

function draftsArb(ctx: GeneratorContext, relations: readonly RelationSpec[], depth: number): fc.Arbitrary<Draft[]> {
  if (relations.length === 0) return fc.constant([]);
  return fc.shuffledSubarray([...relations], { maxLength: Math.min(depth === 1 ? 3 : 2, relations.length) }).chain((chosen) =>
    fc.tuple(
      ...chosen.map((relation) =>
        fc.record({
          relation: fc.constant(relation),
          aliased: fc.nat(3).map((n) => n > 0),
          bare: fc.boolean(),
          scope: scopeArb(ctx, relation.scope, { clauses: 3, searches: 1 }),
          // Windows on to-many relations only (docs/query-language.md, "Per-parent windows").
          window: relation.cardinality === 'many' ? windowArb : fc.constant(null),
          children: depth < MAX_DEPTH ? draftsArb(ctx, relation.relations, depth + 1) : fc.constant([]),
        }),
      ),
    ),
  );
}

/**
 * Aliases handed out in order, unique in the request; nested expansions past `budget` dropped with
 * their subtrees. The cap (docs/query-language.md, "Cost limits", "Nested expansion") counts each relation the root names (by expand, has,
 * count or a dot path: at most all of the collection's) and each nested expansion, so the budget is
 * what the root's relations leave.
 */
function finish(drafts: readonly Draft[], aliases: string[], budget: { left: number }, depth = 1): ExpandSpec[] {
  const out: ExpandSpec[] = [];
  for (const draft of drafts) {
    if (depth > 1) {
      if (budget.left === 0) break;
      budget.left -= 1;
    }
    const alias = draft.aliased ? (aliases.shift() ?? null) : null;
    out.push({
      relation: draft.relation.name,
      alias,
      bare: draft.bare,
      scope: alias === null ? EMPTY_SCOPE : draft.scope,
      window: alias === null ? null : draft.window,
      expands: alias === null ? [] : finish(draft.children, aliases, budget, depth + 1),
    });
  }
  return out;
}

function expandsArb(ctx: GeneratorContext, collection: CollectionSpec): fc.Arbitrary<ExpandSpec[]> {
  const { relations } = collection;
  if (relations.length === 0) return fc.constant([]);
  return fc
    .tuple(draftsArb(ctx, relations, 1), fc.shuffledSubarray(ALIASES, { minLength: MAX_EXPANSIONS, maxLength: MAX_EXPANSIONS }))
    .map(([drafts, aliases]) => finish(drafts, aliases, { left: Math.max(0, MAX_EXPANSIONS - relations.length) }));
}

/** Aliases of `count` that no expand or has uses. */
const COUNT_ALIASES = ['c', 'C2'];

/** Up to two counts of distinct to-many relations, with their own alias conditions or an expand's (docs/query-language.md, "Counting related records"). */
function countsArb(ctx: GeneratorContext, collection: CollectionSpec, expands: readonly ExpandSpec[]): fc.Arbitrary<CountSpec[]> {
  const many = collection.relations.filter((r) => r.cardinality === 'many');
  if (many.length === 0) return fc.constant([]);
  const lengths = fc.oneof(
    { arbitrary: fc.constant(0), weight: 2 },
    { arbitrary: fc.constant(1), weight: 2 },
    { arbitrary: fc.constant(2), weight: 1 },
  );
  return fc.tuple(fc.shuffledSubarray(many, { maxLength: Math.min(2, many.length) }), lengths).chain(([chosen, n]) =>
    fc.tuple(
      ...chosen.slice(0, n).map((relation, i) =>
        fc
          .record({
            aliased: fc.nat(2),
            share: fc.boolean(),
            bare: fc.boolean(),
            scope: scopeArb(ctx, relation.scope, { clauses: 2, searches: 1 }),
          })
          .map(({ aliased, share, bare, scope }): CountSpec => {
            const expand = expands.find((e) => e.relation === relation.name && e.alias !== null);
            if (expand !== undefined && share)
              return { relation: relation.name, alias: expand.alias, bare, scope: expand.scope, shared: true };
            const alias = aliased > 0 ? (COUNT_ALIASES[i] ?? null) : null;
            return {
              relation: relation.name,
              alias,
              bare,
              scope: alias === null ? EMPTY_SCOPE : { ...scope, projection: null, sorts: [] },
              shared: false,
            };
          }),
      ),
    ),
  );
}

const small = fc.integer({ min: 0, max: 5 }).map((n): Literal => ({ isNull: false, text: String(n), quoted: false }));

/** A clause on `<relation>_count`, an integer field of the request (docs/query-language.md, "Counting related records"). */
function countClauseArb(field: string, family: Family): fc.Arbitrary<ClauseSpec> {
  const values: fc.Arbitrary<Literal[]> =
    family === 'filter'
      ? small.map((l) => [l])
      : family === 'in'
        ? fc.array(small, { minLength: 1, maxLength: 3 })
        : fc.tuple(small, small).map(([a, b]) => [a, b]);
  return fc
    .record({
      prefix: prefixArb,
      values,
      operator: fc.constantFrom<Operator>('=', '<>', '>', '>=', '<', '<='),
      writeOperator: fc.boolean(),
    })
    .map(({ prefix, values: vs, operator, writeOperator }): ClauseSpec => ({ family, prefix, field, operator, writeOperator, values: vs }));
}

/** Aliases of `has` that no expand uses: an alias names one relation, and two `has` never share a relation here. */
const HAS_ALIASES = ['h', 'H2', 'hasOwnProperty'];

/**
 * Up to two `has` / `has!` on distinct relations, their alias's conditions only (docs/query-language.md, "has and has!: all conditions on one related record"); when
 * the relation is expanded with an alias, often that alias, so the expansion shows what qualified.
 */
function hasArb(ctx: GeneratorContext, collection: CollectionSpec, expands: readonly ExpandSpec[]): fc.Arbitrary<HasSpec[]> {
  if (collection.relations.length === 0) return fc.constant([]);
  const relations = fc.shuffledSubarray([...collection.relations], { maxLength: Math.min(2, collection.relations.length) });
  const lengths = fc.oneof(
    { arbitrary: fc.constant(0), weight: 3 },
    { arbitrary: fc.constant(1), weight: 2 },
    { arbitrary: fc.constant(2), weight: 1 },
  );
  return fc.tuple(relations, lengths).chain(([chosen, n]) =>
    fc.tuple(
      ...chosen.slice(0, n).map((relation, i) =>
        fc
          .record({
            negated: fc.boolean(),
            aliased: fc.nat(3),
            share: fc.boolean(),
            bare: fc.boolean(),
            scope: scopeArb(ctx, relation.scope, { clauses: 3, searches: 1 }),
          })
          .map(({ negated, aliased, share, bare, scope }): HasSpec => {
            const expand = expands.find((e) => e.relation === relation.name && e.alias !== null);
            if (expand !== undefined && share) {
              return { relation: relation.name, negated, alias: expand.alias, bare, scope: expand.scope, shared: true };
            }
            const alias = aliased > 0 ? (HAS_ALIASES[i] ?? null) : null;
            const conditions = alias === null ? EMPTY_SCOPE : { ...scope, projection: null, sorts: [] };
            return { relation: relation.name, negated, alias, bare, scope: conditions, shared: false };
          }),
      ),
    ),
  );
}

const pagingArb: fc.Arbitrary<Paging> = fc.oneof(
  { arbitrary: fc.constant<Paging>({ kind: 'none' }), weight: 3 },
  {
    arbitrary: fc
      .record({
        page: fc.option(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 25 }))),
        size: fc.integer({ min: 1, max: 25 }),
        sizeKeys: fc.subarray<'per-page' | 'page-size'>(['per-page', 'page-size']),
      })
      .map(({ page, size, sizeKeys }): Paging => ({
        kind: 'page',
        page: page === null && sizeKeys.length === 0 ? 1 : page,
        size: sizeKeys.length > 0 ? size : null,
        sizeKeys,
      })),
    weight: 2,
  },
  {
    arbitrary: fc
      .record({ size: fc.integer({ min: 1, max: 25 }), sizeKeys: fc.subarray<'per-page' | 'page-size'>(['per-page', 'page-size']) })
      .map(({ size, sizeKeys }): Paging => ({ kind: 'cursor', size: sizeKeys.length > 0 ? size : null, sizeKeys })),
    weight: 2,
  },
  {
    arbitrary: fc
      .record({ limit: fc.option(fc.integer({ min: 0, max: 25 })), offset: fc.option(fc.integer({ min: 0, max: 25 })) })
      .map(({ limit, offset }): Paging => (limit === null && offset === null ? { kind: 'none' } : { kind: 'slice', limit, offset })),
    weight: 2,
  },
);

const NOISE: readonly (readonly [string, string])[] = [
  ['utm_source', 'news letter'],
  ['_', '1700000000'],
  ['Filter[id]', '1'],
  ['SORT[name]', 'x'],
];

const encodingArb: fc.Arbitrary<Encoding> = fc.record({ raw: fc.boolean(), plus: fc.boolean() });

/** A whole request to one of the fixture's collections: valid, or naming one field its model's JSON keeps private. */
export function querySpecArb(ctx: GeneratorContext): fc.Arbitrary<QuerySpec> {
  const collections = [...ctx.data.collections.values()];
  const weights: Readonly<Record<string, number>> = { users: 7, posts: 2, roles: 1, members: 2, articles: 1 };
  return fc.oneof(
    ...collections.map((collection) => ({
      weight: weights[collection.name] ?? 1,
      arbitrary: expandsArb(ctx, collection).chain((expands) =>
        countsArb(ctx, collection, expands)
          .chain((counts) =>
            fc.record({
              collection: fc.constant(collection.name),
              root: scopeArb(
                ctx,
                collection,
                { clauses: 5, searches: 2 },
                collection,
                counts.map((c) => c.relation),
              ),
              expands: fc.constant(expands),
              counts: fc.constant(counts),
              has: hasArb(ctx, collection, expands),
              paging: pagingArb,
              total: fc.oneof(
                { arbitrary: fc.constant(null), weight: 3 },
                { arbitrary: fc.constantFrom<TotalChoice>('exact', 'estimated', 'none'), weight: 3 },
              ),
              noise: fc.subarray([...NOISE], { maxLength: 2 }),
              merge: fc.array(fc.nat(30), { minLength: 6, maxLength: 6 }),
              encoding: encodingArb,
              // A cursor page has no total (docs/query-language.md, "Cursors: cursor", "Totals: total=exact, estimated, none"): `total` beside `cursor` would be refused.
            }),
          )
          .map((spec) => (spec.paging.kind === 'cursor' ? { ...spec, total: null } : spec))
          .chain((spec) => withForbiddenField(spec, collection))
          .chain((spec) => withSummary(spec, collection)),
      ),
    })),
  );
}
