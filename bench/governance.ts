// `npm run bench -- --governance`: what one client's requests may cost the others, in one run on one
// plugin server (docs/benchmarks.md, Governance): the server's peak RSS while it answers N oversized
// requests at once, and a cheap request's latency alone, beside heavy-lane requests and beside the
// largest expansions the caps allow, each against its target.

import os from 'node:os';
import { optionsSchema } from '../plugin/options-schema';
import type { BenchOptions } from './args';
import { DEFAULT_POSTS_PER_USER, prepareDatabase, type DataVariant } from './data';
import { fetchBody, load, type RunResult } from './load';
import { readMemory, sampleMemory, startServer, stopServer, type ServerProcess } from './processes';

/** A cheap page: one indexed filter, 20 records. */
export const CHEAP = '/api/users?filter[status]=active&sort[created_at]=desc&per-page=20';
/** Heavy by its sort (a relation field and a count), as the heavy lane decides. */
export const LANE = '/api/posts?fields=id&sort[author.name]&count[comments]&sort[comments_count]=desc&per-page=10';
/** The largest expansion the default caps allow: 1,000 parents, five relations, three deep. */
export const EXPANSION =
  '/api/users?limit=1000&expand[posts]=p&p_fields=id,title,status,created_at&p_limit=3' +
  '&p_expand[comments]=c&c_limit=1&c_expand[author]=ca&expand[phone]=ph&expand[roles]=r';
/** Far past any byte budget: every post of 1,000 users with its long title. */
export const OVERSIZED = '/api/users?limit=1000&fields=id&expand[posts]=p&p_fields=id,long_title';

/** The governance data: the regular data set plus `posts.long_title` (`titleKb` KB) on the posts of the first 1,000 users. */
function longTitles(titleKb: number): DataVariant {
  return {
    suffix: `gov${titleKb}k`,
    statements: [
      'ALTER TABLE posts ADD COLUMN long_title text',
      `UPDATE posts SET long_title = left(repeat(title || ' ', ${titleKb * 1024}), ${titleKb * 1024}) WHERE user_id <= 1000`,
    ],
  };
}

/** A limit's default as the plugin's options declare it; undefined where this build has no such limit. */
export function limitDefault(name: string): number | undefined {
  const limits = optionsSchema.properties.limits.properties as Readonly<Record<string, { readonly default?: unknown }>>;
  const value = limits[name]?.default;
  return typeof value === 'number' ? value : undefined;
}

export interface CheapRun {
  readonly load: string;
  readonly cheap: RunResult;
  readonly background?: RunResult;
}

