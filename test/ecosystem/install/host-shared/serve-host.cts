// How every install-test host starts and stops (copied into each host's src/ beside its own files):
// its Koa app on an ephemeral port of 127.0.0.1, `{"port": N}` printed once it listens (the install
// tests wait for that line), and on SIGTERM the server and then the database closed before exiting.
import http from 'node:http';
import type Koa from 'koa';

/** What a host builds before it listens: its app, and the database to close when it stops. */
export interface Host {
  readonly app: Koa;
  readonly knex: { destroy(): Promise<void> };
}

async function listen(start: () => Promise<Host>): Promise<void> {
  const { app, knex } = await start();
  const server = http.createServer(app.callback());
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      knex.destroy().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  });
}

/** Builds the host with `start` and serves it; a failure to start is printed and exits with 1. */
export function serveHost(start: () => Promise<Host>): void {
  listen(start).catch((error: unknown) => {
    process.stderr.write(`host failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
