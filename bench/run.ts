// `npm run bench`: the plugin (production demo app) against a hand-written Koa + pg floor on a generated
// PostgreSQL data set. Modes: the A/B comparison (default), `--compare-scales`, `--cpu-prof`, `--soak`,
// `--governance`, `--export`.
// See docs/benchmarks.md for what is measured and how to read it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { findProjectRoot } from '../server/db';
import { parseArgs, variantSuffix, type BenchOptions } from './args';
import { cursorComparison } from './cursor-summary';
import { resolveCursorShapes } from './cursor-shapes';
import { prepareDatabase, STORED_DOCUMENT, type DataVariant, type PreparedDatabase } from './data';
import { governanceMode, governanceTable } from './governance';
import { exportMode } from './export';
import { fetchBody, load, serverStats, soak, type RunResult } from './load';
import { killAll, readMemory, startServer, stopServer, type ServerProcess } from './processes';
import { formatSummary, summariseProfile, type ProfileSummary } from './profile-summary';
import {
  chartSvg,
  markdownTable,
  peerTable,
  replaceMarkedBlock,
  resultsBlock,
  summariseShape,
  type ComparisonResult,
  type Machine,
  type ShapeResult,
} from './report';
import { peerPath, preparePeer } from './peer';
import { replicaMode, replicaTable } from './replica';
import { measureStages } from './stages';
import { DEFAULT_SHAPE_IDS, SHAPES, shapePath, shapePaths, type Shape } from './shapes';

const root = findProjectRoot(__dirname);
/** BENCH_RESULTS_DIR moves the result files elsewhere (the test suite's smoke run keeps them out of the tree). */
const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(root, 'bench', 'results');
const pluginScript = path.join(__dirname, 'plugin-server.js');
const floorScript = path.join(__dirname, 'floor-server.js');
const peerScript = path.join(__dirname, 'peer-server.js');
/** Where --peer installs Koa + Objection + objection-find (ignored by git). */
const peerDir = path.join(root, 'bench', '.peer');
/** Expanded relations per shape (the statement target is 2 + this). */
const EXPANSIONS: Readonly<Record<number, number>> = { 1: 0, 2: 0, 3: 1, 4: 0, 5: 0, 6: 2, 7: 2, 14: 0, 15: 0, 16: 0, 17: 0, 18: 0, 20: 0 };

const log = (line: string): void => console.log(line);

function pluginEnv(options: BenchOptions): Record<string, string> {
  return {
    LOG_LEVEL: options.logLevel,
    ...(options.bare ? { BENCH_BARE: '1' } : {}),
    ...(options.modelJson ? { BENCH_MODEL_JSON: '1' } : {}),
    ...(options.storedDocument ? { BENCH_STORED_DOCUMENT: '1' } : {}),
    ...(options.planCache === undefined ? {} : { PLAN_CACHE: String(options.planCache) }),
    ...(options.totalsCache === undefined ? {} : { TOTALS_CACHE_SECONDS: String(options.totalsCache) }),
  };
}

/** How the plugin server keeps query plans and totals in this run, for the report. */
function cachesLine(options: BenchOptions): string {
  const plans =
    options.planCache === undefined
      ? 'plan cache on (default 8 MiB)'
      : options.planCache === 0
        ? 'plan cache off'
        : `plan cache ${options.planCache} entries`;
  const totals = options.totalsCache === undefined ? 'totals counted on every request (default)' : `totals kept ${options.totalsCache} s`;
  return `${plans}, ${totals}`;
}

function writeJson(name: string, value: unknown): string {
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, name);
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

function commandLine(): string {
  const args = process.argv.slice(2);
  return args.length === 0 ? 'npm run bench' : `npm run bench -- ${args.join(' ')}`;
}

async function describeMachine(databaseUrl: string): Promise<Machine> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const version = (await client.query<{ version: string }>('SELECT version()')).rows[0]?.version ?? '?';
    const settings: Record<string, string> = {};
    for (const name of ['shared_buffers', 'work_mem', 'max_connections', 'jit', 'effective_cache_size']) {
      settings[name] = (await client.query<{ v: string }>(`SELECT current_setting('${name}') AS v`)).rows[0]?.v ?? '?';
    }
    return {
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model.trim() ?? '?',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      postgres: version,
      postgresSettings: settings,
      os: `${os.type()} ${os.release()}`,
    };
  } finally {
    await client.end();
  }
}

