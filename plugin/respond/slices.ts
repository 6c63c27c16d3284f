// Lets one long response give way to the others: shaping and serialising run in slices of a few
// milliseconds, and between two slices the event loop runs timers, I/O and other requests
// (docs/reliability.md, Event-loop time). A response whose work fits in one slice never waits.

/** How long one slice may run before it gives way: two slices and a record stay well within 10 ms. */
export const SLICE_MS = 2;

/** The responses waiting for their next slice, first come first served. */
const waiting: (() => void)[] = [];
let scheduled = false;

/**
 * Starts the slice of the response that has waited longest, at most one per turn of the event loop,
 * so that however many long responses there are, the loop's other work waits behind one slice.
 */
function startNext(): void {
  scheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(startNext);
}

/** Resolves once this response's turn has come: after at least one turn of the event loop. */
const turn = (): Promise<void> =>
  new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });

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
