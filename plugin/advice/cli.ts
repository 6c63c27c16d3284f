#!/usr/bin/env node
// The package's command (docs/installing.md#10-indexes-for-your-declarations):
// `npx koa-query-modifiers indexes --url postgres://... --models ./dist/models.js` prints the
// indexes the models' declarations need and the database lacks, as statements for a migration;
// `koa-query-modifiers triggers --models ...` prints the change triggers of the shared cache
// (docs/scaling.md, "A cache every instance shares") for every table the collections read.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { knex as createKnex } from 'knex';
import { buildCatalog, type ModelClass } from '../schema';
import { allTablesRead, changeTriggersScript } from '../shared-cache';
import { indexAdvice } from './advise';
import type { IndexAdviceReport } from './types';

const USAGE = `Usage: koa-query-modifiers indexes --models <module> [--url <postgres url>]
       koa-query-modifiers triggers --models <module> [--url <postgres url>] [--tables <t1,t2>]

  --models  a module (CommonJS or ES module) exporting the collections as queryModifiers() takes
            them: an export named "collections" (or the default export) mapping collection names
            to model classes
  --url     the database to read (default: the DATABASE_URL environment variable)

  --tables  (triggers) tables the hooks read besides the collections' own, as cache.tables

indexes:  prints the indexes the declarations need and the database lacks, as statements for a migration.
triggers: prints the SQL that creates the shared cache's versions table and change triggers.`;

interface Arguments {
  readonly command: 'indexes' | 'triggers';
  readonly models: string;
  readonly url: string;
  readonly tables: readonly string[];
}

function readArguments(argv: readonly string[]): Arguments | string {
  const [command, ...rest] = argv;
  if (command !== 'indexes' && command !== 'triggers')
    return command === undefined || command === '--help' ? USAGE : `unknown command "${command}"\n\n${USAGE}`;
  const values = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i] as string, rest[i + 1]];
    const flags = command === 'triggers' ? ['--models', '--url', '--tables'] : ['--models', '--url'];
    if (!flags.includes(flag) || value === undefined) return `unknown or incomplete argument "${flag}"\n\n${USAGE}`;
    values.set(flag, value);
  }
  const models = values.get('--models');
  const url = values.get('--url') ?? process.env.DATABASE_URL;
  if (models === undefined) return `--models is required\n\n${USAGE}`;
  if (url === undefined || url === '') return `--url (or DATABASE_URL) is required\n\n${USAGE}`;
  const tables = (values.get('--tables') ?? '').split(',').filter((table) => table !== '');
  return { command, models, url, tables };
}

// The compiler turns import() into require() in this CommonJS package, and require() cannot load an
// ES module on Node 20: a function made at run time keeps the real import().
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above; its text is a constant
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/** The host's module, CommonJS or ES module, by a path from the current folder. */
async function loadModule(path: string): Promise<{ collections?: unknown; default?: unknown }> {
  const file = resolve(process.cwd(), path);
  if (!file.endsWith('.mjs')) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the host's compiled module, named at run time
      return require(file) as { collections?: unknown; default?: unknown };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_ESM') throw error;
    }
  }
  return (await importModule(pathToFileURL(file).href)) as { collections?: unknown; default?: unknown };
}

async function loadCollections(path: string): Promise<Record<string, ModelClass>> {
  const loaded = await loadModule(path);
  const collections = loaded.collections ?? loaded.default;
  if (typeof collections !== 'object' || collections === null) {
    throw new Error(`${path} exports no "collections" (or default) object mapping collection names to model classes`);
  }
  return collections as Record<string, ModelClass>;
}

/** The report as a migration's body: each index under the collection that first needs it, with what it serves. */
function renderReport(report: IndexAdviceReport): string {
  if (report.statements.length === 0) return '-- koa-query-modifiers: no index advice: every index the declarations need exists\n';
  const lines = [
    `-- koa-query-modifiers: ${report.indexes.length} index${report.indexes.length === 1 ? '' : 'es'} the declarations need`,
    '-- CREATE INDEX CONCURRENTLY cannot run inside a transaction block: run these outside one.',
  ];
  const first = report.statements[0] as string;
  if (!first.startsWith('CREATE INDEX')) lines.push('', `${first};`);
  let collection: string | undefined;
  for (const index of report.indexes) {
    if (index.collection !== collection) {
      collection = index.collection;
      lines.push('', `-- ${collection}`);
    }
    lines.push(`-- serves ${index.serves.join(', ')}`, `${index.statement};`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = readArguments(argv);
  if (typeof args === 'string') {
    (args === USAGE ? process.stdout : process.stderr).write(`${args}\n`);
    return args === USAGE ? 0 : 2;
  }
  const knex = createKnex({ client: 'pg', connection: args.url, pool: { min: 0, max: 1 } });
  try {
    const catalog = await buildCatalog(knex, await loadCollections(args.models));
    if (args.command === 'triggers') process.stdout.write(changeTriggersScript(allTablesRead(catalog, args.tables)));
    else process.stdout.write(renderReport(await indexAdvice(knex, catalog)));
    return 0;
  } finally {
    await knex.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`koa-query-modifiers: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
