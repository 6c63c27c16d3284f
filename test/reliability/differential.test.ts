// Differential test: fast-check generates valid requests (every modifier, prefixes, negations,
// NULLs, dates, quoted items, expansions with alias modifiers, pages, limit/offset), sends each to
// the plugin on the fixture database and requires the answer to equal the reference evaluator's.
// Fixed seed by default; FC_SEED=<n> replays or explores another seed, FC_RUNS=<n> sets the count.

import fc from 'fast-check';
import { startApp, TestApp } from '../support/app';
import { createTestDatabase, TestDatabase } from '../support/db';
import { querySpecArb } from './arbitraries';
import { DIFFERENTIAL_MAX_ROWS, expectAnswer } from './compare';
import { closeIdleSockets, rawGet } from './http';
import { Dataset, loadDataset, textInByteOrder } from './model';
import { serializeQuery } from './query';
import { evaluate, ReferenceOptions } from './reference';

const DEFAULT_SEED = 20250417;
const DEFAULT_RUNS = 1500;

function envNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${text}`);
  return n;
}

describe('differential: the API against the reference evaluator', function () {
  let db: TestDatabase | undefined;
  let app: TestApp | undefined;
  let data: Dataset | undefined;
  let textOrder = true;

  before(async function () {
    this.timeout(120000);
    // Searches on timestamps match their text form, which follows the session time zone.
    db = await createTestDatabase({ timezone: 'UTC' });
    data = await loadDataset(db.knex);
    const collation = await textInByteOrder(db.knex);
    textOrder = collation.byteOrder;
    if (!textOrder) console.log(`    collation ${collation.collation}: text ordering is left out of the generated queries`);
    app = await startApp(db.knex, { maxRows: DIFFERENTIAL_MAX_ROWS });
  });

  after(async function () {
    this.timeout(60000);
    closeIdleSockets();
    await app?.close();
    await db?.destroy();
  });

  it('answers every generated query as the reference does (records, order, keys, envelope)', async function () {
    this.timeout(600000);
    if (!app || !data) throw new Error('setup failed');
    const { origin } = app;
    const dataset = data;
    const options: ReferenceOptions = { origin, prefix: '/api', maxRows: DIFFERENTIAL_MAX_ROWS, defaultPageSize: 15 };
    const seed = envNumber('FC_SEED', DEFAULT_SEED);
    const numRuns = envNumber('FC_RUNS', DEFAULT_RUNS);
    let executed = 0;
    const started = Date.now();
    const property = fc.asyncProperty(querySpecArb({ data: dataset, textOrder }), async (spec) => {
      executed += 1;
      const raw = serializeQuery(spec);
      const path = `/api/${spec.collection}?${raw}`;
      expectAnswer(await rawGet(origin, path), evaluate(spec, raw, dataset, options), path);
    });
    try {
      await fc.assert(property, { seed, numRuns });
    } finally {
      console.log(`    differential: ${executed} generated queries checked in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${seed}, ${numRuns} runs${executed > numRuns ? ' + shrinking' : ''})`);
    }
  });
});
