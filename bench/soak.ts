// Soak test (`npm run soak`): the demo server on PostgreSQL, a warm-up, then 60 s at 32 connections
// over a mix of valid and invalid requests. Passes when there is no 5xx, every valid request is a
// 200, every invalid one a 4xx problem, and the server's RSS grows less than 10% after the warm-up.
// DATABASE_URL names the server's maintenance database (default: the local server); the soak
// creates its own database there and drops it afterwards. Options: --duration S, --warmup S,
// --connections N, --out file.json.

import { spawn, ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Client } from 'pg';

interface Options {
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly out: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (name: string, fallback: number): number => {
    const text = value(name);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${text}`);
    return n;
  };
  return {
    duration: number('--duration', 60),
    warmup: number('--warmup', 15),
    connections: number('--connections', 32),
    out: value('--out'),
  };
}

/** Valid requests over the demo collections: every one must be a 200. */
const VALID: readonly string[] = [
  '/api/users?filter[id]=>=5&sort[name]=desc&per-page=10',
  '/api/users?search[name]=an&fields=id,name,email',
  '/api/users?between[created_at]=2025-04-01,2025-04-17&filter[status]=active',
  '/api/users?filter[role]=admin&filter[or%20status]=banned&sort[created_at]=desc&limit=50',
  '/api/users?in[role]=admin,editor&fields!=updated_at&page=2',
  '/api/users?expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&p_filter[status]=published&per-page=20',
  '/api/posts?expand[author]&sort[views]=desc&limit=5',
  '/api/users?filter[score]=<>0&filter[and!%20is_admin]=true&page=2&per-page=25',
  '/api/users?limit=50&offset=100&expand[phone]&expand[roles]=r&r_sort[name]',
  '/api/posts?search[title,body]=*the*&page-size=10&page=3',
  '/api/users?filter[email_verified_at]=null&sort[birthday]=desc&fields=id,birthday&limit=100',
  '/api/roles?expand[users]=u&u_fields=id,name&u_sort[name]=asc',
];

/** Invalid requests: every one must be a 4xx problem (never a 5xx). */
const INVALID: readonly string[] = [
  '/api/users?filter[bogus]=1',
  '/api/users?sort=name',
  '/api/users?filter[id]=abc',
  '/api/users?per-page=1000',
  '/api/users?filter[xor%20id]=1',
  '/api/nope',
  '/api/users?filter[name]=%00',
  '/api/users?in[id]=1,,2',
  '/api/users?expand[posts]=p&q_fields=id',
  '/api/users?page=0',
  '/api/users?fields=password_hash',
  `/api/users?filter[name]=%E0%A4`,
  '/api/users?expand[nope]',
  '/api/users?between[id]=1',
];

interface Tally {
  valid200: number;
  validOther: number;
  invalid4xx: number;
  invalidOther: number;
  status5xx: number;
  statuses: Record<string, number>;
  firstBad: string[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A timeout for Promise.race that does not keep the process alive once the race is decided. */
const deadline = (ms: number): Promise<'timeout'> => new Promise((r) => setTimeout(() => r('timeout'), ms).unref());

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function rssKiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]);
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Each connection cycles through the valid and invalid requests, alternating. */
function requestsFor(tally: Tally): autocannon.Request[] {
  const mix: { path: string; valid: boolean }[] = [];
  for (let i = 0; i < Math.max(VALID.length, INVALID.length); i += 1) {
    if (VALID[i]) mix.push({ path: VALID[i] as string, valid: true });
    if (INVALID[i]) mix.push({ path: INVALID[i] as string, valid: false });
  }
  return mix.map(({ path, valid }) => ({
    method: 'GET',
    path,
    onResponse: (status: number) => {
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      if (status >= 500) tally.status5xx += 1;
      const ok = valid ? status === 200 : status >= 400 && status < 500;
      if (valid) tally[ok ? 'valid200' : 'validOther'] += 1;
      else tally[ok ? 'invalid4xx' : 'invalidOther'] += 1;
      if (!ok && tally.firstBad.length < 10) tally.firstBad.push(`${status} ${path}`);
    },
  }));
}

function newTally(): Tally {
  return { valid200: 0, validOther: 0, invalid4xx: 0, invalidOther: 0, status5xx: 0, statuses: {}, firstBad: [] };
}

async function runLoad(origin: string, seconds: number, connections: number, tally: Tally): Promise<autocannon.Result> {
  return autocannon({ url: origin, connections, duration: seconds, requests: requestsFor(tally) });
}

async function startDemoServer(databaseUrl: string, port: number): Promise<{ child: ChildProcess; log: () => string }> {
  const root = resolve(__dirname, '..', '..');
  let log = '';
  const child = spawn(process.execPath, [join(root, 'dist', 'server', 'main.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'warn', API_TOKEN: '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-20000);
  });
  child.stderr.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-20000);
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the demo server exited: ${log}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/users?limit=1`);
      if (res.status === 200) return { child, log: () => log };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the demo server did not answer within 120 s: ${log}`);
    await sleep(250);
  }
}

async function stopDemoServer(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, deadline(15_000)]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    return null;
  }
  return code;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const adminUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `kqm_soak_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await admin(adminUrl, `create database ${name}`);
  let server: ChildProcess | undefined;
  try {
    const port = await freePort();
    const started = await startDemoServer(url.toString(), port);
    server = started.child;
    const pid = server.pid as number;
    const origin = `http://127.0.0.1:${port}`;
    process.stdout.write(`soak: demo server pid ${pid} on ${origin}, database ${name}\n`);

    // RSS is sampled every second under load, in the warm-up and in the soak alike, so the
    // baseline (last 5 s of the warm-up) and the end (last 5 s of the soak) compare like with like.
    const warmSamples: number[] = [];
    const warmSampler = setInterval(() => warmSamples.push(rssKiB(pid)), 1000);
    const warm = newTally();
    const warmResult = await runLoad(origin, options.warmup, options.connections, warm);
    clearInterval(warmSampler);
    const baseline = median(warmSamples.slice(-5));

    const tally = newTally();
    const samples: { t: number; rss: number }[] = [];
    const t0 = Date.now();
    const sampler = setInterval(() => samples.push({ t: Math.round((Date.now() - t0) / 1000), rss: rssKiB(pid) }), 1000);
    const result = await runLoad(origin, options.duration, options.connections, tally);
    clearInterval(sampler);
    const end = median(samples.slice(-5).map((s) => s.rss));
    const peak = Math.max(...samples.map((s) => s.rss));
    const growth = (end - baseline) / baseline;
    const exitCode = await stopDemoServer(server);
    server = undefined;

    const summary = {
      date: new Date().toISOString(),
      node: process.version,
      durationSeconds: options.duration,
      warmupSeconds: options.warmup,
      warmup: {
        requests: warmResult.requests.total,
        status5xx: warm.status5xx,
        validOther: warm.validOther,
        invalidOther: warm.invalidOther,
      },
      connections: options.connections,
      requests: result.requests.total,
      requestsPerSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      errors: result.errors,
      timeouts: result.timeouts,
      statuses: tally.statuses,
      valid: { ok200: tally.valid200, other: tally.validOther },
      invalid: { ok4xx: tally.invalid4xx, other: tally.invalidOther },
      status5xx: tally.status5xx,
      firstBad: tally.firstBad,
      rssKiB: { afterWarmup: baseline, end, peak, growthPercent: Number((growth * 100).toFixed(2)) },
      serverExitCode: exitCode,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    if (options.out) writeFileSync(options.out, `${JSON.stringify({ ...summary, rssSamples: samples }, null, 2)}\n`);
    const failures: string[] = [];
    if (warm.status5xx + warm.validOther + warm.invalidOther > 0)
      failures.push(`the warm-up had unexpected statuses: ${warm.firstBad.join(', ')}`);
    if (tally.status5xx > 0) failures.push(`${tally.status5xx} answers were 5xx`);
    if (tally.validOther > 0) failures.push(`${tally.validOther} valid requests were not 200`);
    if (tally.invalidOther > 0) failures.push(`${tally.invalidOther} invalid requests were not 4xx`);
    if (result.errors > 0 || result.timeouts > 0) failures.push(`${result.errors} connection errors, ${result.timeouts} timeouts`);
    if (growth >= 0.1) failures.push(`RSS grew ${(growth * 100).toFixed(1)}% after the warm-up (limit 10%)`);
    if (exitCode !== 0) failures.push(`the server exited with ${String(exitCode)} on SIGTERM`);
    process.stdout.write(failures.length === 0 ? 'soak: PASS\n' : `soak: FAIL\n- ${failures.join('\n- ')}\n`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    if (server) await stopDemoServer(server);
    await admin(adminUrl, `drop database if exists ${name} with (force)`).catch((error: unknown) => {
      process.stderr.write(`soak: could not drop ${name}: ${String(error)}\n`);
    });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
