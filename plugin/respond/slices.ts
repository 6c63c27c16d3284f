// Lets one long response give way to the others: shaping and serialising run in slices of a few
// milliseconds, and between two slices the event loop runs timers, I/O and other requests
// (docs/reliability.md, What is bounded). A response whose work fits in one slice never waits.

/** How long one slice may run before it gives way; two slices and a record stay within 10 ms. */
export const SLICE_MS = 4;

/** Gives the event loop one turn: timers, I/O and other requests' callbacks run before this resolves. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The clock of one response's slices. */
export class Slices {
  private started = performance.now();

  /** How many times this response gave way so far. */
  yielded = 0;

  /** Whether the current slice has run its time (the caller then awaits `next()`). */
  due(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /** Ends the current slice: lets other work run, then starts the next slice. */
  async next(): Promise<void> {
    await turn();
    this.yielded += 1;
    this.started = performance.now();
  }
}
