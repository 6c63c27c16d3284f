// The heavy-request lane: at most `concurrency` heavy requests hold database connections at once; the
// others wait their turn in arrival order, for at most `queueMs`, then are refused with 503
// SERVER_BUSY. Cheap requests never enter it (docs/scaling.md, lanes).

import { serverBusy } from '../errors';

interface Waiter {
  readonly admit: () => void;
  readonly refuse: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Watches for the end of a wait from outside (the client closing its connection): calls `stop` with
 * the reason, and returns what stops watching. Asked only when a request has to wait, so a request
 * that gets its turn at once sets up nothing.
 */
export type WaitWatch = (stop: (reason: Error) => void) => () => void;

/** `new HeavyLane(2, 2000)`: two heavy requests at once, the third waits up to 2 s for a turn. */
export class HeavyLane {
  private running = 0;
  private readonly queue = new Set<Waiter>();

  constructor(
    readonly concurrency: number,
    readonly queueMs: number,
  ) {}

  /** Heavy requests holding a turn, and those waiting for one. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.queue.size };
  }

  /** A turn for one request: entered at most once, released at most once (LaneTicket). */
  ticket(watch?: WaitWatch): LaneTicket {
    return new LaneTicket(this, watch);
  }

  /** Resolves when a turn is free; rejects with SERVER_BUSY after `queueMs`, or with the reason `watch` stops it with. */
  acquire(watch?: WaitWatch): Promise<void> {
    if (this.running < this.concurrency) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      let unwatch: () => void = () => undefined;
      const leave = (): void => {
        this.queue.delete(waiter);
        clearTimeout(waiter.timer);
        unwatch();
      };
      const waiter: Waiter = {
        admit: () => {
          leave();
          resolve();
        },
        refuse: (error) => {
          leave();
          reject(error);
        },
        timer: undefined,
      };
      this.queue.add(waiter);
      waiter.timer = setTimeout(() => {
        waiter.refuse(
          serverBusy(
            this.queueMs / 1000,
            `The server is running as many expensive requests as it allows; this one waited ${this.queueMs} ms without a turn`,
          ),
        );
      }, this.queueMs);
      if (watch !== undefined) unwatch = watch((reason) => waiter.refuse(reason));
    });
  }

  /** Gives a turn back: to the request that waited longest, if any. */
  release(): void {
    const next = this.queue.values().next();
    if (next.done === true) {
      this.running = Math.max(0, this.running - 1);
      return;
    }
    // The turn passes on without being counted free in between, so a newcomer cannot take it first.
    next.value.admit();
  }
}

/**
 * One request's hold on the lane, shared by every attempt of that request (a replica that fails and
 * the server tried next): `enter` asks for a turn once, however often it is called; `release` gives it
 * back once, also when the request gave up waiting.
 */
export class LaneTicket {
  private entered: Promise<void> | undefined;
  private held = false;
  private released = false;

  constructor(
    private readonly lane: HeavyLane,
    private readonly watch: WaitWatch | undefined,
  ) {}

  /** Whether this request asked for a turn (it is heavy). */
  get heavy(): boolean {
    return this.entered !== undefined;
  }

  enter(): Promise<void> {
    this.entered ??= this.lane.acquire(this.watch).then(() => {
      if (this.released) this.lane.release();
      else this.held = true;
    });
    return this.entered;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.held) this.lane.release();
  }
}
