// Fault soak (`npm run soak:faults`): the demo server process on a throw-away PostgreSQL cluster,
// under a bounded loopback load (fault-load.ts) while its database is blocked (ALLOW_CONNECTIONS
// false), allowed again, dropped, recreated empty and restored, `--cycles` times over. Passes when
// no answer is a 5xx other than 503 or a connection error, every answer is one the database's state
// allows, the server recovers each time without a restart, its RSS at the end is within 50% of its
// RSS at the end of the first phase, and it exits with 0 on SIGTERM. Needs initdb and pg_ctl, as
// the fault suite does. Options: --phase S (default 5), --cycles N (default 2), --connections N
// (default 8), --recovery S (default 3), --out file.json.

import { spawn, ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { knex as createKnex } from 'knex';
import { prepareDemoDatabase } from '../server/demo/setup';
import { findPostgresBinaries, startCluster, type Cluster } from '../test/reliability/cluster';
import { runFaultLoad, type DbState, type Phase } from './fault-load';

const DB = 'kqm_soak_faults';
// A bound on growth, not a leak detector: a 60 s run ends before the server's first major garbage
// collection and grows 20-25% by then; longer runs level off once it comes (docs/reliability.md).
const RSS_LIMIT = 0.5;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const n = Number(process.argv[at + 1]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function seed(cluster: Cluster): Promise<void> {
  const loader = createKnex({ client: 'pg', connection: cluster.url(DB), pool: { min: 0, max: 1 } });
  try {
    await prepareDemoDatabase(loader);
  } finally {
    await loader.destroy();
  }
}

/** The operator's action that takes the database into `state`, from the state before it. */
async function enter(cluster: Cluster, state: DbState, from: DbState): Promise<void> {
  if (state === 'blocked') {
    await cluster.sql('postgres', `alter database ${DB} allow_connections false`);
    // Open sessions keep working until they end, as after a restart or a failover.
    await cluster.sql('postgres', `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${DB}'`);
  } else if (state === 'dropped') {
    await cluster.sql('postgres', `drop database ${DB} with (force)`);
  } else if (state === 'empty') {
    await cluster.sql('postgres', `create database ${DB}`);
  } else if (state === 'up' && from === 'blocked') {
    await cluster.sql('postgres', `alter database ${DB} allow_connections true`);
  } else if (state === 'up' && from === 'empty') {
    await seed(cluster);
  }
}

function rssKiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

interface Server {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Lines the server logged with status 500 (the plugin's routes or /ready), and its last output. */
  readonly logged: { status500: number; tail: string };
}

async function startServer(url: string, port: number): Promise<Server> {
  const child = spawn(process.execPath, [join(resolve(__dirname, '..', '..'), 'dist', 'server', 'main.js')], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: 'error', API_TOKEN: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logged = { status500: 0, tail: '' };
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"status":500')) logged.status500 += 1;
    logged.tail = (logged.tail + d.toString()).slice(-4000);
  });
  child.stderr.on('data', (d: Buffer) => {
    logged.tail = (logged.tail + d.toString()).slice(-4000);
  });
  for (const until = Date.now() + 120_000; ;) {
    if (child.exitCode !== null) throw new Error(`the demo server exited: ${logged.tail}`);
    const status = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200 && child.pid !== undefined) return { child, pid: child.pid, logged };
    if (Date.now() > until) throw new Error(`the demo server was not ready within 120 s: ${logged.tail}`);
    await sleep(250);
  }
}

function stopServer(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return exited.finally(() => clearTimeout(timer));
}

async function main(): Promise<number> {
  const phaseMs = option('--phase', 5) * 1000;
  const cycles = option('--cycles', 2);
  const connections = option('--connections', 8);
  const recoveryMs = option('--recovery', 3) * 1000;
  const outAt = process.argv.indexOf('--out');
  const found = findPostgresBinaries();
  if ('missing' in found) throw new Error(found.missing);
  const cluster = await startCluster(found.bin);
  let server: Server | undefined;
  try {
    await cluster.createDatabase(DB);
    const port = await freePort();
    server = await startServer(cluster.url(DB), port);
    const { pid } = server;
    const plan: DbState[] = ['up'];
    for (let c = 0; c < cycles; c += 1) plan.push('blocked', 'up', 'dropped', 'empty', 'up');
    let current: Phase = { index: 0, state: 'up', startedAt: Date.now() };
    const samples: { phase: number; state: DbState; rss: number }[] = [];
    const sampler = setInterval(() => samples.push({ phase: current.index, state: current.state, rss: rssKiB(pid) }), 500);
    const load0 = loadavg();
    const t0 = Date.now();
    const result = await runFaultLoad(
      port,
      connections,
      () => current,
      recoveryMs,
      async () => {
        for (let i = 0; i < plan.length; i += 1) {
          const state = plan[i] as DbState;
          if (i > 0) {
            current = { index: current.index + 1, state: 'changing', startedAt: Date.now() };
            await enter(cluster, state, plan[i - 1] as DbState);
          }
          current = { index: current.index + (i > 0 ? 1 : 0), state, startedAt: Date.now() };
          await sleep(phaseMs);
        }
      },
    );
    const seconds = (Date.now() - t0) / 1000;
    clearInterval(sampler);
    const load1 = loadavg();
    // RSS at the end of the first and of the last phase (both `up`, under the same load): the last 2 s of each.
    const lastPhase = current.index;
    const before = median(
      samples
        .filter((s) => s.phase === 0)
        .slice(-4)
        .map((s) => s.rss),
    );
    const after = median(
      samples
        .filter((s) => s.phase === lastPhase)
        .slice(-4)
        .map((s) => s.rss),
    );
    const peak = Math.max(...samples.map((s) => s.rss));
    const exitCode = await stopServer(server.child);
    const byStatus: Record<string, number> = {};
    const byKind: Record<string, Record<string, number>> = {};
    for (const tally of result.tallies) {
      for (const [kind, counts] of Object.entries(tally.counts)) {
        for (const [status, n] of Object.entries(counts)) {
          byStatus[status] = (byStatus[status] ?? 0) + n;
          (byKind[kind] ??= {})[status] = (byKind[kind][status] ?? 0) + n;
        }
      }
    }
    const other5xx = Object.entries(byStatus)
      .filter(([s]) => Number(s) >= 500 && s !== '503')
      .reduce((sum, [, n]) => sum + n, 0);
    const growth = (after - before) / before;
    const summary = {
      command: `npm run soak:faults -- --phase ${phaseMs / 1000} --cycles ${cycles} --connections ${connections} --recovery ${recoveryMs / 1000}`,
      date: new Date().toISOString(),
      node: process.version,
      seconds: Number(seconds.toFixed(1)),
      phases: plan.length,
      requests: result.requests,
      requestsPerSecond: Math.round(result.requests / seconds),
      byStatus,
      byKind,
      other5xx,
      connectionErrors: byStatus['0'] ?? 0,
      server500LogLines: server.logged.status500,
      violations: result.violationCount,
      firstViolations: result.violations,
      phasesDetail: result.tallies.map((t) => ({ phase: t.phase, state: t.state, ...t.counts, lastValid503Ms: t.lastValid503Ms })),
      rssKiB: { endOfFirstPhase: before, endOfLastPhase: after, peak, growthPercent: Number((growth * 100).toFixed(1)) },
      loadAverage: { before: load0.map((l) => Number(l.toFixed(2))), after: load1.map((l) => Number(l.toFixed(2))) },
      serverExitCode: exitCode,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    if (outAt >= 0 && process.argv[outAt + 1])
      writeFileSync(process.argv[outAt + 1] as string, `${JSON.stringify({ ...summary, rssSamples: samples }, null, 2)}\n`);
    const failures: string[] = [];
    if (other5xx > 0 || server.logged.status500 > 0)
      failures.push(`${other5xx} answers were a 5xx other than 503 (${server.logged.status500} logged 500s)`);
    if (summary.connectionErrors > 0) failures.push(`${summary.connectionErrors} connection errors`);
    if (result.violationCount > 0) failures.push(`${result.violationCount} answers the database's state does not allow`);
    const unrecovered = result.tallies.filter((t) => t.state === 'up' && !(Number(t.counts.valid['200']) > 0));
    if (unrecovered.length > 0) failures.push(`no valid request was answered 200 in phase ${unrecovered.map((t) => t.phase).join(', ')}`);
    if (growth >= RSS_LIMIT) failures.push(`RSS grew ${(growth * 100).toFixed(1)}% (limit ${RSS_LIMIT * 100}%)`);
    if (exitCode !== 0) failures.push(`the server exited with ${String(exitCode)} on SIGTERM`);
    server = undefined;
    process.stdout.write(failures.length === 0 ? 'soak:faults PASS\n' : `soak:faults FAIL\n- ${failures.join('\n- ')}\n`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    if (server) await stopServer(server.child);
    await cluster.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`soak:faults: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
