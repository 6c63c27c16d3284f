// Turns measured runs into the per-shape summary, the console/markdown table, the SVG chart
// (docs/images/bench.svg, drawn by hand) and the results block of docs/benchmarks.md.

import fs from 'node:fs';
import type { RunResult } from './load';
import type { Shape } from './shapes';

export interface Aggregate {
  /** Mean of the rounds' req/s. */
  readonly requestsPerSecond: number;
  /** Medians over the rounds, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly statementsPerRequest: number;
  readonly cpuMsPerRequest: number;
  /** PostgreSQL's CPU per request for this server (its backends' user + system time, bench/database-cpu.ts), ms. */
  readonly databaseCpuMsPerRequest: number;
  /** Highest RSS sampled during this shape's runs, bytes. */
  readonly peakRss: number;
  /** Answers with a status other than 2xx (e.g. 503 when the pool wait timed out), summed over the rounds. */
  readonly non2xx: number;
}

export interface ShapeResult {
  readonly id: number;
  readonly label: string;
  readonly query: string;
  readonly expansions: number;
  readonly bodyBytes: number;
  readonly plugin: Aggregate;
  readonly floor: Aggregate;
  /** plugin req/s ÷ floor req/s (target ≥ 0.95). */
  readonly throughputRatio: number;
  /** plugin ÷ floor PostgreSQL CPU per request (target ≤ 1.1). */
  readonly databaseCpuRatio: number;
  /** The lowest and highest of each round's own ratios (plugin's run against the floor's of the same round). */
  readonly spread: { readonly throughput: readonly [number, number]; readonly databaseCpu: readonly [number, number] };
  /** plugin p99 ÷ floor p99 (target ≤ 1.5). */
  readonly p99Ratio: number;
  /** The statements the plugin runs for this request, from its explain route. */
  readonly pluginSql: readonly string[];
  readonly meetsTargets: {
    readonly throughput: boolean;
    readonly p99: boolean;
    readonly statements: boolean;
    readonly databaseCpu: boolean;
  };
  readonly runs: readonly RunResult[];
  /** With --peer, on the shapes objection-find can express: the peer's figures, its query, and plugin req/s ÷ peer req/s. */
  readonly peer?: { readonly query: string; readonly result: Aggregate; readonly pluginRatio: number };
}

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly postgres: string;
  readonly postgresSettings: Readonly<Record<string, string>>;
  readonly os: string;
}