/** Where two bodies first differ, with some context from each. */
function diffHint(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 80);
  return (
    `first difference at byte ${i} (lengths ${a.length} vs ${b.length}):\n` +
    `  plugin: …${a.slice(from, i + 80)}…\n  floor:  …${b.slice(from, i + 80)}…`
  );
}

/** Fetches each shape from both servers and fails unless the bodies are byte-identical. */
async function checkBodies(plugin: ServerProcess, floor: ServerProcess, shapes: readonly Shape[]): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  const failures: string[] = [];
  for (const shape of shapes) {
    const failed = failures.length;
    // A walk's pages are requested in the run too: a hundred of them, spread over it, are compared.
    const paths = shapePaths(shape);
    const step = Math.ceil(paths.length / 100);
    for (const path of paths.filter((_, i) => i % step === 0 || i === paths.length - 1)) {
      const [a, b] = await Promise.all([fetchBody(plugin, path), fetchBody(floor, path)]);
      if (a.status !== 200 || b.status !== 200) {
        failures.push(
          `shape ${shape.id}: status plugin ${a.status}, floor ${b.status}\n  plugin: ${a.body.slice(0, 300)}\n  floor: ${b.body.slice(0, 300)}`,
        );
      } else if (a.body !== b.body) {
        failures.push(`shape ${shape.id} (${path}): bodies differ; ${diffHint(a.body, b.body)}`);
      }
      if (!sizes.has(shape.id)) sizes.set(shape.id, a.body.length);
    }
    const pages = shape.walk === undefined ? '' : `, ${shape.walk.length} pages`;
    if (failures.length === failed) log(`  shape ${shape.id}: identical bodies (${sizes.get(shape.id) ?? 0} bytes${pages})`);
  }
  if (failures.length > 0)
    throw new Error(`The plugin and the floor answer differently, so the comparison would not be fair:\n${failures.join('\n')}`);
  return sizes;
}

async function explainStatements(plugin: ServerProcess, shape: Shape): Promise<string[]> {
  const response = await fetchBody(plugin, `/api/_explain/${shape.collection ?? 'users'}?${shape.query}`);
  const body = JSON.parse(response.body) as { statements?: { sql: string }[] };
  return (body.statements ?? []).map((s) => s.sql);
}