export interface GovernanceResult {
  readonly scale: number;
  readonly titleKb: number;
  readonly budgetBytes: number | undefined;
  readonly inFlightBytes: number | undefined;
  readonly baselineRss: number;
  readonly oversized: { readonly concurrent: number; readonly statuses: number[]; readonly peakRss: number };
  readonly expansionBytes: number;
  readonly runs: CheapRun[];
  readonly targets: { readonly name: string; readonly target: string; readonly measured: string; readonly holds: boolean }[];
  readonly loadAverage: { readonly start: number[]; readonly end: number[] };
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const ok = (r: RunResult): boolean => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;

/** N oversized requests at once, the server's RSS sampled every 20 ms meanwhile. */
async function oversizedPeak(plugin: ServerProcess, concurrent: number): Promise<{ statuses: number[]; peakRss: number }> {
  const stop = sampleMemory(plugin.pid, 20);
  const answers = await Promise.all(Array.from({ length: concurrent }, () => fetchBody(plugin, OVERSIZED)));
  return { statuses: answers.map((a) => a.status), peakRss: stop().peakRss };
}

/** The cheap request on one connection for the run's duration, beside `background` on eight (if any). */
async function cheapBeside(plugin: ServerProcess, options: BenchOptions, background?: string): Promise<Omit<CheapRun, 'load'>> {
  const [cheap, beside] = await Promise.all([
    load(plugin, CHEAP, options.duration, 1),
    background === undefined ? undefined : load(plugin, background, options.duration, 8),
  ]);
  return beside === undefined ? { cheap } : { cheap, background: beside };
}

function targets(result: Omit<GovernanceResult, 'targets'>): GovernanceResult['targets'] {
  const idle = result.runs[0]?.cheap.latencyMs.p99 ?? 0;
  const allowed = Math.max(3 * idle, idle + 50);
  const { budgetBytes, baselineRss, oversized } = result;
  return [
    {
      name: `peak RSS, ${oversized.concurrent} oversized requests`,
      target:
        budgetBytes === undefined ? 'baseline + 3 x budget (no byte budget in this build)' : `<= ${mb(baselineRss + 3 * budgetBytes)}`,
      measured: `${mb(oversized.peakRss)} (baseline ${mb(baselineRss)})`,
      holds: budgetBytes !== undefined && oversized.peakRss <= baselineRss + 3 * budgetBytes,
    },
    ...result.runs.slice(1).map((run) => ({
      name: `cheap p99 ${run.load}`,
      target: `<= ${allowed.toFixed(0)} ms`,
      measured: `${run.cheap.latencyMs.p99.toFixed(0)} ms`,
      holds: run.cheap.latencyMs.p99 <= allowed,
    })),
    {
      name: 'cheap requests answered 200',
      target: '100 %',
      measured: result.runs.map((run) => `${run.cheap.requests - run.cheap.non2xx} of ${run.cheap.requests}`).join(', '),
      holds: result.runs.every((run) => ok(run.cheap)),
    },
  ];
}

/** Runs the governance measurements on a data set of `options.scale` users. */
export async function governanceMode(options: BenchOptions, pluginScript: string, log: (line: string) => void): Promise<GovernanceResult> {
  const start = os.loadavg();
  const db = await prepareDatabase(
    options.databaseUrl,
    options.scale,
    options.regenerate,
    log,
    DEFAULT_POSTS_PER_USER,
    longTitles(options.titleKb),
  );
  const plugin = await startServer({ name: 'plugin', script: pluginScript, databaseUrl: db.url, env: { LOG_LEVEL: options.logLevel } });
  try {
    for (const path of [CHEAP, LANE, EXPANSION]) {
      const { status, body } = await fetchBody(plugin, path);
      if (status !== 200) throw new Error(`${path} answered ${status}: ${body.slice(0, 300)}`);
    }
    const expansionBytes = Buffer.byteLength((await fetchBody(plugin, EXPANSION)).body);
    await load(plugin, CHEAP, 2, 1);
    const baselineRss = readMemory(plugin.pid).rss;
    const oversized = { concurrent: options.oversized, ...(await oversizedPeak(plugin, options.oversized)) };
    log(
      `oversized x${oversized.concurrent}: statuses ${oversized.statuses.join(',')}, peak RSS ${mb(oversized.peakRss)} (baseline ${mb(baselineRss)})`,
    );
    const runs: CheapRun[] = [];
    for (const [name, background] of [
      ['alone', undefined],
      ['beside heavy-lane requests', LANE],
      ['beside the largest expansions', EXPANSION],
    ] as const) {
      const run = { load: name, ...(await cheapBeside(plugin, options, background)) };
      runs.push(run);
      const { p50, p99 } = run.cheap.latencyMs;
      const beside =
        run.background === undefined ? '' : `; background ${run.background.requests} requests, ${run.background.non2xx} not 2xx`;
      log(`cheap ${name}: p50 ${p50} ms, p99 ${p99} ms, ${run.cheap.requests} requests, ${run.cheap.non2xx} not 2xx${beside}`);
    }
    const partial = {
      scale: options.scale,
      titleKb: options.titleKb,
      budgetBytes: limitDefault('maxResponseBytes'),
      inFlightBytes: limitDefault('maxInFlightBytes'),
      baselineRss,
      oversized,
      expansionBytes,
      runs,
      loadAverage: { start, end: os.loadavg() },
    };
    return { ...partial, targets: targets(partial) };
  } finally {
    await stopServer(plugin);
  }
}

/** The targets as a Markdown table. */
export function governanceTable(result: GovernanceResult): string {
  const rows = result.targets.map((t) => `| ${t.name} | ${t.target} | ${t.measured} | ${t.holds ? 'holds' : 'fails'} |`);
  return ['| Measure | Target | Measured | |', '|---|---|---|---|', ...rows].join('\n');
}
