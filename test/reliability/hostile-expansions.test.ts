// Hostile class 1, oversized expansions (docs/query-language.md, "Cost limits"): generated requests
// expand every relation of the fixture over generated parents, alias conditions and per-parent
// windows, against an app whose expansions may load at most 3 related records. Each answer must be
// the one an uncapped app implies: the same records when they are at most 3 per expansion,
// LIMIT_EXCEEDED naming that expansion's `<alias>_limit` (to-many) or `expand[...]` (to-one) when
// there are more; and no expansion statement (nor an expansion read inside the rows statement) may
// ever read more than 3 + 1 rows, whatever the answer.

import { expect } from 'chai';
import fc from 'fast-check';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { closeIdleSockets, rawGet } from './http';
import { expectValidProblem } from '../support/problems';
import { serve, type Served } from './server';
import { withoutBudget } from '../support/budget';

const CAP = 3;

interface Captured {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

/** Relations of the fixture's users with conditions their aliases may carry (fixture.ts). */
const relations: Readonly<Record<string, readonly string[]>> = {
  posts: ['', 'filter[status]=published', 'filter[status]=draft', 'in[id]=1,4,7,10', 'search[title]=o'],
  roles: ['', 'filter[level]=%3E3', 'in[name]=admin,viewer'],
  phone: [''],
};

const toMany: ReadonlySet<string> = new Set(['posts', 'roles']);

const expansionArb = fc.constantFrom(...Object.keys(relations)).chain((relation) =>
  fc.record({
    relation: fc.constant(relation),
    condition: fc.constantFrom(...(relations[relation] ?? [''])),
    // A per-parent window on the to-many relations (docs/query-language.md, "Per-parent windows");
    // null: none.
    window: toMany.has(relation) ? fc.option(fc.integer({ min: 0, max: 3 }), { freq: 2 }) : fc.constant(null),
  }),
);

const requestArb = fc.record({
  parents: fc.oneof(
    fc.uniqueArray(fc.integer({ min: 1, max: 23 }), { minLength: 1, maxLength: 6 }).map((ids) => `in[id]=${ids.join(',')}`),
    fc.integer({ min: 1, max: 23 }).map((n) => `limit=${n}`),
    fc.integer({ min: 1, max: 10 }).map((n) => `per-page=${n}`),
  ),
  expansions: fc.uniqueArray(expansionArb, { minLength: 1, maxLength: 3, selector: (e) => e.relation }),
});

interface GeneratedRequest {
  readonly parents: string;
  readonly expansions: readonly { readonly relation: string; readonly condition: string; readonly window: number | null }[];
}

function queryOf(request: GeneratedRequest): string {
  const parts = [request.parents, 'fields=id'];
  request.expansions.forEach(({ relation, condition, window }, i) => {
    parts.push(`expand[${relation}]=a${i}`, `a${i}_fields=id`);
    if (condition !== '') parts.push(`a${i}_${condition}`);
    if (window !== null) parts.push(`a${i}_limit=${window}`);
  });
  return parts.join('&');
}

/** The records of a bare array or of an envelope. */
const recordsOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : ((body as { data?: unknown[] }).data ?? []));

/** How many related records each relation holds over all parents of an uncapped answer. */
function relatedCounts(body: unknown, relations: readonly string[]): Map<string, number> {
  const rows = recordsOf(body);
  const counts = new Map<string, number>();
  for (const relation of relations) {
    let n = 0;
    for (const row of rows as Record<string, unknown>[]) {
      const value = row[relation];
      n += Array.isArray(value) ? value.length : value === null || value === undefined ? 0 : 1;
    }
    counts.set(relation, n);
  }
  return counts;
}

