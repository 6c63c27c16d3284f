// Writes a response body as JSON text in slices: the records of its one large array one after
// another, giving way to other requests between slices (./slices.ts). The text is exactly what
// `JSON.stringify` of the whole body writes.

import type { Slices } from './slices';

/** A body: a bare array of records, or an envelope whose `data` holds them. */
type Body = readonly unknown[] | { readonly data: readonly unknown[] };

/** `[r1,r2,...]`, one record at a time, in chunks of whole records, each slice's records one chunk. */
async function writeArray(items: readonly unknown[], slices: Slices, chunks: string[]): Promise<void> {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    // JSON.stringify writes `null` for an array item it cannot write (undefined, a function).
    text += `${i === 0 ? '' : ','}${(JSON.stringify(items[i]) as string | undefined) ?? 'null'}`;
    if (slices.due()) {
      chunks.push(text);
      text = '';
      await slices.next();
    }
  }
  chunks.push(`${text}]`);
}

/**
 * Rows of at most this many bytes of JSON text (as the database measured them) are written with one
 * `JSON.stringify`: that takes a fraction of a slice, and writing record by record costs more.
 */
export const ONE_PIECE_BYTES = 64 * 1024;

/**
 * The JSON text of `body` as chunks to be joined, e.g. `{"current_page":1,"data":[{"id":1}],...}`
 * -> `['{"current_page":1,"data":', '[{"id":1}]', ',"first_page_url":...}']`. `bytes`: the JSON text
 * of the rows the records were made from, as measured while reading them (apply/budget.ts).
 */
export async function serializeInSlices(body: Body, slices: Slices, bytes = Number.POSITIVE_INFINITY): Promise<string[]> {
  if (bytes <= ONE_PIECE_BYTES) return [JSON.stringify(body)];
  const chunks: string[] = [];
  if (Array.isArray(body)) {
    await writeArray(body, slices, chunks);
    return chunks;
  }
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    const json = key === 'data' ? '' : (JSON.stringify(value) as string | undefined);
    // JSON.stringify leaves out a key whose value it cannot write.
    if (json === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
    first = false;
    if (key === 'data') {
      chunks.push(text);
      text = '';
      await writeArray(value as readonly unknown[], slices, chunks);
    }
  }
  chunks.push(`${text}}`);
  return chunks;
}
