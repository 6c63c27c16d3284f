// Chooses the database server for each request: a healthy replica that is close enough behind the
// primary (and has replayed the request's WAL position, when the host gives one), else the primary.
// Every replica and the primary are checked in the background; a replica that fails a check or a
// request gets no new requests until a later check finds it well again.

import type { Knex } from 'knex';
import type { QueryModifiersLogger } from '../logger';
import { readServer, PrimaryTimeline, type Reading } from './health';
import { formatLsn } from './lsn';

/** One server a request can be sent to. */
export interface Server {
  readonly name: string;
  readonly knex: Knex;
  readonly role: 'primary' | 'replica';
}

export interface ReplicaSettings {
  readonly servers: readonly { readonly name: string; readonly knex: Knex }[];
  /** A replica further behind the primary than this gets no requests. */
  readonly maxLagMs: number;
  /** How often each server is checked. */
  readonly checkIntervalMs: number;
  /** A check that takes longer marks the replica down. */
  readonly checkTimeoutMs: number;
}

/** What is known of one replica: its last reading and whether it may take requests. */
interface Status {
  readonly state: 'starting' | 'up' | 'lagging' | 'down';
  readonly inRecovery: boolean | undefined;
  /** The WAL position it had replayed at its last check. */
  readonly position: bigint | undefined;
  readonly lagMs: number | undefined;
}

/** A replica's state as the host sees it (JSON-ready: the WAL position as PostgreSQL prints it). */
export interface ReplicaStatus {
  readonly name: string;
  readonly state: Status['state'];
  readonly inRecovery: boolean | undefined;
  readonly position: string | undefined;
  readonly lagMs: number | undefined;
}

interface Replica extends Server {
  status: Status;
}

/** Where the set reports a replica leaving rotation (`warn`) and coming back (`info`). */
export interface ReplicaLog {
  warn(message: string, error?: unknown): void;
  info(message: string): void;
}

/** How far behind a replica is when the primary cannot be asked: received but not yet replayed WAL. */
function localLag(reading: Reading): number {
  if (!reading.inRecovery) return 0;
  if (reading.position !== undefined && reading.received !== undefined && reading.position >= reading.received) return 0;
  return reading.sinceReplayMs ?? 0;
}

/** The host's logger as a ReplicaLog: `warn` falls back to `error`; without `info`, a recovery is not logged. */
export function replicaLog(logger: QueryModifiersLogger): ReplicaLog {
  return {
    warn: (message, error) => {
      const args: [string, unknown?] = error === undefined ? [message] : [message, error];
      if (logger.warn !== undefined) logger.warn(...args);
      else logger.error(...args);
    },
    info: (message) => logger.info?.(message),
  };
}

export class ReplicaSet {
  readonly primary: Server;
  private readonly replicas: Replica[];
  private readonly timeline: PrimaryTimeline;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private next = 0;

  constructor(
    primary: Knex,
    private readonly settings: ReplicaSettings,
    private readonly log: ReplicaLog,
  ) {
    this.primary = { name: 'primary', knex: primary, role: 'primary' };
    this.replicas = settings.servers.map(({ name, knex }) => ({
      name,
      knex,
      role: 'replica',
      status: { state: 'starting', inRecovery: undefined, position: undefined, lagMs: undefined },
    }));
    // Positions older than the lag that matters (plus two checks) only tell that a replica is too far behind.
    this.timeline = new PrimaryTimeline(settings.maxLagMs + 2 * settings.checkIntervalMs);
  }

  /** Checks every server now and then every `checkIntervalMs`; the timer never keeps the process alive. */
  start(): void {
    if (this.timer !== undefined) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), this.settings.checkIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The replicas as last checked, for health endpoints and logs. */
  statuses(): readonly ReplicaStatus[] {
    return this.replicas.map(({ name, status }) => ({
      name,
      state: status.state,
      inRecovery: status.inRecovery,
      position: status.position === undefined ? undefined : formatLsn(status.position),
      lagMs: status.lagMs === undefined ? undefined : Math.round(status.lagMs),
    }));
  }

  /** One round of checks: the primary first, so each replica is compared with a position it could have reached. */
  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      try {
        const primary = await readServer(this.primary.knex, this.primary.name, this.settings.checkTimeoutMs);
        if (!primary.inRecovery && primary.position !== undefined) this.timeline.record(primary.position, performance.now());
      } catch {
        // The primary's own failures reach clients through their requests; replicas are then judged on their own.
      }
      await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
    } finally {
      this.checking = false;
    }
  }

  private async checkReplica(replica: Replica): Promise<void> {
    try {
      const reading = await readServer(replica.knex, replica.name, this.settings.checkTimeoutMs);
      const lag = !reading.inRecovery
        ? 0
        : reading.position !== undefined && this.timeline.known
          ? (this.timeline.lagMs(reading.position, performance.now()) ?? 0)
          : localLag(reading);
      const state = lag > this.settings.maxLagMs ? 'lagging' : 'up';
      if (state !== replica.status.state && replica.status.state !== 'starting') {
        if (state === 'up') this.log.info(`koa-query-modifiers: replica ${replica.name} is serving again`);
        else this.log.warn(`koa-query-modifiers: replica ${replica.name} is ${Math.round(lag)} ms behind the primary; reads go elsewhere`);
      }
      replica.status = { state, inRecovery: reading.inRecovery, position: reading.position, lagMs: lag };
    } catch (error) {
      this.markDown(replica, error);
    }
  }

  /** Takes `server` out of rotation until a check finds it well (after a failed request on it). */
  markDown(server: Server, error: unknown): void {
    const replica = this.replicas.find((r) => r === server);
    if (replica === undefined) return;
    if (replica.status.state !== 'down') this.log.warn(`koa-query-modifiers: replica ${replica.name} is down; reads go elsewhere`, error);
    replica.status = { ...replica.status, state: 'down' };
  }

  /**
   * The server for one request: the next usable replica in turn (up, within the lag, and at or past
   * `after` when given), else the primary. The servers in `avoid` are left out (those a request just failed on).
   */
  choose(after?: bigint, avoid?: ReadonlySet<Server>): Server {
    const count = this.replicas.length;
    for (let i = 0; i < count; i += 1) {
      const replica = this.replicas[(this.next + i) % count] as Replica;
      const { state, position } = replica.status;
      if (state !== 'up' || avoid?.has(replica) === true) continue;
      if (after !== undefined && (position === undefined || position < after)) continue;
      this.next = (this.next + i + 1) % count;
      return replica;
    }
    return this.primary;
  }
}
