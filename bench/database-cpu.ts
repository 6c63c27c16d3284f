// PostgreSQL's CPU time spent for one server under test: the user + system time (/proc/<pid>/stat)
// of the backends its connections are served by, found in pg_stat_activity by the application_name
// each server connects with (startServer sets PGAPPNAME), and of the parallel workers they lead.
// PostgreSQL runs on the bench's machine, so the backends' /proc entries are readable here.
//
// Backends are sampled every `intervalMs` while the server is loaded: a backend that connects
// during the run is counted from its start, one that ends counts up to its last sample, and a
// parallel worker that lives shorter than the interval between two samples is missed (such
// workers serve statements of a few milliseconds; both servers are measured the same way).

import fs from 'node:fs';
import { Client } from 'pg';

/** The application_name a bench server's connections carry: `kqm-bench-plugin`, `kqm-bench-floor`. */
export const applicationName = (server: string): string => `kqm-bench-${server}`;

/** CPU time (user + system) of a process in milliseconds (ticks of 1/100 s), or undefined once it is gone. */
function cpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export interface DatabaseCpu {
  /** Milliseconds of CPU the server's backends and their parallel workers used between start and stop. */
  readonly cpuMs: number;
  /** Backends and parallel workers seen. */
  readonly backends: number;
  readonly workers: number;
}

export interface DatabaseCpuMeter {
  stop(): Promise<DatabaseCpu>;
}

const BACKENDS = `select pid, backend_type = 'parallel worker' as worker, state = 'active' as active from pg_stat_activity
  where application_name = $1
     or leader_pid in (select pid from pg_stat_activity where application_name = $1)`;

/**
 * Starts measuring the CPU of the backends serving `server` (its application_name) on the database
 * at `databaseUrl`; `stop()` waits until none of them runs a statement, ends the measurement and
 * closes the meter's own connection.
 */
export async function meterDatabaseCpu(databaseUrl: string, server: string, intervalMs = 100): Promise<DatabaseCpuMeter> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'kqm-bench-meter' });
  await client.connect();
  const name = applicationName(server);
  // Per process: its CPU when first seen (0 for one that started during the run) and when last seen.
  const seen = new Map<number, { first: number; last: number; worker: boolean }>();
  /** Samples every backend of the server; resolves to how many are running a statement. */
  const sample = async (initial: boolean): Promise<number> => {
    const { rows } = await client.query<{ pid: number; worker: boolean; active: boolean }>(BACKENDS, [name]);
    for (const { pid, worker } of rows) {
      const now = cpuMs(pid);
      if (now === undefined) continue;
      const known = seen.get(pid);
      if (known === undefined) seen.set(pid, { first: initial ? now : 0, last: now, worker });
      else known.last = now;
    }
    // Processes that left pg_stat_activity between queries: their last reading, if still readable.
    for (const [pid, known] of seen) known.last = Math.max(known.last, cpuMs(pid) ?? known.last);
    return rows.filter((row) => row.active).length;
  };
  await sample(true);
  let pending: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(() => sample(false)).catch(() => undefined);
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      // The requests counted as served include those still running when the load stopped: their
      // statements are measured to their end (a minute at most, as the bench waits for them anyway).
      const until = Date.now() + 60_000;
      while ((await sample(false)) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      await client.end();
      let total = 0;
      let workers = 0;
      for (const known of seen.values()) {
        total += known.last - known.first;
        if (known.worker) workers++;
      }
      return { cpuMs: total, backends: seen.size - workers, workers };
    },
  };
}
