// Reads one server's replication state, and turns the primary's WAL positions over time into each
// replica's lag in milliseconds.

import type { Knex } from 'knex';
import { parseLsn } from './lsn';

/** What one check of a server found. */
export interface Reading {
  /** In recovery: a standby replaying WAL. False on the primary and on a promoted standby. */
  readonly inRecovery: boolean;
  /** The WAL position whose changes a read on this server sees: replayed on a standby, written on a primary. */
  readonly position: bigint | undefined;
  /** A standby's WAL received from the primary (undefined on a primary). */
  readonly received: bigint | undefined;
  /** Milliseconds since a standby replayed its last transaction (undefined before the first, and on a primary). */
  readonly sinceReplayMs: number | undefined;
}

// `pg_last_wal_replay_lsn()` is NULL on a primary; a promoted standby's reads see what it writes.
const CHECK_SQL = `select pg_is_in_recovery() as in_recovery,
  (case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_lsn() end)::text as position,
  pg_last_wal_receive_lsn()::text as received,
  (extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 as since_replay_ms`;

interface CheckRow {
  readonly in_recovery: boolean;
  readonly position: string | null;
  readonly received: string | null;
  readonly since_replay_ms: number | string | null;
}

function timeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not answer its replication check within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** One check of `knex`'s server; rejects when it does not answer within `timeoutMs`. */
export async function readServer(knex: Knex, name: string, timeoutMs: number): Promise<Reading> {
  const result = await timeout(knex.raw<{ rows: CheckRow[] }>(CHECK_SQL), timeoutMs, name);
  const row = result.rows[0];
  if (row === undefined) throw new Error(`${name}: the replication check returned no row`);
  const since = row.since_replay_ms === null ? undefined : Number(row.since_replay_ms);
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-boolean-literal-compare -- a driver's value: anything but true is not in recovery
    inRecovery: row.in_recovery === true,
    position: parseLsn(row.position),
    received: parseLsn(row.received),
    sinceReplayMs: since !== undefined && Number.isFinite(since) ? Math.max(0, since) : undefined,
  };
}

/**
 * The primary's WAL position over time: each position with the time it was first seen. A replica
 * that has replayed position P lags by the age of the oldest position after P (0 when it has
 * everything the primary had at its last check). This measures lag in time without trusting
 * `pg_last_xact_replay_timestamp()`, which grows while the primary is idle.
 */
export class PrimaryTimeline {
  private samples: { readonly at: number; readonly position: bigint }[] = [];

  /** @param keepMs how far back positions are kept; lags beyond it read as at least that old. */
  constructor(private readonly keepMs: number) {}

  get known(): boolean {
    return this.samples.length > 0;
  }

  record(position: bigint, at: number): void {
    const newest = this.samples[this.samples.length - 1];
    if (newest !== undefined && position <= newest.position) return;
    this.samples.push({ at, position });
    // The newest sample stays whatever its age: it is when the primary reached where it still is.
    while (this.samples.length > 1 && (this.samples[0] as { at: number }).at < at - this.keepMs) this.samples.shift();
  }

  /** Milliseconds a server at `position` is behind the primary, at time `now`; undefined before the first sample. */
  lagMs(position: bigint, now: number): number | undefined {
    if (this.samples.length === 0) return undefined;
    const behind = this.samples.find((sample) => sample.position > position);
    return behind === undefined ? 0 : Math.max(0, now - behind.at);
  }
}
