// The shared cache's benchmark (docs/benchmarks.md, "Shared cache"), in one run: shapes 1, 3 and 7
// answered from the cache against the same server without it (throughput and CPU per request,
// alternately), and what the change triggers add to writes: a 10,000-row INSERT in one statement,
// 10,000 one-row INSERTs in one transaction, and 10,000 one-row INSERTs by 8 concurrent clients (one
// statement per transaction, and 125), each on a table with the triggers against one without and one
// with a counter row per table (the design not taken). Starts its own throw-away redis-server.
// Usage: node dist/bench/shared-cache.js [--scale N] [--duration S] [--connections C] [--writes-only]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { changeTriggersScript } from '../plugin/shared-cache';
import { freePort } from '../test/support/free-port';
import { prepareDatabase } from './data';
import { fetchBody, load, type RunResult } from './load';
import { startServer, stopServer, killAll, type ServerProcess } from './processes';
import { SHAPES, shapePath } from './shapes';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await new Promise((wait) => setTimeout(wait, 500));
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

interface WriteFigures {
  readonly label: string;
  readonly withoutMs: number;
  readonly withMs: number;
  /** The design not taken, for comparison: one counter row per table, updated by every writing statement. */
  readonly counterRowMs: number;
}

/** The rejected design: a trigger updating one counter row per table (every writer of a table waits for the previous one's commit). */
const COUNTER_ROW_SQL = `create table bench_writes_counters (relid oid primary key, version bigint not null);
insert into bench_writes_counters values ('bench_writes_counter'::regclass, 0);
create function bench_writes_bump() returns trigger language plpgsql as $$
begin update bench_writes_counters set version = version + 1 where relid = TG_RELID; return null; end $$;
create trigger bench_writes_bump after insert or update or delete on bench_writes_counter for each statement execute function bench_writes_bump();`;

const WRITE_TABLES = ['plain', 'watched', 'counter'] as const;

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;

/** Times `write(table)` on the plain table and the watched one, alternately, `rounds` times each; medians in ms. */
async function timeWrites(label: string, rounds: number, write: (table: string) => Promise<void>): Promise<WriteFigures> {
  const times: Record<string, number[]> = { plain: [], watched: [], counter: [] };
  for (let i = 0; i < rounds; i += 1) {
    for (const table of WRITE_TABLES) {
      const started = performance.now();
      await write(`bench_writes_${table}`);
      times[table]?.push(performance.now() - started);
    }
  }
  return { label, withoutMs: median(times.plain ?? []), withMs: median(times.watched ?? []), counterRowMs: median(times.counter ?? []) };
}

async function measureWrites(databaseUrl: string): Promise<WriteFigures[]> {
  const clients = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const [main] = clients as [Client];
  await main.query('drop table if exists bench_writes_counters; drop function if exists bench_writes_bump() cascade');
  for (const table of WRITE_TABLES) {
    await main.query(`drop table if exists bench_writes_${table}`);
    await main.query(`create table bench_writes_${table} (id bigserial primary key, name text not null, score int not null)`);
  }
  await main.query(changeTriggersScript(['"bench_writes_watched"']));
  await main.query(COUNTER_ROW_SQL);
  const figures = [
    await timeWrites('one INSERT of 10,000 rows', 9, async (table) => {
      await main.query(`insert into ${table} (name, score) select 'n' || g, g from generate_series(1, 10000) g`);
    }),
    await timeWrites('10,000 one-row INSERTs in one transaction', 5, async (table) => {
      await main.query('begin');
      for (let i = 0; i < 10000; i += 1) await main.query(`insert into ${table} (name, score) values ($1, $2)`, [`n${i}`, i]);
      await main.query('commit');
    }),
    await timeWrites('10,000 one-row INSERTs, each its own transaction, 8 clients at once', 3, async (table) => {
      await Promise.all(
        clients.map(async (client) => {
          for (let i = 0; i < 1250; i += 1) await client.query(`insert into ${table} (name, score) values ($1, $2)`, [`n${i}`, i]);
        }),
      );
    }),
    await timeWrites('10,000 one-row INSERTs, 8 clients at once, each in transactions of 125', 3, async (table) => {
      await Promise.all(
        clients.map(async (client) => {
          for (let t = 0; t < 10; t += 1) {
            await client.query('begin');
            for (let i = 0; i < 125; i += 1) await client.query(`insert into ${table} (name, score) values ($1, $2)`, [`n${i}`, i]);
            await client.query('commit');
          }
        }),
      );
    }),
  ];
  for (const table of WRITE_TABLES) await main.query(`drop table bench_writes_${table}`);
  await main.query('drop table bench_writes_counters; drop function bench_writes_bump()');
  await Promise.all(clients.map((client) => client.end()));
  return figures;
}

