// Starts the two servers as child processes on loopback, samples their memory and CPU from /proc,
// and stops them (SIGTERM, then SIGKILL after a grace period). Every child is tracked so that an
// interrupted bench never leaves one behind.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { applicationName } from './database-cpu';

/** The plugin, the hand-written floor, (with --replica) the plugin reading from a replica, or (with --peer) Koa + objection-find. */
export type ServerName = 'plugin' | 'floor' | 'replicas' | 'peer';

export interface ServerProcess {
  readonly name: ServerName;
  readonly child: ChildProcess;
  readonly pid: number;
  readonly port: number;
  readonly origin: string;
}

const running = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export interface StartOptions {
  readonly name: ServerName;
  readonly script: string;
  readonly databaseUrl: string;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir=…']. */
  readonly nodeFlags?: readonly string[];
  /** Extra environment, e.g. { LOG_LEVEL: 'info' }. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Every server of a run seals cursors with this secret, so the floor opens the plugin's cursors and writes the same ones. */
const BENCH_CURSOR_SECRET = 'the benchmark seals its cursors with this secret';

/** Spawns `node <flags> <script>` with PORT=0 and waits for its `listening <port>` line. */
export function startServer(options: StartOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), options.script], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      PORT: '0',
      NODE_ENV: 'production',
      CURSOR_SECRET: BENCH_CURSOR_SECRET,
      // node-postgres names every connection after this, so database-cpu.ts finds the server's backends.
      PGAPPNAME: applicationName(options.name),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`${options.name} server did not start within 60 s:\n${output}`)), 60_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    // Keep only the last few kilobytes: a server that logs every request would otherwise grow this forever.
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-8192);
    };
    child.stderr.on('data', keep);
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk);
      const match = /listening (\d+)/.exec(output);
      if (match !== null && child.pid !== undefined) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        const port = Number(match[1]);
        resolve({ name: options.name, child, pid: child.pid, port, origin: `http://127.0.0.1:${port}` });
      }
    });
    child.on('exit', (code) => fail(new Error(`${options.name} server exited with ${code} before listening:\n${output}`)));
  });
}

/** SIGTERM (the servers exit cleanly, writing a --cpu-prof profile), SIGKILL after 10 s. */
export function stopServer(server: ServerProcess): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface MemorySample {
  /** Resident set size now, bytes. */
  readonly rss: number;
  /** Peak resident set size since the process started (VmHWM), bytes. */
  readonly hwm: number;
}

export function readMemory(pid: number): MemorySample {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU time (user + system) the process has used, in milliseconds. */
export function readCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command: state is [0], utime is field 14 overall -> [11], stime [12]; ticks are 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time of a whole PostgreSQL cluster: its postmaster, every live child (backends, WAL sender or
 * receiver, startup process) and the children that have exited, in milliseconds.
 */
export function readClusterCpuMs(postmasterPid: number): number {
  const stat = (pid: number | string): string[] => {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  const own = stat(postmasterPid);
  // [11] utime, [12] stime, [13] cutime, [14] cstime (children already waited for); ticks of 1/100 s.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = stat(entry);
      // [1] is the parent pid.
      if (Number(fields[1]) === postmasterPid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while the list was read.
    }
  }
  return ticks * 10;
}

/** Samples VmRSS every `intervalMs` until stopped; returns the samples and the peak. */
export function sampleMemory(pid: number, intervalMs: number): () => { samples: number[]; peakRss: number } {
  const samples: number[] = [];
  const take = (): void => {
    try {
      samples.push(readMemory(pid).rss);
    } catch {
      // The process is gone; the caller notices.
    }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return () => {
    clearInterval(timer);
    take();
    return { samples, peakRss: Math.max(...samples) };
  };
}

export const distDir = path.resolve(__dirname);