function describeRun(shape: Shape, round: number, r: RunResult): string {
  return (
    `  shape ${shape.id} round ${round} ${r.server.padEnd(6)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
    `p50 ${r.latencyMs.p50} ms  p99 ${r.latencyMs.p99} ms  ${r.statementsPerRequest.toFixed(2)} SQL/req  ` +
    `${r.cpuMsPerRequest.toFixed(2)} CPU ms/req  ${(r.databaseCpuMsPerRequest ?? 0).toFixed(2)} DB CPU ms/req  ` +
    `RSS ${(r.peakRss / 1048576).toFixed(0)} MB`
  );
}

/**
 * Waits until no statement is running on the bench database: when autocannon stops, statements the
 * server already sent (a slow count at 1,000,000 users) keep PostgreSQL busy and would slow the
 * other server's run. Cancels what still runs after `maxWaitMs`.
 */
async function waitForIdleDatabase(databaseUrl: string, maxWaitMs = 60_000): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const active = `select pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`;
    const started = Date.now();
    for (;;) {
      const { rows } = await client.query<{ pid: number }>(active);
      if (rows.length === 0) break;
      if (Date.now() - started > maxWaitMs) {
        log(`  ${rows.length} statements still running after ${maxWaitMs / 1000} s: cancelled`);
        for (const { pid } of rows) await client.query('select pg_cancel_backend($1)', [pid]);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const waited = Date.now() - started;
    if (waited >= 1000) log(`  (waited ${(waited / 1000).toFixed(1)} s for statements of the last run to finish)`);
  } finally {
    await client.end();
  }
}

function checkRun(shape: Shape, r: RunResult): void {
  if (r.errors - r.timeouts > 0) {
    throw new Error(`shape ${shape.id}: ${r.server} had ${r.errors} connection errors under load`);
  }
  // Overload answers (503 when the pool wait times out) are part of the result: counted, not fatal.
  if (r.non2xx > 0) log(`  warning: shape ${shape.id}: ${r.server} answered ${r.non2xx} requests with a non-2xx status under load`);
  if (r.timeouts > 0) log(`  warning: shape ${shape.id}: ${r.timeouts} requests to ${r.server} took longer than 120 s`);
  if (r.requests === 0) log(`  warning: shape ${shape.id}: no request to ${r.server} finished within the run; use a longer --duration`);
}

/** The bench data of `options` (its server, regeneration, posts per user and database prefix) at `scale`, in `variant`. */
function benchDatabase(options: BenchOptions, scale = options.scale, variant?: DataVariant): Promise<PreparedDatabase> {
  return prepareDatabase(options.databaseUrl, scale, options.regenerate, log, options.postsPerUser, variant, options.databasePrefix);
}

async function comparison(options: BenchOptions, scale: number): Promise<ComparisonResult> {
  const db: PreparedDatabase = await benchDatabase(options, scale, options.storedDocument ? STORED_DOCUMENT : undefined);
  const machine = await describeMachine(db.url);
  const chosen = SHAPES.filter((s) => options.shapes.includes(s.id));
  const warmup = Math.min(2, options.duration);
  const loadStart = os.loadavg();
  if (loadStart[0] !== undefined && loadStart[0] > os.availableParallelism()) {
    log(
      `warning: load average ${loadStart[0].toFixed(1)} on ${os.availableParallelism()} CPUs: other work is running, figures will be noisy`,
    );
  }
  if (options.peer) preparePeer(peerDir, log);
  const plugin = await startServer({ name: 'plugin', script: pluginScript, databaseUrl: db.url, env: pluginEnv(options) });
  const floor = await startServer({
    name: 'floor',
    script: floorScript,
    databaseUrl: db.url,
    env: options.storedDocument ? { BENCH_STORED_DOCUMENT: '1' } : {},
  });
  const peer = options.peer
    ? await startServer({ name: 'peer', script: peerScript, databaseUrl: db.url, env: { PEER_DIR: peerDir } })
    : undefined;
  try {
    log(
      `servers: plugin pid ${plugin.pid} port ${plugin.port}, floor pid ${floor.pid} port ${floor.port}${peer ? `, peer pid ${peer.pid} port ${peer.port}` : ''}`,
    );
    // The deep cursor shape starts where page 500 does: its cursor is found by following the plugin's.
    const shapes = await resolveCursorShapes(plugin, chosen, log);
    log('checking that both servers answer byte-identical bodies …');
    const sizes = await checkBodies(plugin, floor, shapes);
    if (peer !== undefined) await checkPeer(peer, shapes);
    const results: ShapeResult[] = [];
    for (const shape of shapes) {
      const sql = await explainStatements(plugin, shape);
      log(`shape ${shape.id}: ${shape.query}  (plugin runs ${sql.length} statements)`);
      // The peer answers the shapes it can express, each in objection-find's parameters.
      const peerShape = peer === undefined ? undefined : peerPath(shape);
      const servers = peer !== undefined && peerShape !== undefined ? [plugin, floor, peer] : [plugin, floor];
      const pathOf = (server: ServerProcess): string | string[] => (server === peer ? (peerShape as string) : shapePaths(shape));
      for (const server of servers) {
        await load(server, pathOf(server), warmup, options.connections);
        await waitForIdleDatabase(db.url);
      }
      const runs: RunResult[] = [];
      for (let round = 1; round <= options.rounds; round++) {
        // Each server takes each place in turn: A B C, C B A, ...
        const order = round % 2 === 1 ? servers : [...servers].reverse();
        for (const server of order) {
          const run = await load(server, pathOf(server), options.duration, options.connections, db.url);
          await waitForIdleDatabase(db.url);
          checkRun(shape, run);
          log(describeRun(shape, round, run));
          runs.push(run);
        }
      }
      const peerQuery = peerShape === undefined || peer === undefined ? undefined : peerShape.slice(peerShape.indexOf('?') + 1);
      results.push(summariseShape(shape, EXPANSIONS[shape.base ?? shape.id] ?? 0, sizes.get(shape.id) ?? 0, sql, runs, peerQuery));
    }
    const serverPeakRss = { plugin: readMemory(plugin.pid).hwm, floor: readMemory(floor.pid).hwm };
    return {
      date: new Date().toISOString(),
      command: commandLine(),
      scale,
      database: { name: db.name, reused: db.reused, generatedMs: db.generatedMs, counts: db.counts, sizeBytes: db.sizeBytes },
      settings: {
        duration: options.duration,
        rounds: options.rounds,
        connections: options.connections,
        warmup,
        pluginLogLevel: options.logLevel,
        pluginServer: options.bare ? 'bare Koa + plugin router' : 'demo server createApp (server/app.ts)',
        pluginCaches: cachesLine(options),
        modelJson: options.modelJson,
        loadAverage: { start: loadStart, end: os.loadavg() },
      },
      machine,
      shapes: results,
      serverPeakRss,
    };
  } finally {
    await Promise.all([stopServer(plugin), stopServer(floor), ...(peer === undefined ? [] : [stopServer(peer)])]);
  }
}

/** The peer answers in its own format: each shape it can express must answer 200. */
async function checkPeer(peer: ServerProcess, shapes: readonly Shape[]): Promise<void> {
  for (const shape of shapes) {
    const target = peerPath(shape);
    if (target === undefined) {
      log(`  shape ${shape.id}: the peer cannot express it`);
      continue;
    }
    const answer = await fetchBody(peer, target);
    if (answer.status !== 200)
      throw new Error(`peer: shape ${shape.id} (${target}) answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    log(`  shape ${shape.id}: peer answers ${target} (${answer.body.length} bytes)`);
  }
}

