// The load of the fault soak: a fixed mix of valid, hostile and oversized-expansion requests, /ready
// and /health, sent by a few keep-alive loops on loopback. Every answer is counted by phase, kind
// and status and checked against what the database's state at the request's start allows.

import http from 'node:http';

/** What a request is: `valid` reaches SQL, `hostile` must be refused before any SQL. */
export type Kind = 'valid' | 'hostile' | 'ready' | 'health';

/** The database's state during a phase: `up` serves, `changing` is an operator's action under way. */
export type DbState = 'up' | 'blocked' | 'dropped' | 'empty' | 'changing';

export interface Target {
  readonly kind: Kind;
  readonly path: string;
}

const inList = Array.from({ length: 600 }, (_, i) => i + 1).join(',');

/** One round of every worker: 8 valid (2 of them the largest expansions allowed), 12 hostile, 2 probes. */
export const TARGETS: readonly Target[] = [
  { kind: 'valid', path: '/api/users?filter[id]=>=5&sort[name]=desc&per-page=10' },
  { kind: 'hostile', path: '/api/users?filter[bogus]=1' },
  { kind: 'valid', path: '/api/users?search[name]=an&fields=id,name,email' },
  { kind: 'hostile', path: '/api/users?filter[name]=%00' },
  { kind: 'valid', path: '/api/users?expand[posts]=p&p_fields=id,title&p_sort[created_at]=desc&per-page=20' },
  { kind: 'hostile', path: '/api/users?filter[name]=%E0%A4' },
  { kind: 'valid', path: "/api/users?filter[name]='%3B%20drop%20table%20users%3B%20--" },
  { kind: 'hostile', path: "/api/users?filter['%3B%20drop%20table%20users%3B%20--]=1" },
  { kind: 'ready', path: '/ready' },
  { kind: 'hostile', path: '/api/users?filter[__proto__]=1&sort[constructor]' },
  { kind: 'valid', path: '/api/posts?expand[author]&sort[views]=desc&limit=5' },
  { kind: 'hostile', path: '/api/nope' },
  // The largest expansions the default caps allow: every user with every relation, every role with its users.
  { kind: 'valid', path: '/api/users?limit=1000&expand[posts]=p&expand[phone]&expand[roles]=r' },
  { kind: 'hostile', path: '/api/users?expand[posts]=a&expand[phone]=b&expand[roles]=c&expand[posts]=d&expand[phone]=e&expand[roles]=f' },
  { kind: 'valid', path: '/api/roles?expand[users]=u&u_sort[name]=asc' },
  { kind: 'hostile', path: `/api/users?in[id]=${inList}` },
  { kind: 'health', path: '/health' },
  { kind: 'hostile', path: `/api/users?search[name]=${'a'.repeat(9000)}` },
  { kind: 'valid', path: '/api/roles?expand[users]=u&u_fields=id,name&u_filter[id]=<50' },
  { kind: 'hostile', path: '/api/users?per-page=1000&expand[nope]' },
  { kind: 'hostile', path: '/api/users?expand[posts]=p&q_fields=id' },
  { kind: 'hostile', path: '/api/users?page=0&between[id]=1' },
];

export interface Phase {
  readonly index: number;
  readonly state: DbState;
  readonly startedAt: number;
}

/** Counts per phase: `counts[kind][status]`; status 0 is a connection error. */
export interface PhaseTally {
  readonly phase: number;
  readonly state: DbState;
  readonly counts: Record<Kind, Record<string, number>>;
  /** Milliseconds from the phase's start to the last 503 of a valid request started in it. */
  lastValid503Ms?: number;
}

export interface LoadResult {
  readonly tallies: PhaseTally[];
  readonly requests: number;
  /** The first answers that broke a rule, e.g. `500 valid /api/users?... in phase 3 (dropped) at 812 ms`. */
  readonly violations: string[];
  readonly violationCount: number;
}

/**
 * The statuses a request may get: probes and valid requests are 503 while the database cannot serve
 * and 200 once it serves again (either while it changes, for a request that spans two phases, and in
 * the first `recoveryMs` of an `up` phase, while the pool reconnects); hostile requests are always
 * 4xx and /health always 200. Example: `allowed('valid', 'dropped', 900, 3000, false)(503)` -> true.
 */
export function allowed(
  kind: Kind,
  state: DbState,
  sinceStartMs: number,
  recoveryMs: number,
  spanned: boolean,
): (status: number) => boolean {
  if (kind === 'health') return (s) => s === 200;
  if (kind === 'hostile') return (s) => s >= 400 && s < 500;
  const either = (s: number): boolean => s === 200 || s === 503;
  if (spanned || state === 'changing') return either;
  if (state !== 'up') return (s) => s === 503;
  return sinceStartMs < recoveryMs ? either : (s) => s === 200;
}

function get(agent: http.Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

function emptyCounts(): Record<Kind, Record<string, number>> {
  return { valid: {}, hostile: {}, ready: {}, health: {} };
}

/**
 * Runs `connections` loops over TARGETS until `during()` resolves; `phase()` names the phase a request
 * starts in. Example: `await runFaultLoad(port, 8, () => current, 3000, () => cyclePhases())`.
 */
export async function runFaultLoad(
  port: number,
  connections: number,
  phase: () => Phase,
  recoveryMs: number,
  during: () => Promise<void>,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const tallies: PhaseTally[] = [];
  const violations: string[] = [];
  let violationCount = 0;
  let requests = 0;
  let running = true;
  const loops = Array.from({ length: connections }, async (_, worker) => {
    for (let i = worker * 5; running; i += 1) {
      const target = TARGETS[i % TARGETS.length] as Target;
      const at = phase();
      const started = Date.now();
      const status = await get(agent, port, target.path);
      requests += 1;
      const tally = (tallies[at.index] ??= { phase: at.index, state: at.state, counts: emptyCounts() });
      tally.counts[target.kind][status] = (tally.counts[target.kind][status] ?? 0) + 1;
      if (target.kind === 'valid' && status === 503) tally.lastValid503Ms = Math.max(tally.lastValid503Ms ?? 0, started - at.startedAt);
      const spanned = phase().index !== at.index;
      if (!allowed(target.kind, at.state, started - at.startedAt, recoveryMs, spanned)(status)) {
        violationCount += 1;
        if (violations.length < 20) {
          violations.push(
            `${status} ${target.kind} ${target.path.slice(0, 100)} in phase ${at.index} (${at.state}) at ${started - at.startedAt} ms`,
          );
        }
      }
    }
  });
  try {
    await during();
  } finally {
    running = false;
    await Promise.all(loops);
    agent.destroy();
  }
  return { tallies, requests, violations, violationCount };
}
