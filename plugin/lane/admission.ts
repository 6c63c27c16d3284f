// The lane of one mount: how many heavy requests may hold connections at once, from the host's
// pool when it does not say, and each request's ticket, let go when its client goes away.

import type { Context } from 'koa';
import type { Knex } from 'knex';
import { serverBusy } from '../errors';
import type { ResolvedOptions } from '../options';
import { HeavyLane, type LaneTicket } from './heavy-lane';

/** The pool's size as knex's client holds it (tarn's `max`); 10, knex's default, when it says nothing. */
function poolSize(knex: Knex): number {
  const pool = (knex.client as { pool?: { max?: unknown } }).pool;
  return typeof pool?.max === 'number' && pool.max > 0 ? pool.max : 10;
}

/**
 * `limits.heavyConcurrency`, or half the pool, at least 1: a pool of 10 lets 5 heavy requests run;
 * PGlite's single connection lets 1, which cheap requests then queue behind in the pool itself.
 */
export function createLane(options: ResolvedOptions): HeavyLane {
  const concurrency = options.heavyConcurrency ?? Math.max(1, Math.floor(poolSize(options.knex) / 2));
  return new HeavyLane(concurrency, options.heavyQueueMs);
}

/** A ticket whose wait, if it has to wait, ends when the client closes the connection first. */
export function ticketFor(ctx: Context, lane: HeavyLane): LaneTicket {
  return lane.ticket((stop) => {
    const closed = (): void => {
      if (!ctx.res.writableEnded) stop(serverBusy(1, 'The client closed the connection before the request had a turn'));
    };
    ctx.res.once('close', closed);
    return () => ctx.res.off('close', closed);
  });
}
