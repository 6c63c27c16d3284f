// Loads one server with autocannon (in this, the bench, process) and measures around the run: req/s,
// latency percentiles, SQL statements per request (the server's /__bench/stats counter), its CPU time
// per request and its RSS (sampled from /proc every 250 ms), and given the database, PostgreSQL's CPU
// per request spent for it (database-cpu.ts).

import http from 'node:http';
import autocannon from 'autocannon';
import { meterDatabaseCpu } from './database-cpu';
import { readCpuMs, readMemory, sampleMemory, type ServerName, type ServerProcess } from './processes';
import { HOST_HEADER } from './shapes';

export interface RunResult {
  readonly server: ServerName;
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number; readonly mean: number };
  readonly statementsPerRequest: number;
  readonly cpuMsPerRequest: number;
  /** PostgreSQL's CPU for this server's requests (its backends and their parallel workers), per request; when measured. */
  readonly databaseCpuMsPerRequest?: number;
  readonly peakRss: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
}

interface Stats {
  statements: number;
  requests: number;
}

export async function serverStats(server: ServerProcess): Promise<Stats> {
  const response = await fetch(`${server.origin}/__bench/stats`);
  return (await response.json()) as Stats;
}

/** GET with the bench Host header (fetch() may not set Host, so this uses node:http). */
export function fetchBody(server: ServerProcess, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: server.port, path, headers: { host: HOST_HEADER }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/**
 * Loads `server` with `path` for `seconds`; with several paths, each request takes the next one in
 * turn (a cursor walk: every page its own query string). Given `databaseUrl`, PostgreSQL's CPU for
 * the server's connections is measured over the run too.
 */
export async function load(
  server: ServerProcess,
  path: string | readonly string[],
  seconds: number,
  connections: number,
  databaseUrl?: string,
): Promise<RunResult> {
  const paths = typeof path === 'string' ? [path] : path;
  let next = 0;
  const before = await serverStats(server);
  const cpuBefore = readCpuMs(server.pid);
  const database = databaseUrl === undefined ? undefined : await meterDatabaseCpu(databaseUrl, server.name);
  const stopSampling = sampleMemory(server.pid, 250);
  const result = await autocannon({
    url: `${server.origin}${paths[0] ?? ''}`,
    ...(paths.length > 1
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                request.path = paths[next++ % paths.length];
                return request;
              },
            },
          ],
        }
      : {}),
    headers: { host: HOST_HEADER },
    connections,
    duration: seconds,
    // A search over 1,000,000 rows under 16 connections can take longer than autocannon's default 10 s.
    timeout: 120,
  });
  const memory = stopSampling();
  const cpuAfter = readCpuMs(server.pid);
  const after = await serverStats(server);
  // Requests still running when autocannon stops are counted as served: their statements are measured to their end.
  const databaseCpu = await database?.stop();
  const served = after.requests - before.requests;
  return {
    server: server.name,
    // Successful answers only: a server that sheds load with 503s must not look faster for it.
    requestsPerSecond: result['2xx'] / result.duration,
    requests: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    statementsPerRequest: served > 0 ? (after.statements - before.statements) / served : 0,
    cpuMsPerRequest: served > 0 ? (cpuAfter - cpuBefore) / served : 0,
    ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: served > 0 ? databaseCpu.cpuMs / served : 0 }),
    peakRss: memory.peakRss,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A long run that records RSS once a second (for the "RSS stays flat" check). */
export async function soak(
  server: ServerProcess,
  path: string,
  seconds: number,
  connections: number,
): Promise<{ rssBySecond: number[]; requestsPerSecond: number; hwm: number }> {
  const rssBySecond: number[] = [];
  const timer = setInterval(() => rssBySecond.push(readMemory(server.pid).rss), 1000);
  const result = await autocannon({ url: `${server.origin}${path}`, headers: { host: HOST_HEADER }, connections, duration: seconds });
  clearInterval(timer);
  return { rssBySecond, requestsPerSecond: result.requests.average, hwm: readMemory(server.pid).hwm };
}
