// `npm run bench -- --export`: one whole-list CSV export of every user of the data set
// (docs/query-language.md, "Export as CSV"), read by a client as fast as it can. Measured: the plugin
// server's resident memory before the export and at its peak during it (sampled every 20 ms), the
// export's time, bytes and lines, and a floor: the same rows read with one pg query and written as
// CSV lines in this process, which holds every row at once (what a hand-written export does).

import os from 'node:os';
import { Client } from 'pg';
import type { BenchOptions } from './args';
import { prepareDatabase } from './data';
import { readMemory, sampleMemory, startServer, stopServer, type ServerProcess } from './processes';

export interface ExportResult {
  readonly scale: number;
  readonly lines: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly floorSeconds: number;
  readonly floorRssGrowth: number;
  readonly loadAverage: { readonly start: number[]; readonly end: number[] };
}

/** Reads `path` to its end without keeping it: its bytes and lines. */
async function readExport(server: ServerProcess, path: string): Promise<{ bytes: number; lines: number; status: number }> {
  const response = await fetch(`${server.origin}${path}`);
  if (response.body === null) throw new Error('the export has no body');
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { bytes, lines, status: response.status };
}

const cell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The floor: every user read with one query and written as CSV lines; seconds and this process's RSS growth. */
async function floorExport(url: string): Promise<{ seconds: number; rssGrowth: number; lines: number }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const { rows, fields } = await client.query<Record<string, unknown>>('select * from users order by id');
    let lines = 1;
    let text = `${fields.map((f) => f.name).join(',')}\r\n`;
    const chunks: string[] = [];
    for (const row of rows) {
      text += `${fields.map((f) => cell(row[f.name])).join(',')}\r\n`;
      lines += 1;
      if (text.length > 65536) {
        chunks.push(text);
        text = '';
      }
    }
    chunks.push(text);
    const rssGrowth = process.memoryUsage().rss - before;
    return { seconds: (performance.now() - started) / 1000, rssGrowth, lines: chunks.length > 0 ? lines : 0 };
  } finally {
    await client.end();
  }
}

export async function exportMode(options: BenchOptions, pluginScript: string, log: (line: string) => void): Promise<ExportResult> {
  const db = await prepareDatabase(options.databaseUrl, options.scale, options.regenerate, log, options.postsPerUser);
  const start = os.loadavg();
  const plugin = await startServer({ name: 'plugin', script: pluginScript, databaseUrl: db.url, env: { LOG_LEVEL: options.logLevel } });
  try {
    // Warm: the models, the plan cache and the pool, with a small export.
    await readExport(plugin, '/api/users?format=csv&limit=100');
    const baselineRss = readMemory(plugin.pid).rss;
    const stop = sampleMemory(plugin.pid, 20);
    const started = performance.now();
    const read = await readExport(plugin, '/api/users?format=csv');
    const seconds = (performance.now() - started) / 1000;
    const { peakRss } = stop();
    if (read.status !== 200) throw new Error(`the export answered ${read.status}`);
    const floor = await floorExport(db.url);
    const result: ExportResult = {
      scale: options.scale,
      lines: read.lines,
      bytes: read.bytes,
      seconds,
      baselineRss,
      peakRss,
      floorSeconds: floor.seconds,
      floorRssGrowth: floor.rssGrowth,
      loadAverage: { start, end: os.loadavg() },
    };
    const mb = (n: number): string => (n / 1048576).toFixed(1);
    log(
      `export: ${read.lines - 1} records, ${mb(read.bytes)} MB in ${seconds.toFixed(2)} s (${((read.lines - 1) / seconds).toFixed(0)} records/s); ` +
        `plugin RSS ${mb(baselineRss)} MB before -> peak ${mb(peakRss)} MB during (+${mb(peakRss - baselineRss)} MB); ` +
        `floor (one pg query, rows held, CSV written in process): ${floor.seconds.toFixed(2)} s, RSS +${mb(floor.rssGrowth)} MB; ` +
        `plugin/floor time ${(seconds / floor.seconds).toFixed(2)}x`,
    );
    return result;
  } finally {
    await stopServer(plugin);
  }
}
