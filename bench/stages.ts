// `npm run bench -- --stages`: times the plugin's request stages in this process, without HTTP or load,
// to show which part of the per-request CPU is the plugin's own work and which is query building.
// For each shape: parse + describe, validate, plan, plan + compile of the page query (its text in
// knex's toSQL form; without a scope hook and with a no-op one, which builds Objection builders), the whole runPipeline against the database (one request at a time), and the
// response (records + envelope + JSON.stringify) from rows fetched once. Also a hand-written pg
// baseline: the same statements through pg directly, one request at a time.

import crypto from 'node:crypto';
import Knex from 'knex';
import { Client } from 'pg';
import { compileQuery, planQueries } from '../plugin/apply';
import { resolveOptions } from '../plugin/options';
import { runPipeline } from '../plugin/pipeline';
import { buildEnvelope, shapeRecords } from '../plugin/respond';
import { buildCatalog } from '../plugin/schema';
import { describeQuery, parseQueryString } from '../plugin/syntax';
import { validateQuery } from '../plugin/validate';
import { Phone, Post, Role, User } from '../server/demo/models';
import { collectionPath, SHAPES } from './shapes';

export interface StageTimes {
  readonly shape: number;
  /** Microseconds per request for each stage. */
  readonly parseUs: number;
  readonly validateUs: number;
  readonly planUs: number;
  /** Planning plus the page query's text in knex's toSQL form, without a scope hook (statement text written directly). */
  readonly compileUs: number;
  /** The same with a no-op scope hook, which makes every statement an Objection builder. */
  readonly builderCompileUs: number;
  readonly respondUs: number;
  /** Wall time of runPipeline per request, one at a time (includes waiting for PostgreSQL). */
  readonly pipelineUs: number;
  /** Wall time of the same statements sent through pg directly (page, count and relation queries as the plugin ran them). */
  readonly rawPgUs: number;
}

function timeUs(iterations: number, work: () => void): number {
  for (let i = 0; i < Math.min(200, iterations); i++) work();
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) work();
  return Number(process.hrtime.bigint() - started) / 1000 / iterations;
}

/** Up to `iterations` sequential runs, but no more than about three seconds' worth (search at 1M rows is slow). */
async function timeAsyncUs(iterations: number, work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(5, iterations); i++) await work();
  const started = process.hrtime.bigint();
  let done = 0;
  while (done < iterations && (done < 3 || Number(process.hrtime.bigint() - started) < 3e9)) {
    await work();
    done++;
  }
  return Number(process.hrtime.bigint() - started) / 1000 / done;
}

export async function measureStages(databaseUrl: string, shapes: readonly number[], log: (line: string) => void): Promise<StageTimes[]> {
  const knex = Knex({ client: 'pg', connection: databaseUrl, pool: { min: 1, max: 1 } });
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const options = resolveOptions({ knex, collections: { users: User, posts: Post, phones: Phone, roles: Role } });
    const catalog = await buildCatalog(knex, options.collections);
    const noHook = (): Promise<void> => Promise.resolve();
    const results: StageTimes[] = [];
    for (const shape of SHAPES.filter((s) => shapes.includes(s.id))) {
      const collection = catalog.get(shape.collection ?? 'users');
      if (collection === undefined) throw new Error(`no ${shape.collection ?? 'users'} collection`);
      const query = shape.query;
      const pairs = parseQueryString(query);
      const described = describeQuery(pairs);
      const validated = validateQuery(described, collection, options);
      // What the plan cache keeps; planning from it is what every request after the first costs.
      const compiled = compileQuery(validated);
      const parseUs = timeUs(5000, () => describeQuery(parseQueryString(query)));
      const validateUs = timeUs(5000, () => validateQuery(described, collection, options));
      // Without a scope hook the statement text is written directly; a hook makes it an Objection builder.
      const planUs = await timeAsyncUs(3000, () => planQueries(compiled, knex));
      const compileUs = await timeAsyncUs(2000, async () => (await planQueries(compiled, knex)).rows.toSQL());
      const builderCompileUs = await timeAsyncUs(2000, async () => (await planQueries(compiled, knex, noHook)).rows.toSQL());
      const { rows } = await (await planQueries(compiled, knex)).run();
      const path = `http://bench.local:3000${collectionPath(shape)}`;
      const pageUrl = (page: number): string => `${path}?${query}&page=${page}`;
      const respondUs = timeUs(2000, () => {
        const records = shapeRecords(rows, validated.root, validated.expansions);
        const body =
          validated.paging.kind === 'page'
            ? buildEnvelope(records, { page: validated.paging.page, pageSize: validated.paging.pageSize, total: 100000, path, pageUrl })
            : records;
        const text = JSON.stringify(body);
        crypto.createHash('sha1').update(text).digest('base64url');
      });
      const request = { queryString: query, path, scopeHook: undefined };
      // Capture the statements one request runs, then replay them through pg directly.
      const statements: { sql: string; bindings: unknown[] }[] = [];
      const capture = (event: { sql: string; bindings?: unknown[] }): void => {
        statements.push({ sql: event.sql, bindings: event.bindings ?? [] });
      };
      knex.on('query', capture);
      await runPipeline(collection, options, request);
      knex.off('query', capture);
      const pipelineUs = await timeAsyncUs(300, () => runPipeline(collection, options, request));
      const rawPgUs = await timeAsyncUs(300, async () => {
        for (const s of statements) await pg.query(s.sql, s.bindings);
      });
      const result = { shape: shape.id, parseUs, validateUs, planUs, compileUs, builderCompileUs, respondUs, pipelineUs, rawPgUs };
      log(
        `  shape ${shape.id}: parse ${parseUs.toFixed(0)} µs, validate ${validateUs.toFixed(0)} µs, plan ${planUs.toFixed(0)} µs, ` +
          `plan + compile page query ${compileUs.toFixed(0)} µs (through a builder, as with a scope hook: ${builderCompileUs.toFixed(0)} µs), respond ${respondUs.toFixed(0)} µs; ` +
          `runPipeline ${pipelineUs.toFixed(0)} µs vs the same ${statements.length} statements through pg ${rawPgUs.toFixed(0)} µs`,
      );
      results.push(result);
    }
    return results;
  } finally {
    await pg.end();
    await knex.destroy();
  }
}
