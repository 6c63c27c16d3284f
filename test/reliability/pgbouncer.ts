// A throw-away PgBouncer in transaction pooling mode in front of the test clusters: one database
// entry per server, a random loopback port, stopped and removed afterwards. PgBouncer refuses to
// run as root, so under root it runs as the `postgres` user (as the clusters do).

import { ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from '../support/free-port';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface Bouncer {
  /** `postgres://postgres@127.0.0.1:<bouncer port>/<entry>` */
  url(entry: string): string;
  stop(): Promise<void>;
}

/** Where pgbouncer is, or why not (PGBOUNCER, else the Debian package's path, else PATH). */
export function findPgBouncer(): { path: string } | { missing: string } {
  const candidates = [process.env.PGBOUNCER, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].filter(
    (p): p is string => p !== undefined && p !== '',
  );
  const path = candidates.find((p) => existsSync(p));
  return path === undefined ? { missing: 'pgbouncer is not installed (Debian: apt-get install pgbouncer)' } : { path };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolveTry) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveTry(true);
    });
    socket.once('error', () => resolveTry(false));
  });
}

/**
 * Starts PgBouncer with `entries` (name -> server port, each to database `database`), transaction
 * pooling, trust authentication. Example: `startPgBouncer(pg, {primary: 5433}, 'app')` ->
 * `bouncer.url('primary')` reaches database app on port 5433.
 */
export async function startPgBouncer(path: string, entries: Readonly<Record<string, number>>, database: string): Promise<Bouncer> {
  const dir = mkdtempSync(join(tmpdir(), 'kqm-pgbouncer-'));
  const port = await freePort();
  const lines = Object.entries(entries).map(([name, serverPort]) => `${name} = host=127.0.0.1 port=${serverPort} dbname=${database}`);
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      ...lines,
      '',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 10',
      'max_client_conn = 200',
      // A server that went away is tried again soon, so a restarted replica is reachable quickly.
      'server_login_retry = 1',
      'ignore_startup_parameters = extra_float_digits,options',
      // A client waiting for a server that is down gets an error after 2 s instead of waiting 120 s (docs/scaling.md).
      'query_wait_timeout = 2',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    const [, , uid, gid] = (line ?? '').split(':');
    for (const file of ['', 'users.txt', 'pgbouncer.ini']) chownSync(join(dir, file), Number(uid), Number(gid));
  }
  const child: ChildProcess = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', path, join(dir, 'pgbouncer.ini')], { stdio: 'ignore' })
    : spawn(path, [join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const until = Date.now() + 10000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > until) {
      const log = existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '';
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not start: ${log.slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: (entry) => `postgres://postgres@127.0.0.1:${port}/${entry}`,
    async stop() {
      // Signalled by its own pid: under root the child is runuser, which may not pass a signal on.
      const pid = existsSync(join(dir, 'pgbouncer.pid')) ? Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8').trim()) : undefined;
      try {
        process.kill(pid ?? (child.pid as number), 'SIGINT');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