describe('hostile input: oversized expansions (class 1)', function () {
  let db: TestDatabase | undefined;
  let capped: Served | undefined;
  let uncapped: Served | undefined;
  const statements: Captured[] = [];

  before(async function () {
    this.timeout(120000);
    db = await createTestDatabase();
    db.knex.on('query', (q: { sql: string; bindings?: unknown[] }) => statements.push({ sql: q.sql, bindings: q.bindings ?? [] }));
    capped = await serve(db.knex, { limits: { maxRelatedRows: CAP } });
    uncapped = await serve(db.knex, { limits: { maxRelatedRows: 100_000 } });
  });

  after(async function () {
    closeIdleSockets();
    await capped?.close();
    await uncapped?.close();
    await db?.destroy();
  });

  it('answers what the uncapped app implies and never reads more than the cap plus one related row', async function () {
    this.timeout(300000);
    const seen = { exceeded: 0, answered: 0 };
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        if (capped === undefined || uncapped === undefined) throw new Error('setup failed');
        const path = `/api/users?${queryOf(request)}`;
        const full = await rawGet(uncapped.origin, path);
        expect(full.status, `${path} uncapped: ${full.text.slice(0, 300)}`).to.equal(200);
        const counts = relatedCounts(
          full.body,
          request.expansions.map((e) => e.relation),
        );
        const first = statements.length;
        const res = await rawGet(capped.origin, path);
        const over = request.expansions
          .map((e, i) => ({ e, name: toMany.has(e.relation) ? `a${i}_limit` : `expand[${e.relation}]` }))
          .filter(({ e }) => (counts.get(e.relation) ?? 0) > CAP)
          .map(({ name }) => name);
        if (over.length === 0) {
          seen.answered += 1;
          expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(200);
          // Envelopes carry each app's own origin in their URLs; the records must be the same.
          expect(recordsOf(res.body), path).to.deep.equal(recordsOf(full.body));
        } else {
          seen.exceeded += 1;
          expect(res.status, `${path}: ${res.text.slice(0, 300)}`).to.equal(400);
          const problem = expectValidProblem(res, path);
          expect(problem.code, path).to.equal('LIMIT_EXCEEDED');
          expect(over, `${path}: names an expansion with too many records`).to.include(problem.parameter);
          expect(problem.allowed, path).to.equal(CAP);
        }
        // Expansion statements select by the parents' keys; each reads at most CAP + 1 rows.
        // Each read as written, without the byte budget's wrapper it runs in (limits.maxResponseBytes).
        for (const statement of statements
          .slice(first)
          .map(withoutBudget)
          .filter((s) => / = any\(|\) in \(\(|cross join lateral/.test(s.sql))) {
          const aggregates = statement.sql.split('json_agg(').length - 1;
          if (aggregates > 0) {
            // Read inside the rows statement: each relation's related rows are limited before they are aggregated.
            // The related rows are read within the byte budget too: the limit, then the budget's wrapper.
            const reads = [
              ...statement.sql.matchAll(
                / limit \$(\d+)\) as "__kqm_i" offset 0\) as "__kqm_t"\) as "__kqm_t" where "__kqm_t"\."__kqm_bytes" - .*? <= \$\d+\) as "__kqm_r" group by /g,
              ),
            ];
            expect(reads, `${path}: an aggregated expansion without a limit`).to.have.length(aggregates);
            for (const [, at] of reads) expect(statement.bindings[Number(at) - 1], path).to.equal(CAP + 1);
            continue;
          }
          expect(statement.sql, `${path}: an expansion statement without a limit`).to.match(/ limit (\?|\$\d+)$/);
          expect(statement.bindings[statement.bindings.length - 1], path).to.equal(CAP + 1);
        }
      }),
      { seed: Number(process.env.FC_SEED ?? 4242), numRuns: Number(process.env.HOSTILE_RUNS ?? 200) },
    );
    console.log(`    oversized expansions: ${seen.answered} answered, ${seen.exceeded} LIMIT_EXCEEDED`);
    expect(seen.answered, 'generated requests within the cap').to.be.greaterThan(10);
    expect(seen.exceeded, 'generated requests over the cap').to.be.greaterThan(10);
  });
});