async function comparisonMode(options: BenchOptions): Promise<void> {
  const result = await comparison(options, options.scale);
  const everyShape = DEFAULT_SHAPE_IDS.every((id) => options.shapes.includes(id)) && options.shapes.length === DEFAULT_SHAPE_IDS.length;
  const variant = variantSuffix(options);
  const name = options.bare
    ? `bare${variant}`
    : options.scale === 100_000 && everyShape
      ? `latest${variant}`
      : `latest-${options.scale}${everyShape ? '' : `-shapes${options.shapes.join('')}`}${variant}`;
  const file = writeJson(`${name}.json`, result);
  fs.writeFileSync(path.join(resultsDir, `${name}.md`), `${resultsBlock(result)}\n`);
  log('');
  log(markdownTable(result.shapes));
  log('');
  log(
    `peak RSS (VmHWM): plugin ${(result.serverPeakRss.plugin / 1048576).toFixed(0)} MB, floor ${(result.serverPeakRss.floor / 1048576).toFixed(0)} MB`,
  );
  if (options.peer) {
    const table = peerTable(result.shapes);
    log('');
    log(table);
    fs.writeFileSync(path.join(resultsDir, `${name}-peer.md`), `${table}\n`);
  }
  log(`wrote ${path.relative(root, file)} and bench/results/${name}.md`);
  if (options.writeDocs) {
    const svg = path.join(root, 'docs', 'images', 'bench.svg');
    fs.mkdirSync(path.dirname(svg), { recursive: true });
    fs.writeFileSync(svg, chartSvg(result));
    const updated = replaceMarkedBlock(path.join(root, 'docs', 'benchmarks.md'), resultsBlock(result));
    log(`wrote docs/images/bench.svg${updated ? ' and the results block of docs/benchmarks.md' : ''}`);
  }
}

