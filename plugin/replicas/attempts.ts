// Runs one request's statements on a replica with a deadline, and on another server when that
// replica is unavailable or does not answer in time: a replica that fails or hangs costs the client
// at most `timeoutMs` per replica tried, never an error or an unbounded wait.

import { isUnavailable } from '../errors';
import type { ReplicaSet, Server } from './replica-set';

/** What a replica that did not answer within the deadline is reported with (to the logger and `markDown`). */
export class ReplicaTimeoutError extends Error {
  override readonly name = 'ReplicaTimeoutError';
  constructor(
    readonly server: string,
    readonly timeoutMs: number,
  ) {
    super(`${server} did not answer within ${timeoutMs} ms (replicas.queryTimeoutMs); the request was sent elsewhere`);
  }
}

/** `work`, or a ReplicaTimeoutError after `timeoutMs`; a late outcome of `work` is dropped, never unhandled. */
function withDeadline<T>(work: Promise<T>, timeoutMs: number, server: string): Promise<T> {
  if (!Number.isFinite(timeoutMs)) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReplicaTimeoutError(server, timeoutMs)), timeoutMs);
  });
  // A hung statement settles when the server wakes up (or its connection dies): nobody waits for it then.
  work.catch(() => undefined);
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export interface AttemptSettings {
  /** The WAL position the answer must include, if any. */
  readonly after: bigint | undefined;
  /** How long the statements of one attempt on a replica may take together. */
  readonly timeoutMs: number;
  /** Called once, with the first replica a request failed on, before it runs elsewhere. */
  readonly retried: (from: Server) => void;
}

/**
 * Runs `run` on the server `replicas` chooses; a replica that is unavailable or exceeds the
 * deadline is taken out of rotation and the request runs on the next choice (each replica at most
 * once), ending on the primary, which has no deadline of the plugin's (its own statement timeout
 * applies). Example: replica-1 frozen, `queryTimeoutMs` 5000 -> the answer of replica-2 about 5 s late.
 */
export async function runOnReplicas<T>(replicas: ReplicaSet, settings: AttemptSettings, run: (server: Server) => Promise<T>): Promise<T> {
  const failed = new Set<Server>();
  for (;;) {
    const server = replicas.choose(settings.after, failed);
    if (server.role !== 'replica') return run(server);
    try {
      return await withDeadline(run(server), settings.timeoutMs, server.name);
    } catch (error) {
      if (!(error instanceof ReplicaTimeoutError) && !isUnavailable(error)) throw error;
      replicas.markDown(server, error);
      if (failed.size === 0) settings.retried(server);
      failed.add(server);
    }
  }
}
