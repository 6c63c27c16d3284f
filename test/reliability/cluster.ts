// A throw-away PostgreSQL cluster for the fault tests: initdb in a temp folder, a random port,
// start and stop at will, removed afterwards. initdb and postgres refuse to run as root, so under
// root every command runs as the `postgres` user through runuser, in a folder that user owns.

import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../support/free-port';

export interface Cluster {
  readonly port: number;
  readonly dir: string;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  start(): Promise<void>;
  /** `fast` closes sessions cleanly; `immediate` is a crash-like stop. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  createDatabase(name: string): Promise<void>;
  /** Runs one statement on `database` with a connection of its own, e.g. `alter database x allow_connections false`. */
  sql(database: string, text: string): Promise<void>;
  /** Stops the server (if running) and removes the folder. Safe to call twice. */
  destroy(): Promise<void>;
  /** Promotes a standby made by startReplica to a primary (`pg_ctl promote`, waits until it is done). */
  promote(): Promise<void>;
}

/** Where initdb, pg_ctl and pg_basebackup live (PG_BIN, else PATH, else the newest /usr/lib/postgresql/<n>/bin), or why not. */
export function findPostgresBinaries(): { bin: string } | { missing: string } {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  candidates.push(...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== ''));
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  const bin = candidates.find(
    (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'pg_basebackup')),
  );
  if (!bin)
    return {
      missing:
        'no initdb/pg_ctl/pg_basebackup found (set PG_BIN, put them on PATH, or install PostgreSQL under /usr/lib/postgresql/<n>/bin)',
    };
  if (userInfo().uid === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
    return { missing: 'running as root and runuser is not available to run initdb as the postgres user' };
  }
  return { bin };
}

function run(file: string, args: readonly string[], timeoutMs = 60_000): Promise<string> {
  const asRoot = userInfo().uid === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, [...args]];
  return new Promise((resolveRun, rejectRun) => {
    execFile(command, argv, { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) rejectRun(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolveRun(stdout);
    });
  });
}

/** A loopback port nothing listens on right now. */
function postgresUid(): { uid: number; gid: number } {
  // The postgres user exists wherever the server packages are installed; its ids come from /etc/passwd.
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = (line ?? '').split(':');
  if (uid === undefined || gid === undefined) throw new Error('no postgres user in /etc/passwd');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A cluster in `dir` (already made by initdb or pg_basebackup), not started. */
function clusterIn(bin: string, dir: string, port: number): Cluster {
  const data = join(dir, 'data');
  const pgCtl = join(bin, 'pg_ctl');
  let running = false;
  let destroyed = false;
  const cluster: Cluster = {
    port,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await run(pgCtl, [
        '-D',
        data,
        '-l',
        join(dir, 'server.log'),
        '-w',
        '-t',
        '30',
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
        'start',
      ]);
      running = true;
    },
    async stop(mode = 'fast') {
      await run(pgCtl, ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
      running = false;
    },
    async promote() {
      await run(pgCtl, ['-D', data, '-w', '-t', '30', 'promote']);
    },
    async createDatabase(name) {
      await cluster.sql('postgres', `create database "${name}"`);
    },
    async sql(database, text) {
      const client = new Client({ connectionString: cluster.url(database) });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      if (running) await cluster.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** A temp folder the server's user owns. */
function serverFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kqm-pg-'));
  if (userInfo().uid === 0) {
    const { uid, gid } = postgresUid();
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** initdb + start on a random port. */
export async function startCluster(bin: string): Promise<Cluster> {
  const dir = serverFolder();
  const cluster = clusterIn(bin, dir, await freePort());
  try {
    await run(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--no-locale']);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

/**
 * A streaming replica of `primary` (`pg_basebackup -R`: a standby that connects back to it), started
 * on a random port of its own.
 */
export async function startReplica(bin: string, primary: Cluster): Promise<Cluster> {
  const dir = serverFolder();
  const replica = clusterIn(bin, dir, await freePort());
  try {
    await run(join(bin, 'pg_basebackup'), [
      '-D',
      join(dir, 'data'),
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await replica.start();
  } catch (error) {
    await replica.destroy();
    throw error;
  }
  return replica;
}