async function compareScalesMode(options: BenchOptions): Promise<void> {
  const scales = options.compareScales ?? [];
  const results: ComparisonResult[] = [];
  for (const scale of scales) {
    const saved = path.join(resultsDir, `scale-${scale}${variantSuffix(options)}.json`);
    if (options.resume && fs.existsSync(saved)) {
      log(`=== scale ${scale}: reusing ${path.relative(root, saved)} (--resume) ===`);
      results.push(JSON.parse(fs.readFileSync(saved, 'utf8')) as ComparisonResult);
      continue;
    }
    log(`=== scale ${scale} ===`);
    const result = await comparison(options, scale);
    writeJson(`scale-${scale}${variantSuffix(options)}.json`, result);
    results.push(result);
    log(markdownTable(result.shapes));
  }
  const first = results[0];
  const last = results[results.length - 1];
  if (first === undefined || last === undefined) return;
  const shapes = first.shapes.map((s) => {
    const perScale = results.map((r) => {
      const found = r.shapes.find((x) => x.id === s.id);
      return {
        scale: r.scale,
        plugin: found?.plugin.requestsPerSecond ?? 0,
        floor: found?.floor.requestsPerSecond ?? 0,
        ratio: found?.throughputRatio ?? 0,
        pluginP99: found?.plugin.p99 ?? 0,
        floorP99: found?.floor.p99 ?? 0,
      };
    });
    const a = perScale[0];
    const b = perScale[perScale.length - 1];
    return {
      id: s.id,
      label: s.label,
      perScale,
      pluginLoss: a && b ? 1 - b.plugin / a.plugin : 0,
      floorLoss: a && b ? 1 - b.floor / a.floor : 0,
    };
  });
  const summary = {
    date: new Date().toISOString(),
    command: commandLine(),
    scales,
    generation: results.map((r) => ({
      scale: r.scale,
      generatedMs: r.database.generatedMs,
      reused: r.database.reused,
      sizeBytes: r.database.sizeBytes,
      counts: r.database.counts,
    })),
    shapes,
  };
  const variant = variantSuffix(options);
  writeJson(`scales${variant}.json`, summary);
  const head = `| # | shape | ${scales.map((n) => `plugin req/s @${n.toLocaleString('en-US')}`).join(' | ')} | ${scales.map((n) => `floor req/s @${n.toLocaleString('en-US')}`).join(' | ')} | plugin loss | floor loss |`;
  const rule = `|---|---|${scales.map(() => '---:').join('|')}|${scales.map(() => '---:').join('|')}|---:|---:|`;
  const rows = shapes.map(
    (s) =>
      `| ${s.id} | ${s.label} | ${s.perScale.map((p) => p.plugin.toFixed(0)).join(' | ')} | ${s.perScale.map((p) => p.floor.toFixed(0)).join(' | ')} | ` +
      `${(s.pluginLoss * 100).toFixed(0)}% | ${(s.floorLoss * 100).toFixed(0)}% |`,
  );
  const gen = summary.generation.map(
    (g) =>
      `- ${g.scale.toLocaleString('en-US')} users: generated in ${(g.generatedMs / 1000).toFixed(1)} s, database ${(g.sizeBytes / 1048576).toFixed(0)} MB`,
  );
  const md = [head, rule, ...rows, '', ...cursorComparison(shapes), ...gen].join('\n');
  fs.writeFileSync(path.join(resultsDir, `scales${variant}.md`), `${md}\n`);
  log('');
  log(md);
  if (options.writeDocs && replaceMarkedBlock(path.join(root, 'docs', 'benchmarks.md'), md, `scales${variant}`)) {
    log(`wrote the scales${variant} block of docs/benchmarks.md`);
  }
  log('wrote bench/results/scales.json, scales.md and scale-<n>.json');
}

