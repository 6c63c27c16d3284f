// The response bytes of all requests in flight on one mount (docs/configuration.md,
// limits.maxInFlightBytes): each answer holds its bytes from when its records are read until its
// response is closed (sent, or the connection gone), and a request arriving while they pass the
// limit is refused with 503 SERVER_BUSY before it reads anything.

import type { ServerResponse } from 'node:http';
import { serverBusy } from './errors/server-busy';

/** Seconds a refused client is told to wait: responses in flight finish within moments. */
const RETRY_AFTER_SECONDS = 1;

export class InFlightBytes {
  private held = 0;

  constructor(readonly limit: number) {}

  /** Throws 503 SERVER_BUSY when the responses in flight hold more than the limit. */
  admit(): void {
    if (this.held <= this.limit) return;
    throw serverBusy(RETRY_AFTER_SECONDS, `The responses being sent hold more than ${this.limit} bytes together; try again in a moment`);
  }

  /** Holds `bytes` until `response` closes. */
  hold(response: ServerResponse, bytes: number): void {
    const release = this.take(bytes);
    if (response.closed) release();
    else response.once('close', release);
  }

  /** Holds `bytes` until the returned function is called (once or more): one batch of a streamed export. */
  take(bytes: number): () => void {
    if (bytes <= 0) return () => undefined;
    this.held += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
    };
  }
}
