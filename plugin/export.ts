// A whole-list CSV export (docs/query-language.md, "Export as CSV"): the matching records counted up to
// `limits.maxExportRows` + 1 (more is LIMIT_EXCEEDED before anything is sent), the first batch read
// before the answer starts (so its failures are ordinary problem answers), and the later batches read
// one at a time as the response stream asks for more (apply/export-batch.ts), each shaped as its JSON
// records would be and written as CSV lines. Only one batch is held at a time.

import type { Knex } from 'knex';
import { batchAfter, readExportBatch, type CompiledQuery, type PlannedQueries, type ScopeHook } from './apply';
import { raise } from './errors';
import { csvColumns, csvHeader, csvRows, shapeRecordsInSlices, Slices, type CsvColumn, type JsonRecord } from './respond';

/** What a batch's text holds, and what it was read at. */
export interface CsvChunk {
  readonly text: string;
  /** The JSON text the batch's records held, in bytes (limits.maxInFlightBytes). */
  readonly bytes: number;
}

export interface CsvExportStream {
  /** The header row and the first batch's lines. */
  readonly first: CsvChunk;
  /** The later batches' lines, read as they are asked for; throws when a batch cannot be read. */
  readonly rest: AsyncGenerator<CsvChunk, void, undefined>;
  /** The statements run before the answer started (the count and the first batch). */
  readonly statements: number;
}

export interface ExportSettings {
  readonly knex: Knex;
  readonly hook: ScopeHook | undefined;
  readonly maxExportRows: number;
  readonly maxResponseBytes: number;
}

/** Records per slice of CSV writing: a slice of 100 lines stays well within the time a slice may run. */
const LINES_PER_SLICE = 100;

/** A batch's records as CSV lines, written in slices that give way to other requests (docs/reliability.md, "Event-loop time"). */
async function linesOf(records: readonly JsonRecord[], columns: readonly CsvColumn[], slices: Slices): Promise<string> {
  let text = '';
  for (let i = 0; i < records.length; i += LINES_PER_SLICE) {
    text += csvRows(records.slice(i, i + LINES_PER_SLICE), columns);
    if (slices.due()) await slices.next();
  }
  return text;
}

const countOf = (rows: readonly Record<string, unknown>[]): number => Number(rows[0]?.count ?? 0);

/**
 * `format=csv` on users -> the header and first batch now, the rest as the stream asks. `planned` is
 * the first batch's, its `estimated.capped` the count capped at `maxExportRows` + 1.
 */
export async function startExport(compiled: CompiledQuery, planned: PlannedQueries, settings: ExportSettings): Promise<CsvExportStream> {
  const { knex, hook, maxExportRows, maxResponseBytes } = settings;
  const capped = planned.estimated?.capped;
  if (capped === undefined) throw new Error('koa-query-modifiers: an export without its count');
  const found = countOf(await capped.rows());
  if (found > maxExportRows) {
    raise(
      'LIMIT_EXCEEDED',
      undefined,
      `More than ${maxExportRows} records match, more than one export may hold; narrow them with filter, in, between or search, or export page by page with per-page and page`,
      maxExportRows,
    );
  }
  const columns = csvColumns(compiled.root);
  const shape = (rows: Parameters<typeof shapeRecordsInSlices>[0], slices: Slices) => shapeRecordsInSlices(rows, compiled.root, [], slices);
  const slices = new Slices();
  const batch = await readExportBatch(compiled, knex, hook, maxResponseBytes, planned);
  const first = { text: csvHeader(columns) + (await linesOf(await shape(batch.rows, slices), columns, slices)), bytes: batch.bytes };
  async function* rest(): AsyncGenerator<CsvChunk, void, undefined> {
    let sent = batch.rows.length;
    let at = batch.next;
    while (at !== undefined) {
      const read = await readExportBatch(batchAfter(compiled, at), knex, hook, maxResponseBytes);
      sent += read.rows.length;
      // Records added since the count: the file would be cut short, which must not look complete.
      if (sent > maxExportRows)
        throw new Error(`koa-query-modifiers: the export grew past limits.maxExportRows (${maxExportRows}) while it was sent`);
      const own = new Slices();
      yield { text: await linesOf(await shape(read.rows, own), columns, own), bytes: read.bytes };
      at = read.next;
    }
  }
  return { first, rest: rest(), statements: 2 };
}