async function profileMode(options: BenchOptions): Promise<void> {
  const db = await benchDatabase(options);
  const dir = path.join(resultsDir, 'profiles');
  fs.mkdirSync(dir, { recursive: true });
  const summaries: (ProfileSummary & { server: string; shape: number; requestsPerSecond: number; cpuMsPerRequest: number })[] = [];
  const seconds = Math.max(10, options.duration * options.rounds);
  for (const shape of SHAPES.filter((s) => options.shapes.includes(s.id))) {
    for (const [name, script] of [
      ['plugin', pluginScript],
      ['floor', floorScript],
    ] as const) {
      const file = `${name}-shape${shape.id}.cpuprofile`;
      fs.rmSync(path.join(dir, file), { force: true });
      const server = await startServer({
        name,
        script,
        databaseUrl: db.url,
        env: pluginEnv(options),
        nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${file}`],
      });
      let run: RunResult;
      let served: number;
      try {
        await load(server, shapePath(shape), Math.min(2, options.duration), options.connections);
        run = await load(server, shapePath(shape), seconds, options.connections);
        checkRun(shape, run);
        log(describeRun(shape, 1, run) + '  (under --cpu-prof)');
        served = (await serverStats(server)).requests;
      } finally {
        await stopServer(server);
      }
      const summary = summariseProfile(path.join(dir, file), 25, served);
      summaries.push({
        ...summary,
        server: name,
        shape: shape.id,
        requestsPerSecond: run.requestsPerSecond,
        cpuMsPerRequest: run.cpuMsPerRequest,
      });
      const text = formatSummary(summary);
      fs.writeFileSync(path.join(resultsDir, `profile-${name}-shape${shape.id}.txt`), `${text}\n`);
      if (name === 'plugin') log(text);
    }
  }
  writeJson('profile.json', {
    date: new Date().toISOString(),
    command: commandLine(),
    scale: options.scale,
    seconds,
    connections: options.connections,
    pluginLogLevel: options.logLevel,
    pluginServer: options.bare ? 'bare' : 'demo',
    summaries: summaries.map((s) => ({ ...s, file: path.relative(root, s.file) })),
  });
  log('wrote bench/results/profile.json and profile-<server>-shape<n>.txt (raw profiles in bench/results/profiles/)');
}

async function soakMode(options: BenchOptions): Promise<void> {
  const db = await benchDatabase(options);
  const shape = SHAPES.find((s) => s.id === (options.shapes[0] ?? 1)) as Shape;
  // --expose-gc: before and after the run the live heap is read after a full collection (/__bench/heap),
  // which tells memory kept from garbage V8 has not collected yet (RSS alone cannot).
  const plugin = await startServer({
    name: 'plugin',
    script: pluginScript,
    databaseUrl: db.url,
    env: pluginEnv(options),
    nodeFlags: ['--expose-gc'],
  });
  const heap = async (): Promise<{ heapUsed: number; rss: number }> =>
    JSON.parse((await fetchBody(plugin, '/__bench/heap')).body) as { heapUsed: number; rss: number };
  try {
    await load(plugin, shapePath(shape), 5, options.connections);
    const heapBefore = await heap();
    const result = await soak(plugin, shapePath(shape), options.soak, options.connections);
    const heapAfter = await heap();
    const settled = result.rssBySecond[Math.min(10, result.rssBySecond.length - 1)] ?? 0;
    const end = result.rssBySecond[result.rssBySecond.length - 1] ?? 0;
    const growth = settled > 0 ? end / settled - 1 : 0;
    writeJson('soak.json', {
      date: new Date().toISOString(),
      command: commandLine(),
      scale: options.scale,
      shape: shape.id,
      seconds: options.soak,
      ...result,
      growthAfter10s: growth,
      heapAfterFullGc: { before: heapBefore, after: heapAfter },
    });
    const mb = (bytes: number): string => (bytes / 1048576).toFixed(1);
    log(
      `soak: shape ${shape.id} for ${options.soak} s at ${result.requestsPerSecond.toFixed(0)} req/s; RSS ${mb(settled)} MB at 10 s -> ` +
        `${mb(end)} MB at the end (${(growth * 100).toFixed(1)}%), peak ${mb(result.hwm)} MB; live heap after a full GC ` +
        `${mb(heapBefore.heapUsed)} MB before -> ${mb(heapAfter.heapUsed)} MB after (RSS then ${mb(heapAfter.rss)} MB)`,
    );
  } finally {
    await stopServer(plugin);
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2), process.env);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  if (options.cpuProf) return profileMode(options);
  if (options.stages) {
    const db = await benchDatabase(options);
    const stages = await measureStages(db.url, options.shapes, log);
    writeJson('stages.json', { date: new Date().toISOString(), command: commandLine(), scale: options.scale, stages });
    log('wrote bench/results/stages.json');
    return;
  }
  if (options.soak > 0) return soakMode(options);
  if (options.governance) {
    const result = await governanceMode(options, pluginScript, log);
    writeJson('governance.json', { date: new Date().toISOString(), command: commandLine(), duration: options.duration, ...result });
    log('');
    log(governanceTable(result));
    log(
      `load average (1, 5, 15 min) at start ${result.loadAverage.start.map((n) => n.toFixed(2)).join(' ')}, at end ${result.loadAverage.end.map((n) => n.toFixed(2)).join(' ')}`,
    );
    log('wrote bench/results/governance.json');
    return;
  }
  if (options.export) {
    const result = await exportMode(options, pluginScript, log);
    writeJson('export.json', { date: new Date().toISOString(), command: commandLine(), ...result });
    log(
      `load average (1, 5, 15 min) at start ${result.loadAverage.start.map((n) => n.toFixed(2)).join(' ')}, at end ${result.loadAverage.end.map((n) => n.toFixed(2)).join(' ')}`,
    );
    log('wrote bench/results/export.json');
    return;
  }
  if (options.replica) {
    const result = await replicaMode(options, pluginScript, log);
    const table = replicaTable(result.shapes);
    writeJson('replica.json', {
      date: new Date().toISOString(),
      command: commandLine(),
      scale: options.scale,
      duration: options.duration,
      rounds: options.rounds,
      connections: options.connections,
      ...result,
    });
    fs.writeFileSync(path.join(resultsDir, 'replica.md'), `${table}\n`);
    log('');
    log(table);
    log(`load average at end: ${result.loadAverage.end.map((n) => n.toFixed(2)).join(' ')}`);
    log('wrote bench/results/replica.json and replica.md');
    return;
  }
  if (options.compareScales !== undefined) return compareScalesMode(options);
  return comparisonMode(options);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    killAll();
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