export interface ComparisonResult {
  readonly date: string;
  readonly command: string;
  readonly scale: number;
  readonly database: {
    readonly name: string;
    readonly reused: boolean;
    readonly generatedMs: number;
    readonly counts: Readonly<Record<string, number>>;
    readonly sizeBytes: number;
  };
  readonly settings: {
    readonly duration: number;
    readonly rounds: number;
    readonly connections: number;
    readonly warmup: number;
    readonly pluginLogLevel: string;
    readonly pluginServer: string;
    readonly pluginCaches?: string;
    readonly modelJson?: boolean;
    readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[] };
  };
  readonly machine: Machine;
  readonly shapes: readonly ShapeResult[];
  /** VmHWM of each server at the end of the whole run, bytes. */
  readonly serverPeakRss: { readonly plugin: number; readonly floor: number };
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function aggregate(runs: readonly RunResult[]): Aggregate {
  return {
    requestsPerSecond: mean(runs.map((r) => r.requestsPerSecond)),
    p50: median(runs.map((r) => r.latencyMs.p50)),
    p99: median(runs.map((r) => r.latencyMs.p99)),
    statementsPerRequest: mean(runs.map((r) => r.statementsPerRequest)),
    cpuMsPerRequest: mean(runs.map((r) => r.cpuMsPerRequest)),
    databaseCpuMsPerRequest: mean(runs.map((r) => r.databaseCpuMsPerRequest ?? 0)),
    peakRss: Math.max(...runs.map((r) => r.peakRss)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

/** Plugin ÷ floor throughput and PostgreSQL CPU per request that every shape is held to (docs/benchmarks.md). */
export const THROUGHPUT_TARGET = 0.95;
export const DATABASE_CPU_TARGET = 1.1;

/** The lowest and highest plugin ÷ floor ratio of `value` over the rounds (the runs of round n are the n-th of each server). */
function roundRatios(runs: readonly RunResult[], value: (run: RunResult) => number): readonly [number, number] {
  const plugin = runs.filter((r) => r.server === 'plugin');
  const floor = runs.filter((r) => r.server === 'floor');
  const ratios = plugin.flatMap((run, i) => {
    const other = floor[i];
    return other === undefined || value(other) === 0 ? [] : [value(run) / value(other)];
  });
  return ratios.length === 0 ? [0, 0] : [Math.min(...ratios), Math.max(...ratios)];
}

export function summariseShape(
  shape: Shape,
  expansions: number,
  bodyBytes: number,
  pluginSql: readonly string[],
  runs: readonly RunResult[],
  peerQuery?: string,
): ShapeResult {
  const plugin = aggregate(runs.filter((r) => r.server === 'plugin'));
  const floor = aggregate(runs.filter((r) => r.server === 'floor'));
  const peerRuns = runs.filter((r) => r.server === 'peer');
  const peer = peerQuery === undefined || peerRuns.length === 0 ? undefined : aggregate(peerRuns);
  const throughputRatio = plugin.requestsPerSecond / floor.requestsPerSecond;
  const databaseCpuRatio = plugin.databaseCpuMsPerRequest / floor.databaseCpuMsPerRequest;
  const p99Ratio = plugin.p99 / Math.max(floor.p99, 1);
  return {
    id: shape.id,
    label: shape.label,
    query: shape.query,
    expansions,
    bodyBytes,
    plugin,
    floor,
    throughputRatio,
    databaseCpuRatio,
    spread: {
      throughput: roundRatios(runs, (r) => r.requestsPerSecond),
      databaseCpu: roundRatios(runs, (r) => r.databaseCpuMsPerRequest ?? 0),
    },
    p99Ratio,
    pluginSql,
    meetsTargets: {
      throughput: throughputRatio >= THROUGHPUT_TARGET,
      databaseCpu: databaseCpuRatio <= DATABASE_CPU_TARGET,
      p99: p99Ratio <= 1.5,
      // Facets and stats add their one statement (docs/query-language.md, Facets and stats).
      statements: plugin.statementsPerRequest <= 2 + expansions + (/(^|&)(facet|stats)\[/.test(shape.query) ? 1 : 0) + 1e-9,
    },
    runs,
    ...(peer === undefined || peerQuery === undefined
      ? {}
      : { peer: { query: peerQuery, result: peer, pluginRatio: plugin.requestsPerSecond / peer.requestsPerSecond } }),
  };
}

/** With --peer: plugin / floor and plugin / peer from the same run, for the shapes the peer can express. */
export function peerTable(shapes: readonly ShapeResult[]): string {
  const head =
    '| # | shape | peer query (objection-find) | plugin req/s | floor req/s | peer req/s | plugin / floor | plugin / peer | SQL/req plugin / peer | CPU ms/req plugin / floor / peer | DB CPU ms/req plugin / floor / peer |';
  const rule = '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|';
  const rows = shapes.flatMap((s) => {
    if (s.peer === undefined) return [];
    const p = s.peer.result;
    const rps = (n: number): string => fixed(n, n < 10 ? 1 : 0);
    return [
      `| ${s.id} | ${s.label} | \`${s.peer.query}\` | ${rps(s.plugin.requestsPerSecond)} | ${rps(s.floor.requestsPerSecond)} | ${rps(p.requestsPerSecond)} | ` +
        `${s.throughputRatio.toFixed(2)} | ${s.peer.pluginRatio.toFixed(2)} | ${s.plugin.statementsPerRequest.toFixed(2)} / ${p.statementsPerRequest.toFixed(2)} | ` +
        `${s.plugin.cpuMsPerRequest.toFixed(2)} / ${s.floor.cpuMsPerRequest.toFixed(2)} / ${p.cpuMsPerRequest.toFixed(2)} | ` +
        `${s.plugin.databaseCpuMsPerRequest.toFixed(2)} / ${s.floor.databaseCpuMsPerRequest.toFixed(2)} / ${p.databaseCpuMsPerRequest.toFixed(2)} |`,
    ];
  });
  return [head, rule, ...rows].join('\n');
}

const mb = (bytes: number): string => (bytes / 1048576).toFixed(0);
/** `0.91–1.04`: a spread of ratios. */
const range = ([low, high]: readonly [number, number]): string => `${low.toFixed(2)}–${high.toFixed(2)}`;
const fixed = (n: number, digits = 0): string => n.toFixed(digits);

/** The results table in markdown (also readable on a terminal). */
export function markdownTable(shapes: readonly ShapeResult[]): string {
  const head =
    '| # | shape | plugin req/s | floor req/s | ratio (rounds) | DB CPU ms/req plugin / floor | DB CPU ratio (rounds) | p50 ms plugin / floor | p99 ms plugin / floor | p99 ratio | SQL/req plugin / floor | app CPU ms/req plugin / floor | peak RSS MB plugin / floor | targets |';
  const rule = '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const rows = shapes.map((s) => {
    const t = s.meetsTargets;
    const verdict = [
      t.throughput ? '' : 'throughput',
      t.databaseCpu ? '' : 'DB CPU',
      t.p99 ? '' : 'p99',
      t.statements ? '' : 'statements',
      s.plugin.non2xx > 0 ? `${s.plugin.non2xx} non-2xx (plugin)` : '',
      s.floor.non2xx > 0 ? `${s.floor.non2xx} non-2xx (floor)` : '',
    ].filter((x) => x !== '');
    const rps = (n: number): string => fixed(n, n < 10 ? 1 : 0);
    return (
      `| ${s.id} | ${s.label} | ${rps(s.plugin.requestsPerSecond)} | ${rps(s.floor.requestsPerSecond)} | ` +
      `${s.throughputRatio.toFixed(2)} (${range(s.spread.throughput)}) | ` +
      `${s.plugin.databaseCpuMsPerRequest.toFixed(2)} / ${s.floor.databaseCpuMsPerRequest.toFixed(2)} | ` +
      `${s.databaseCpuRatio.toFixed(2)} (${range(s.spread.databaseCpu)}) | ` +
      `${fixed(s.plugin.p50)} / ${fixed(s.floor.p50)} | ${fixed(s.plugin.p99)} / ${fixed(s.floor.p99)} | ${s.p99Ratio.toFixed(2)} | ` +
      `${s.plugin.statementsPerRequest.toFixed(2)} / ${s.floor.statementsPerRequest.toFixed(2)} | ` +
      `${s.plugin.cpuMsPerRequest.toFixed(2)} / ${s.floor.cpuMsPerRequest.toFixed(2)} | ${mb(s.plugin.peakRss)} / ${mb(s.floor.peakRss)} | ` +
      `${verdict.length === 0 ? 'met' : 'missed: ' + verdict.join(', ')} |`
    );
  });
  return [head, rule, ...rows].join('\n');
}

export function machineLine(m: Machine): string {
  return (
    `${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB RAM, ${m.os}; Node ${m.node}; ${m.postgres.split(' on ')[0]} ` +
    `(shared_buffers ${m.postgresSettings.shared_buffers ?? '?'}, work_mem ${m.postgresSettings.work_mem ?? '?'}) on the same machine`
  );
}

/** The generated block of docs/benchmarks.md (between the bench:results markers). */
export function resultsBlock(result: ComparisonResult): string {
  return [
    `Measured ${result.date.slice(0, 10)} with \`${result.command}\` at ${result.scale.toLocaleString('en-US')} users ` +
      `(${result.database.counts.posts?.toLocaleString('en-US')} posts, ${result.database.counts.phones?.toLocaleString('en-US')} phones, ` +
      `${result.database.counts.user_roles?.toLocaleString('en-US')} user_roles rows; database ${mb(result.database.sizeBytes)} MB). ` +
      `${result.settings.rounds} A/B rounds × ${result.settings.duration} s per server and shape, ${result.settings.connections} connections, ` +
      `after a ${result.settings.warmup} s warm-up per server. Plugin side: ${result.settings.pluginServer}, LOG_LEVEL=${result.settings.pluginLogLevel}` +
      `${result.settings.pluginCaches === undefined ? '' : `, ${result.settings.pluginCaches}`}. ` +
      `Load average at start ${result.settings.loadAverage.start.map((n) => n.toFixed(1)).join(' ')}, at end ${result.settings.loadAverage.end.map((n) => n.toFixed(1)).join(' ')}.`,
    '',
    `Machine: ${machineLine(result.machine)}.`,
    '',
    markdownTable(result.shapes),
    '',
    `Peak RSS over the whole run (VmHWM): plugin ${mb(result.serverPeakRss.plugin)} MB, floor ${mb(result.serverPeakRss.floor)} MB.`,
  ].join('\n');
}

/** Rewrites the text between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` in `file`. */
export function replaceMarkedBlock(file: string, block: string, name = 'results'): boolean {
  if (!fs.existsSync(file)) return false;
  const text = fs.readFileSync(file, 'utf8');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a === -1 || b === -1 || b < a) return false;
  fs.writeFileSync(file, `${text.slice(0, a + start.length)}\n${block}\n${text.slice(b)}`);
  return true;
}

// --- the chart ---

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Panel {
  readonly title: string;
  readonly unit: string;
  readonly values: readonly { readonly plugin: number; readonly floor: number; readonly note: string; readonly ok: boolean }[];
  /** Draw a tick at floor × this on the plugin bar (the target). */
  readonly target: number;
}

/** One panel; every shape has its own scale (the floor of shape 5 is ~100× that of shape 2), labelled with the values. */
function panel(p: Panel, shapes: readonly ShapeResult[], x0: number, y0: number, width: number, height: number): string {
  const out: string[] = [];
  const top = y0 + 58;
  const bottom = y0 + height - 44;
  const left = x0 + 16;
  out.push(`<text x="${x0 + 8}" y="${y0 + 20}" class="title">${escapeXml(p.title)}</text>`);
  const groupWidth = (x0 + width - 16 - left) / shapes.length;
  const bar = Math.min(40, groupWidth * 0.3);
  shapes.forEach((s, i) => {
    const v = p.values[i] as Panel['values'][number];
    const max = Math.max(v.plugin, v.floor, v.floor * p.target) * 1.05 || 1;
    const y = (value: number): number => bottom - (value / max) * (bottom - top);
    const cx = left + groupWidth * (i + 0.5);
    const xp = cx - bar - 3;
    const xf = cx + 3;
    if (i > 0) out.push(`<line x1="${left + groupWidth * i}" x2="${left + groupWidth * i}" y1="${top - 10}" y2="${bottom}" class="grid"/>`);
    out.push(
      `<rect x="${xp}" y="${y(v.plugin)}" width="${bar}" height="${bottom - y(v.plugin)}" class="plugin"><title>plugin ${fixed(v.plugin, 1)} ${p.unit}</title></rect>`,
    );
    out.push(
      `<rect x="${xf}" y="${y(v.floor)}" width="${bar}" height="${bottom - y(v.floor)}" class="floor"><title>floor ${fixed(v.floor, 1)} ${p.unit}</title></rect>`,
    );
    out.push(
      `<text x="${xp + bar / 2}" y="${y(v.plugin) - 4}" class="value" text-anchor="middle">${fixed(v.plugin, v.plugin < 10 ? 2 : 0)}</text>`,
    );
    out.push(
      `<text x="${xf + bar / 2}" y="${y(v.floor) - 4}" class="value" text-anchor="middle">${fixed(v.floor, v.floor < 10 ? 2 : 0)}</text>`,
    );
    const ty = y(v.floor * p.target);
    out.push(`<line x1="${xp - 4}" x2="${xp + bar + 4}" y1="${ty}" y2="${ty}" class="target"/>`);
    out.push(`<text x="${cx}" y="${top - 16}" class="${v.ok ? 'ok' : 'miss'}" text-anchor="middle">${escapeXml(v.note)}</text>`);
    out.push(`<text x="${cx}" y="${bottom + 16}" class="axis" text-anchor="middle">shape ${s.id}</text>`);
    out.push(
      `<text x="${cx}" y="${bottom + 30}" class="small" text-anchor="middle">${escapeXml(s.label.length > 30 ? s.label.slice(0, 29) + '…' : s.label)}</text>`,
    );
  });
  out.push(`<line x1="${left}" x2="${x0 + width - 16}" y1="${bottom}" y2="${bottom}" class="baseline"/>`);
  return out.join('\n');
}

function shortMachine(result: ComparisonResult): string {
  const m = result.machine;
  return (
    `${m.cpus} CPUs, ${m.memoryGiB} GiB, Node ${m.node}, ${m.postgres.split(' ').slice(0, 2).join(' ')}; ` +
    `${result.settings.rounds} A/B rounds × ${result.settings.duration} s; ${result.date.slice(0, 10)}`
  );
}

export function chartSvg(result: ComparisonResult): string {
  const width = 1000;
  const panelHeight = 300;
  const shapes = result.shapes;
  const throughput: Panel = {
    title: `Requests per second (higher is better). Red tick: target ${THROUGHPUT_TARGET} × floor. Label: plugin ÷ floor`,
    unit: 'req/s',
    target: THROUGHPUT_TARGET,
    values: shapes.map((s) => ({
      plugin: s.plugin.requestsPerSecond,
      floor: s.floor.requestsPerSecond,
      note: `${s.throughputRatio.toFixed(2)}× floor`,
      ok: s.meetsTargets.throughput,
    })),
  };
  const latency: Panel = {
    title: 'p99 latency, ms (lower is better). Red tick: target 1.5 × floor. Label: plugin ÷ floor',
    unit: 'ms',
    target: 1.5,
    values: shapes.map((s) => ({
      plugin: s.plugin.p99,
      floor: s.floor.p99,
      note: `${s.p99Ratio.toFixed(2)}× floor`,
      ok: s.meetsTargets.p99,
    })),
  };
  const database: Panel = {
    title: `PostgreSQL CPU ms per request (lower is better). Red tick: target ${DATABASE_CPU_TARGET} × floor. Label: plugin ÷ floor`,
    unit: 'ms',
    target: DATABASE_CPU_TARGET,
    values: shapes.map((s) => ({
      plugin: s.plugin.databaseCpuMsPerRequest,
      floor: s.floor.databaseCpuMsPerRequest,
      note: `${s.databaseCpuRatio.toFixed(2)}× floor`,
      ok: s.meetsTargets.databaseCpu,
    })),
  };
  const height = 60 + panelHeight * 3 + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif">
<style>
  .title { font-size: 14px; font-weight: 600; fill: #222; }
  .head { font-size: 16px; font-weight: 700; fill: #111; }
  .axis { font-size: 11px; fill: #444; }
  .small { font-size: 10px; fill: #666; }
  .grid { stroke: #e4e4e4; stroke-width: 1; }
  .baseline { stroke: #888; stroke-width: 1; }
  .plugin { fill: #3b6fd8; }
  .floor { fill: #9aa3ad; }
  .target { stroke: #d2452d; stroke-width: 2; }
  .value { font-size: 10px; fill: #333; }
  .ok { font-size: 11px; font-weight: 600; fill: #1d7a35; }
  .miss { font-size: 11px; font-weight: 600; fill: #c0392b; }
</style>
<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>
<text x="16" y="26" class="head">koa-query-modifiers vs hand-written floor — ${result.scale.toLocaleString('en-US')} users, ${result.settings.connections} connections</text>
<rect x="${width - 250}" y="14" width="12" height="12" class="plugin"/><text x="${width - 233}" y="25" class="axis">plugin</text>
<rect x="${width - 175}" y="14" width="12" height="12" class="floor"/><text x="${width - 158}" y="25" class="axis">floor (Koa + pg)</text>
<text x="16" y="46" class="small">${escapeXml(shortMachine(result))}. Each shape has its own scale.</text>
${panel(throughput, shapes, 0, 56, width, panelHeight)}
${panel(database, shapes, 0, 56 + panelHeight, width, panelHeight)}
${panel(latency, shapes, 0, 56 + panelHeight * 2, width, panelHeight)}
</svg>
`;
}
