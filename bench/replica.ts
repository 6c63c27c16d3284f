// `npm run bench -- --replica`: one primary against a primary with one streaming replica, on a
// throw-away primary and replica this mode makes itself (initdb, pg_basebackup -R, random loopback
// ports), so the machine's own PostgreSQL is left alone. Two demo servers on the same data: one
// reads from the primary, the other has DATABASE_REPLICA_URLS and reads from the replica. Reported
// per shape: throughput of each and their ratio (the routing's cost), and where the CPU went (the
// app, the primary's cluster, the replica's cluster), per request.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { findPostgresBinaries, startCluster, startReplica, type Cluster } from '../test/reliability/cluster';
import type { BenchOptions } from './args';
import { databaseUrlFor, prepareDatabase } from './data';
import { fetchBody, load, type RunResult } from './load';
import { readClusterCpuMs, startServer, stopServer, type ServerProcess } from './processes';
import { SHAPES, shapePath } from './shapes';

type Log = (line: string) => void;

function postmasterPid(cluster: Cluster): number {
  return Number(fs.readFileSync(path.join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function scalar(url: string, sql: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ v: string }>(`select (${sql})::text as v`)).rows[0]?.v ?? '';
  } finally {
    await client.end();
  }
}

/** Waits until the replica has replayed everything the primary has written. */
async function caughtUp(primaryUrl: string, replicaUrl: string): Promise<void> {
  const position = await scalar(primaryUrl, 'pg_current_wal_lsn()');
  for (let i = 0; i < 600; i += 1) {
    if ((await scalar(replicaUrl, `pg_last_wal_replay_lsn() >= '${position}'::pg_lsn`)) === 'true') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the replica did not catch up with the primary within 60 s');
}

interface Measured {
  readonly run: RunResult;
  readonly primaryCpuMsPerRequest: number;
  readonly replicaCpuMsPerRequest: number;
}

export interface ReplicaShapeResult {
  readonly id: number;
  readonly label: string;
  readonly primaryOnly: {
    readonly requestsPerSecond: number;
    readonly appCpuMs: number;
    readonly primaryCpuMs: number;
    readonly replicaCpuMs: number;
  };
  readonly withReplica: {
    readonly requestsPerSecond: number;
    readonly appCpuMs: number;
    readonly primaryCpuMs: number;
    readonly replicaCpuMs: number;
  };
  /** withReplica / primaryOnly throughput. */
  readonly ratio: number;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

function summarise(runs: readonly Measured[]) {
  return {
    requestsPerSecond: mean(runs.map((m) => m.run.requestsPerSecond)),
    appCpuMs: mean(runs.map((m) => m.run.cpuMsPerRequest)),
    primaryCpuMs: mean(runs.map((m) => m.primaryCpuMsPerRequest)),
    replicaCpuMs: mean(runs.map((m) => m.replicaCpuMsPerRequest)),
  };
}

export async function replicaMode(
  options: BenchOptions,
  pluginScript: string,
  log: Log,
): Promise<{ shapes: ReplicaShapeResult[]; loadAverage: { start: number[]; end: number[] } }> {
  const found = findPostgresBinaries();
  if ('missing' in found) throw new Error(`--replica needs PostgreSQL's server binaries: ${found.missing}`);
  const loadStart = os.loadavg();
  log(`load average at start: ${loadStart.map((n) => n.toFixed(2)).join(' ')}`);
  const primary = await startCluster(found.bin);
  let replica: Cluster | undefined;
  const servers: ServerProcess[] = [];
  try {
    const db = await prepareDatabase(primary.url('postgres'), options.scale, true, log);
    replica = await startReplica(found.bin, primary);
    const replicaUrl = databaseUrlFor(replica.url('postgres'), db.name);
    await caughtUp(db.url, replicaUrl);
    log(`primary on port ${primary.port}, replica on port ${replica.port}, ${db.name} replayed on the replica`);
    const single = await startServer({ name: 'plugin', script: pluginScript, databaseUrl: db.url, env: { LOG_LEVEL: options.logLevel } });
    servers.push(single);
    const routed = await startServer({
      name: 'replicas',
      script: pluginScript,
      databaseUrl: db.url,
      env: { LOG_LEVEL: options.logLevel, DATABASE_REPLICA_URLS: replicaUrl },
    });
    servers.push(routed);
    // The replica is used once its first check (at start) has found it current.
    await new Promise((r) => setTimeout(r, 1500));
    const pids = { primary: postmasterPid(primary), replica: postmasterPid(replica) };
    const results: ReplicaShapeResult[] = [];
    for (const shape of SHAPES.filter((s) => options.shapes.includes(s.id))) {
      const [a, b] = await Promise.all([fetchBody(single, shapePath(shape)), fetchBody(routed, shapePath(shape))]);
      if (a.status !== 200 || a.body !== b.body)
        throw new Error(`shape ${shape.id}: the two servers answer differently (${a.status}/${b.status})`);
      const measure = async (server: ServerProcess, seconds: number): Promise<Measured> => {
        const before = { primary: readClusterCpuMs(pids.primary), replica: readClusterCpuMs(pids.replica) };
        const run = await load(server, shapePath(shape), seconds, options.connections);
        const served = Math.max(1, run.requests);
        return {
          run,
          primaryCpuMsPerRequest: (readClusterCpuMs(pids.primary) - before.primary) / served,
          replicaCpuMsPerRequest: (readClusterCpuMs(pids.replica) - before.replica) / served,
        };
      };
      for (const server of [single, routed]) await measure(server, Math.min(2, options.duration));
      const runs = { plugin: [] as Measured[], replicas: [] as Measured[] };
      for (let round = 1; round <= options.rounds; round += 1) {
        for (const server of round % 2 === 1 ? [single, routed] : [routed, single]) {
          const measured = await measure(server, options.duration);
          (server === single ? runs.plugin : runs.replicas).push(measured);
          log(
            `  shape ${shape.id} round ${round} ${server === single ? 'primary only ' : 'with replica '} ${measured.run.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
              `CPU ms/req app ${measured.run.cpuMsPerRequest.toFixed(2)}, primary ${measured.primaryCpuMsPerRequest.toFixed(2)}, replica ${measured.replicaCpuMsPerRequest.toFixed(2)}`,
          );
        }
      }
      const primaryOnly = summarise(runs.plugin);
      const withReplica = summarise(runs.replicas);
      results.push({
        id: shape.id,
        label: shape.label,
        primaryOnly,
        withReplica,
        ratio: withReplica.requestsPerSecond / primaryOnly.requestsPerSecond,
      });
    }
    return { shapes: results, loadAverage: { start: loadStart, end: os.loadavg() } };
  } finally {
    for (const server of servers) await stopServer(server);
    await replica?.destroy();
    await primary.destroy();
  }
}

/** The markdown table of a --replica run. */
export function replicaTable(shapes: readonly ReplicaShapeResult[]): string {
  const cpu = (s: ReplicaShapeResult['primaryOnly']) =>
    `${s.appCpuMs.toFixed(2)} / ${s.primaryCpuMs.toFixed(2)} / ${s.replicaCpuMs.toFixed(2)}`;
  return [
    '| # | shape | primary only req/s | with replica req/s | ratio | CPU ms/req app / primary / replica, primary only | same, with replica |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...shapes.map(
      (s) =>
        `| ${s.id} | ${s.label} | ${s.primaryOnly.requestsPerSecond.toFixed(0)} | ${s.withReplica.requestsPerSecond.toFixed(0)} | ${s.ratio.toFixed(2)} | ${cpu(s.primaryOnly)} | ${cpu(s.withReplica)} |`,
    ),
  ].join('\n');
}
