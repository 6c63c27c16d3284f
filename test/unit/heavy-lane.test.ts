// The heavy-request lane on its own: turns in arrival order, SERVER_BUSY after the wait, a turn
// given back whatever way the request ends, and one turn per request however often it asks.

import { expect } from 'chai';
import { QueryError } from '../../plugin/errors';
import { HeavyLane } from '../../plugin/lane';

/** Settles `promise` into what it came to, without throwing. */
async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return 'entered';
  } catch (error) {
    return error;
  }
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('heavy lane', function () {
  it('lets `concurrency` requests in and queues the rest in arrival order', async function () {
    const lane = new HeavyLane(2, 60000);
    const order: string[] = [];
    const a = lane.ticket();
    const b = lane.ticket();
    const c = lane.ticket();
    const d = lane.ticket();
    for (const [name, ticket] of [
      ['a', a],
      ['b', b],
      ['c', c],
      ['d', d],
    ] as const)
      void ticket.enter().then(() => order.push(name));
    await settle();
    expect(order).to.deep.equal(['a', 'b']);
    expect(lane.load).to.deep.equal({ running: 2, waiting: 2 });
    a.release();
    await settle();
    expect(order).to.deep.equal(['a', 'b', 'c']);
    b.release();
    c.release();
    await settle();
    expect(order).to.deep.equal(['a', 'b', 'c', 'd']);
    d.release();
    expect(lane.load).to.deep.equal({ running: 0, waiting: 0 });
  });

  it('refuses a request that waited queueMs with SERVER_BUSY and Retry-After, and forgets it', async function () {
    const lane = new HeavyLane(1, 20);
    const holder = lane.ticket();
    await holder.enter();
    const waiter = lane.ticket();
    const refused = await outcome(waiter.enter());
    expect(refused).to.be.instanceOf(QueryError);
    const error = refused as QueryError;
    expect(error.status).to.equal(503);
    expect(error.code).to.equal('SERVER_BUSY');
    expect(error.headers).to.deep.equal({ 'Retry-After': '1' });
    waiter.release();
    expect(lane.load).to.deep.equal({ running: 1, waiting: 0 });
    holder.release();
    expect(lane.load).to.deep.equal({ running: 0, waiting: 0 });
  });

  it('gives the turn back when the request fails', async function () {
    const lane = new HeavyLane(1, 60000);
    const failing = async () => {
      const ticket = lane.ticket();
      try {
        await ticket.enter();
        throw new Error('the statement failed');
      } finally {
        ticket.release();
      }
    };
    expect(await outcome(failing())).to.be.instanceOf(Error);
    expect(lane.load).to.deep.equal({ running: 0, waiting: 0 });
    const next = lane.ticket();
    expect(await outcome(next.enter())).to.equal('entered');
    next.release();
  });

  it('drops a waiting request whose client went away, and gives the turn to the next', async function () {
    const lane = new HeavyLane(1, 60000);
    const holder = lane.ticket();
    await holder.enter();
    // What the middleware watches for is the client's connection closing; here a function the test calls.
    let close: (reason: Error) => void = () => undefined;
    let watching = 0;
    const gone = lane.ticket((stop) => {
      watching += 1;
      close = stop;
      return () => (watching -= 1);
    });
    const goneOutcome = outcome(gone.enter());
    const next = lane.ticket();
    const nextOutcome = outcome(next.enter());
    await settle();
    expect(lane.load).to.deep.equal({ running: 1, waiting: 2 });
    expect(watching).to.equal(1);
    close(new Error('client closed'));
    expect(((await goneOutcome) as Error).message).to.equal('client closed');
    expect(watching).to.equal(0);
    gone.release();
    expect(lane.load).to.deep.equal({ running: 1, waiting: 1 });
    holder.release();
    expect(await nextOutcome).to.equal('entered');
    next.release();
    expect(lane.load).to.deep.equal({ running: 0, waiting: 0 });
  });

  it('a ticket released while it waits gives its turn back as soon as it gets it', async function () {
    const lane = new HeavyLane(1, 60000);
    const holder = lane.ticket();
    await holder.enter();
    const early = lane.ticket();
    const entered = early.enter();
    early.release();
    holder.release();
    await entered;
    expect(lane.load).to.deep.equal({ running: 0, waiting: 0 });
  });

  it('one request asks for one turn, however many attempts enter (a replica retried)', async function () {
    const lane = new HeavyLane(2, 60000);
    let watched = false;
    const ticket = lane.ticket(() => {
      watched = true;
      return () => undefined;
    });
    await ticket.enter();
    await ticket.enter();
    // A turn free at once: nothing is watched.
    expect(watched).to.equal(false);
    expect(lane.load).to.deep.equal({ running: 1, waiting: 0 });
    ticket.release();
    ticket.release();
    expect(lane.load).to.deep.equal({ running: 0, waiting: 0 });
    expect(ticket.heavy).to.equal(true);
    expect(lane.ticket().heavy).to.equal(false);
  });
});
