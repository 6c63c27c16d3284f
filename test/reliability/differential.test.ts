// Differential test: fast-check generates valid requests (every modifier, prefixes, negations,
// NULLs, dates, quoted items, enums, arrays, expansions with alias modifiers, per-parent windows and
// nested expansions, pages, limit/offset, totals, facets and stats (every bucket kind; on users again
// under a scope hook), cursors walked
// both ways on every kind of sort, and
// fields a model's own JSON removes or masks, which both must refuse alike),
// sends each to the plugin on the fixture database (with typed-columns.ts's enum and array columns)
// and requires the answer to equal the reference evaluator's.
// Fixed seed by default; FC_SEED=<n> replays or explores another seed, FC_RUNS=<n> sets the count.

import fc from 'fast-check';
import { expect } from 'chai';
import { expansionQuery } from '../../plugin/apply/expansions';
import { compileQuery } from '../../plugin/apply/compiled';
import type { CompiledExpansion } from '../../plugin/apply/types';
import { planQueries } from '../../plugin/apply/query';
import { planSummary } from '../../plugin/apply/summary';
import { resolveOptions, type ResolvedOptions } from '../../plugin/options';
import { buildCatalog, type Catalog } from '../../plugin/schema';
import { describeQuery, parseQueryString } from '../../plugin/syntax';
import { validateQuery } from '../../plugin/validate';
import { startApp, TEST_CURSOR_SECRET, TestApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/db';
import { expectSameRows } from '../support/same-rows';
import { querySpecArb } from './arbitraries';
import { DIFFERENTIAL_MAX_ROWS, expectAnswer, expectSummaryOnly } from './compare';
import { expectCursorWalk } from '../support/cursor-walk';
import { closeIdleSockets, rawGet } from './http';
import { Dataset, fieldOf, loadDataset, textInByteOrder } from './model';
import { serializeQuery, type ExpandSpec, type QuerySpec } from './query';
import { evaluate, ReferenceOptions, summaryOf } from './reference';
import type { ModelQuery } from '../../plugin';
import { addTypedColumns, RELATION_SORTS, TYPED_USER_FIELDS, typedCollections } from './typed-columns';
import { withBoundaryCollections } from './boundary';
import { boundaryCollections } from './boundary-models';

const DEFAULT_SEED = 20250417;
/** The scoped app's hook keeps the users up to this id as the root's records. */
const SCOPED_MAX_ID = 15;

/** The scoped app's facets and stats for `path` are the reference's over the users its hook keeps. */
async function expectScopedSummary(origin: string, path: string, expected: ReturnType<typeof summaryOf>): Promise<void> {
  const res = await rawGet(origin, path);
  if (res.status !== 200) expect.fail(`scoped GET ${path}: expected 200, got ${res.status}: ${res.text.slice(0, 600)}`);
  const body = res.body as Record<string, unknown>;
  expectSummaryOnly(body, expected, `scoped GET ${path}`);
}
/**
 * The typed columns' collections and the two whose models keep fields private in their JSON
 * (docs/configuration.md, "What your model's JSON hides or masks").
 */
const collections = { ...typedCollections, ...boundaryCollections };
const DEFAULT_RUNS = 1500;

function envNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${text}`);
  return n;
}

/**
 * The app under test has no scope hook, so it sends statement text it wrote itself; a host with a
 * hook gets Objection builders instead. Both must compile to the same SQL for every query.
 */
async function expectSameStatementsThroughBuilders(
  catalog: Catalog,
  options: ResolvedOptions,
  collection: string,
  raw: string,
  data: Dataset,
): Promise<void> {
  const scope = catalog.get(collection);
  if (scope === undefined) throw new Error(`no collection ${collection}`);
  const compiled = compileQuery(validateQuery(describeQuery(parseQueryString(raw)), scope, options));
  const noHook = (): Promise<void> => Promise.resolve();
  const direct = await planQueries(compiled, options.knex);
  const built = await planQueries(compiled, options.knex, noHook);
  expectSameRows(direct.rows, built.rows, compiled.aggregated !== undefined);
  expect(direct.count.toSQL(), `count query of ${raw}`).to.deep.equal(built.count.toSQL());
  expect(direct.estimated?.capped.toSQL(), `capped count of ${raw}`).to.deep.equal(built.estimated?.capped.toSQL());
  expect(direct.estimated?.estimate.toSQL(), `estimate of ${raw}`).to.deep.equal(built.estimated?.estimate.toSQL());
  expect(direct.probe?.toSQL(), `probe of ${raw}`).to.deep.equal(built.probe?.toSQL());
  if (compiled.summary !== undefined) {
    const text = await planSummary(scope, compiled.summary, compiled.plain, options.knex, undefined);
    const viaBuilders = await planSummary(scope, compiled.summary, compiled.plain, options.knex, noHook);
    expect(text.toSQL(), `facets and stats of ${raw}`).to.deep.equal(viaBuilders.toSQL());
  }
  const parents = (data.rows.get(scope.table) ?? []).slice(0, 5) as Record<string, unknown>[];
  const same = async (expansions: readonly CompiledExpansion[], owners: Record<string, unknown>[]): Promise<void> => {
    for (const expansion of expansions) {
      const texts = (
        await Promise.all([expansionQuery(owners, options.knex, expansion), expansionQuery(owners, options.knex, expansion, noHook)])
      ).map((planned) => planned?.query.toSQL());
      expect(texts[0], `${expansion.scope.catalog.label} query of ${raw}`).to.deep.equal(texts[1]);
      // The nested levels' parents are rows of this relation's table.
      await same(expansion.expansions, (data.rows.get(expansion.scope.catalog.table) ?? []).slice(0, 5));
    }
  };
  await same(compiled.expansions, parents);
}

/** The kinds of root sort a cursor walk can have: by key count, direction, what the key is and its type, and the collection. */
const SORT_KINDS = [
  'no sort',
  'one key',
  'several keys',
  'descending',
  'relation field',
  'count',
  ...['integer', 'bigint', 'numeric', 'text', 'boolean', 'date', 'timestamptz', 'enum', 'array'].map((type) => `${type} field`),
  ...['users', 'posts', 'roles', 'members', 'articles'].map((name) => `on ${name}`),
];

function sortKinds(spec: QuerySpec, data: Dataset): string[] {
  const { sorts } = spec.root;
  const collection = data.collections.get(spec.collection);
  const kinds = [sorts.length === 0 ? 'no sort' : sorts.length === 1 ? 'one key' : 'several keys', `on ${spec.collection}`];
  if (sorts.some((s) => /^(-|d|des|desc|descending)$/i.test(s.word))) kinds.push('descending');
  for (const { field } of sorts) {
    if (field.includes('.')) kinds.push('relation field');
    else if (field.endsWith('_count') && collection?.fields.every((f) => f.name !== field)) kinds.push('count');
    else if (collection !== undefined) kinds.push(`${fieldOf(collection, field).type} field`);
  }
  return kinds;
}

describe('differential: the API against the reference evaluator', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  /** The same collections under a scope hook that keeps users 1-15 as the root (its facets and stats are compared). */
  let scoped: TestApp | undefined;
  let data: Dataset | undefined;
  let textOrder = true;
  let catalog: Catalog | undefined;
  let resolved: ResolvedOptions | undefined;

  before(async function () {
    this.timeout(120000);
    // Searches on timestamps match their text form, which follows the session time zone.
    db = await createTestDatabase({ timezone: 'UTC' });
    await addTypedColumns(db.knex);
    data = withBoundaryCollections(await loadDataset(db.knex, TYPED_USER_FIELDS, RELATION_SORTS));
    const collation = await textInByteOrder(db.knex);
    textOrder = collation.byteOrder;
    if (!textOrder) console.log(`    collation ${collation.collation}: text ordering is left out of the generated queries`);
    app = await startApp(db.knex, { collections: collections, maxRows: DIFFERENTIAL_MAX_ROWS });
    scoped = await startApp(db.knex, {
      collections: collections,
      maxRows: DIFFERENTIAL_MAX_ROWS,
      scope: (_ctx: unknown, label: string, query: ModelQuery) => {
        if (label === 'users') query.where('users.id', '<=', SCOPED_MAX_ID);
      },
    });
    // The app's secret: the second page's cursor, sealed by the app, is validated here again.
    resolved = resolveOptions({
      knex: db.knex,
      collections: collections,
      maxRows: DIFFERENTIAL_MAX_ROWS,
      cursorSecret: TEST_CURSOR_SECRET,
    });
    catalog = await buildCatalog(db.knex, resolved.collections);
  });

  after(async function () {
    this.timeout(60000);
    closeIdleSockets();
    await app?.close();
    await scoped?.close();
    await db?.destroy();
  });

  it('answers every generated query as the reference does (records, order, keys, envelope)', async function () {
    this.timeout(600000);
    if (!app || !data || !catalog || !resolved) throw new Error('setup failed');
    const builtCatalog = catalog;
    const pluginOptions = resolved;
    const { origin } = app;
    const dataset = data;
    const options: ReferenceOptions = { origin, prefix: '/api', maxRows: DIFFERENTIAL_MAX_ROWS, defaultPageSize: 15 };
    const seed = envNumber('FC_SEED', DEFAULT_SEED);
    const numRuns = envNumber('FC_RUNS', DEFAULT_RUNS);
    let executed = 0;
    const shapes = { nested: 0, windows: 0, cursors: 0, refused: 0, summaries: 0, scoped: 0 };
    const walkedSorts = new Map<string, number>();
    const started = Date.now();
    const property = fc.asyncProperty(querySpecArb({ data: dataset, textOrder }), async (spec) => {
      executed += 1;
      const all = (expands: readonly ExpandSpec[]): ExpandSpec[] => expands.flatMap((e) => [e, ...all(e.expands)]);
      if (spec.expands.some((e) => e.expands.length > 0)) shapes.nested += 1;
      if (all(spec.expands).some((e) => e.window !== null)) shapes.windows += 1;
      const raw = serializeQuery(spec);
      const path = `/api/${spec.collection}?${raw}`;
      const expected = evaluate(spec, raw, dataset, options);
      if (expected.kind === 'refused') {
        shapes.refused += 1;
        expectAnswer(await rawGet(origin, path), expected, path);
        return;
      }
      if (expected.kind === 'cursor-walk') {
        shapes.cursors += 1;
        for (const kind of sortKinds(spec, dataset)) walkedSorts.set(kind, (walkedSorts.get(kind) ?? 0) + 1);
        const second = await expectCursorWalk(origin, path, raw, expected);
        if (second !== undefined) await expectSameStatementsThroughBuilders(builtCatalog, pluginOptions, spec.collection, second, dataset);
      } else {
        if ((expected.kind === 'page' || expected.kind === 'simple-page') && expected.summary !== undefined) {
          shapes.summaries += 1;
          if (spec.collection === 'users' && scoped !== undefined) {
            shapes.scoped += 1;
            await expectScopedSummary(
              scoped.origin,
              path,
              summaryOf(spec, dataset, (row) => Number(row.id) <= SCOPED_MAX_ID),
            );
          }
        }
        expectAnswer(await rawGet(origin, path), expected, path);
      }
      await expectSameStatementsThroughBuilders(builtCatalog, pluginOptions, spec.collection, raw, dataset);
    });
    try {
      await fc.assert(property, { seed, numRuns });
    } finally {
      console.log(
        `    differential: ${executed} generated queries checked in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed}, ${numRuns} runs${executed > numRuns ? ' + shrinking' : ''}; ` +
          `${shapes.nested} with nested expansions, ${shapes.windows} with per-parent windows, ${shapes.cursors} walked by cursor, ` +
          `${shapes.refused} refused for a field the model's JSON keeps private, ${shapes.summaries} with facets or stats, ${shapes.scoped} of them again under a scope hook)`,
      );
      console.log(`    sorts walked by cursor: ${[...walkedSorts].map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
    }
    // Every kind of sort the generator makes is walked by cursor in the default run (a smaller run may miss some).
    if (numRuns >= DEFAULT_RUNS)
      expect(
        SORT_KINDS.filter((kind) => !walkedSorts.has(kind)),
        'sorts never walked by cursor',
      ).to.deep.equal([]);
    expect(shapes.refused, 'requests naming a field the JSON keeps private').to.be.greaterThan(0);
    expect(shapes.summaries, 'pages with facets or stats').to.be.greaterThan(0);
    expect(shapes.scoped, 'facets and stats under a scope hook').to.be.greaterThan(0);
  });
});
