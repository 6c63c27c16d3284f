// The body of a whole-list CSV export (docs/query-language.md, "Export as CSV"): a byte stream that
// asks for the next batch only when the client has taken the one before (backpressure through the
// socket), so at most a batch or two is held however long the list; a batch that cannot be read
// destroys the stream, and with it the connection, so the client sees a cut transfer, never a
// complete-looking file.

import { Readable } from 'node:stream';
import type { CsvExportStream } from './export';

export interface ExportStreamHooks {
  /** Holds a batch's bytes among the responses in flight; returns what lets them go. */
  readonly hold: (bytes: number) => () => void;
  /** A later batch was read (one more statement). */
  readonly read: () => void;
  /** A later batch could not be read: the stream is destroyed after this. */
  readonly failed: (error: unknown) => void;
}

/** The export's bytes: the header and first batch at once, each later batch when the reader wants more. */
export function exportStream(exported: CsvExportStream, hooks: ExportStreamHooks): Readable {
  let release = hooks.hold(exported.first.bytes);
  let first: string | undefined = exported.first.text;
  return new Readable({
    read() {
      if (first !== undefined) {
        this.push(first);
        first = undefined;
        return;
      }
      // The batch before has been taken by the reader: its bytes are no longer held here.
      release();
      exported.rest.next().then(
        (next) => {
          if (next.done === true) {
            this.push(null);
            return;
          }
          hooks.read();
          release = hooks.hold(next.value.bytes);
          this.push(next.value.text);
        },
        (error: unknown) => {
          hooks.failed(error);
          this.destroy(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
    destroy(error, callback) {
      release();
      // A client gone mid-export: the batch being read, if any, is the last; nothing more is asked for.
      exported.rest.return(undefined).catch(() => undefined);
      callback(error);
    },
  });
}