interface ShapeFigures {
  readonly shape: number;
  readonly uncached: RunResult;
  readonly cached: RunResult;
}

async function main(): Promise<void> {
  const scale = argument('--scale', 100000);
  const seconds = argument('--duration', 5);
  const connections = argument('--connections', 16);
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const loadBefore = os.loadavg();
  const database = await prepareDatabase(ADMIN_URL, scale, false, log, undefined, { suffix: 'sc', statements: [] });
  if (process.argv.includes('--writes-only')) {
    for (const w of await measureWrites(database.url)) log(JSON.stringify(w));
    log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    return;
  }
  const redis = await startRedis();
  const script = path.join(__dirname, 'plugin-server.js');
  const servers: ServerProcess[] = [];
  try {
    const uncached = await startServer({ name: 'plugin', script, databaseUrl: database.url });
    const cached = await startServer({
      name: 'plugin',
      script,
      databaseUrl: database.url,
      env: { REDIS_URL: redis.url, CACHE_TTL_SECONDS: '600' },
    });
    servers.push(uncached, cached);
    const shapes: ShapeFigures[] = [];
    for (const id of [1, 3, 7]) {
      const shape = SHAPES.find((s) => s.id === id);
      if (shape === undefined) throw new Error(`no shape ${id}`);
      const url = shapePath(shape);
      // Warm both: the plan cache, and the answer kept in Redis.
      for (const server of [uncached, cached]) for (let i = 0; i < 3; i += 1) await fetchBody(server, url);
      log(`shape ${id}: uncached …`);
      const a = await load(uncached, url, seconds, connections);
      log(`shape ${id}: cached …`);
      const b = await load(cached, url, seconds, connections);
      shapes.push({ shape: id, uncached: a, cached: b });
    }
    await Promise.all(servers.map(stopServer));
    log('writes …');
    const writes = await measureWrites(database.url);
    const loadAfter = os.loadavg();
    const result = {
      date: new Date().toISOString(),
      scale,
      seconds,
      connections,
      cores: os.cpus().length,
      loadBefore,
      loadAfter,
      shapes,
      writes,
    };
    const file = path.join(__dirname, '..', '..', 'bench', 'results', 'shared-cache.json');
    fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(
      `\nload average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`,
    );
    log('| shape | req/s uncached | req/s cached | × | CPU ms/req uncached | CPU ms/req cached | ÷ | statements/req cached |');
    for (const { shape, uncached: a, cached: b } of shapes) {
      log(
        `| ${shape} | ${a.requestsPerSecond.toFixed(0)} | ${b.requestsPerSecond.toFixed(0)} | ${(b.requestsPerSecond / a.requestsPerSecond).toFixed(1)} | ` +
          `${a.cpuMsPerRequest.toFixed(2)} | ${b.cpuMsPerRequest.toFixed(2)} | ${(a.cpuMsPerRequest / b.cpuMsPerRequest).toFixed(1)} | ${b.statementsPerRequest.toFixed(2)} |`,
      );
    }
    log('| write | without triggers ms | with triggers ms | ratio | counter row ms | ratio |');
    for (const w of writes) {
      const ratio = (ms: number) => (ms / w.withoutMs).toFixed(2);
      log(
        `| ${w.label} | ${w.withoutMs.toFixed(1)} | ${w.withMs.toFixed(1)} | ${ratio(w.withMs)} | ${w.counterRowMs.toFixed(1)} | ${ratio(w.counterRowMs)} |`,
      );
    }
  } finally {
    await Promise.all(servers.map(stopServer));
    redis.stop();
  }
}

main().catch((error: unknown) => {
  killAll();
  console.error(error);
  process.exit(1);
});
