// WAL positions and the lag of a replica measured against the primary's positions over time.

import { inspect } from 'node:util';
import { expect } from 'chai';
import { knex as createKnex } from 'knex';
import { resolveOptions } from '../../plugin/options';
import { PrimaryTimeline } from '../../plugin/replicas/health';
import { replicaLog } from '../../plugin/replicas/replica-set';
import { formatLsn, parseLsn } from '../../plugin/replicas/lsn';
import { createReplicaKnexes } from '../../server/db';
import { User } from '../support/fixture';

describe('replicas: WAL positions', function () {
  it("reads PostgreSQL's pg_lsn text and writes it back", function () {
    expect(parseLsn('16/B374D848')).to.equal(0x16b374d848n);
    expect(parseLsn('0/0')).to.equal(0n);
    expect(formatLsn(0x16b374d848n)).to.equal('16/B374D848');
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).to.equal(true);
  });

  it('reads anything else (a tampered cookie) as no position, without throwing', function () {
    for (const text of ['', 'x', '16B374D848', '1/2/3', '123456789/0', ' /1', '-1/0', '1/-0', null, 42, {}]) {
      expect(parseLsn(text), inspect(text)).to.equal(undefined);
    }
  });
});

describe("replicas: lag against the primary's timeline", function () {
  it('is 0 for a replica that has everything the primary had at its last check', function () {
    const timeline = new PrimaryTimeline(10_000);
    timeline.record(100n, 0);
    timeline.record(200n, 1000);
    expect(timeline.lagMs(200n, 5000)).to.equal(0);
    expect(timeline.lagMs(250n, 5000)).to.equal(0);
  });

  it('is the age of the oldest position the replica has not replayed', function () {
    const timeline = new PrimaryTimeline(10_000);
    timeline.record(100n, 0);
    timeline.record(200n, 1000);
    timeline.record(300n, 2000);
    expect(timeline.lagMs(150n, 2500)).to.equal(1500);
    expect(timeline.lagMs(99n, 2500)).to.equal(2500);
  });

  it('does not grow while the primary is idle (unlike the time since the last replayed transaction)', function () {
    const timeline = new PrimaryTimeline(1000);
    timeline.record(100n, 0);
    for (let t = 100; t <= 60_000; t += 100) timeline.record(100n, t);
    expect(timeline.lagMs(100n, 60_000)).to.equal(0);
    // The position the primary has stayed at is kept however old: a replica behind it is that far behind.
    expect(timeline.lagMs(50n, 60_000)).to.equal(60_000);
  });

  it('keeps only what it needs: positions older than its window read as at least that old', function () {
    const timeline = new PrimaryTimeline(1000);
    for (let t = 0; t <= 10_000; t += 100) timeline.record(BigInt(t + 1), t);
    expect(timeline.lagMs(0n, 10_000)).to.be.at.least(1000);
    expect(timeline.lagMs(10_001n, 10_000)).to.equal(0);
  });

  it('knows nothing before the primary was first read', function () {
    expect(new PrimaryTimeline(1000).lagMs(1n, 0)).to.equal(undefined);
  });
});

describe('demo server: DATABASE_REPLICA_URLS', function () {
  it('makes one Knex per URL, and none when unset', async function () {
    expect(createReplicaKnexes({})).to.deep.equal([]);
    const made = createReplicaKnexes({
      DATABASE_URL: 'postgres://p/demo',
      DATABASE_REPLICA_URLS: 'postgres://r1/demo, postgres://r2/demo,',
    });
    expect(made).to.have.length(2);
    await Promise.all(made.map((k) => k.destroy()));
  });

  it('refuses replicas without a PostgreSQL primary', function () {
    expect(() => createReplicaKnexes({ DATABASE_REPLICA_URLS: 'postgres://r1/demo' })).to.throw(/needs DATABASE_URL/);
  });
});

describe('replicas: options', function () {
  // Knex instances that never connect: resolving options only checks their shape.
  const knex = createKnex({ client: 'pg' });
  const other = createKnex({ client: 'pg' });
  const collections = { users: User };
  after(async function () {
    await Promise.all([knex.destroy(), other.destroy()]);
  });

  it('names replicas given as a list replica-1, replica-2, with the defaults', function () {
    const resolved = resolveOptions({ knex, collections, replicas: [other, other] });
    expect(resolved.replicas?.servers.map((s) => s.name)).to.deep.equal(['replica-1', 'replica-2']);
    expect(resolved.replicas).to.include({
      maxLagMs: 2000,
      checkIntervalMs: 1000,
      checkTimeoutMs: 2000,
      queryTimeoutMs: 5000,
      revealServer: false,
    });
  });

  it('is off without replicas', function () {
    expect(resolveOptions({ knex, collections }).replicas).to.equal(undefined);
  });

  for (const [what, replicas, pattern] of [
    ['an empty list', [], /replicas/],
    ['a server that is not a Knex instance', ['postgres://r1/db'], /replicas\[0\] must be a Knex instance/],
    [
      'a name used twice',
      {
        servers: [
          { name: 'eu', knex: other },
          { name: 'eu', knex: other },
        ],
      },
      /replicas\[1\]\.name "eu" is used twice/,
    ],
    ['the name primary', { servers: [{ name: 'primary', knex: other }] }, /is used twice \(or is "primary"\)/],
    ['a check interval under 50 ms', { servers: [other], checkIntervalMs: 10 }, /checkIntervalMs/],
    ['an unknown setting', { servers: [other], maxLag: 5 }, /replicas/],
    ['a query timeout of 0', { servers: [other], queryTimeoutMs: 0 }, /queryTimeoutMs/],
    ['a readAfter that is not a function', { servers: [other], readAfter: 'cookie' }, /readAfter must be a function/],
  ] as const) {
    it(`refuses ${what} at start-up, naming the option`, function () {
      expect(() => resolveOptions({ knex, collections, replicas } as never)).to.throw(/invalid options/);
      expect(() => resolveOptions({ knex, collections, replicas } as never)).to.throw(pattern);
    });
  }
});

describe("replicas: what reaches the host's logger", function () {
  it('a replica leaving rotation is a warning, coming back is info; a logger with only error() gets the warnings, not the news', function () {
    const lines: string[] = [];
    const full = replicaLog({
      error: (m) => lines.push(`error ${m}`),
      warn: (m, e) => lines.push(`warn ${m}${e === undefined ? '' : ' +error'}`),
      info: (m) => lines.push(`info ${m}`),
    });
    full.warn('down', new Error('x'));
    full.warn('behind');
    full.info('back');
    const errorOnly = replicaLog({ error: (m, ...rest) => lines.push(`error ${m} (${rest.length} more)`) });
    errorOnly.warn('behind');
    errorOnly.info('back');
    expect(lines).to.deep.equal(['warn down +error', 'warn behind', 'info back', 'error behind (0 more)']);
  });
});
