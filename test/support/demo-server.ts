// Serves the demo app (server/app.ts) through the demo server's own listener (server/http-server.ts)
// on an ephemeral port of 127.0.0.1: the parts `npm start` runs, for the suites that check what a
// client of the demo server sees. The database is a test database with the demo schema and seed
// (PGlite or PostgreSQL, as TEST_DB says), or for the browser suites an in-memory PGlite.

import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { knex as createKnex, type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type pino from 'pino';
import { createApp, type AppOptions } from '../../server/app';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { createHttpServer, type HttpServerOptions } from '../../server/http-server';
import { createLogger } from '../../server/logging';
import { createTestDatabase, type TestDatabase } from './db';
import { repoRoot } from './repo-root';

export interface DemoServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A demo server with the database it serves, which it destroys on close. */
export interface SeededDemoServer extends DemoServer {
  readonly knex: Knex;
}

/** A fresh test database (PGlite or PostgreSQL, as TEST_DB says) with the demo tables and `userCount` users. */
export async function demoDatabase(userCount = 60): Promise<TestDatabase> {
  const db = await createTestDatabase({ empty: true, trigram: true });
  await prepareDemoDatabase(db.knex, { userCount });
  return db;
}

/**
 * Starts the demo app on `knex`, with the settings given (for example `{ apiToken: 'sesame' }` or
 * `{ explain: true }`); the logger is silent unless one is given.
 */
export async function serveDemo(knex: Knex, options: Partial<AppOptions> = {}, http: HttpServerOptions = {}): Promise<DemoServer> {
  const logger: pino.Logger = options.logger ?? createLogger({ LOG_LEVEL: 'silent' });
  const app = await createApp({ knex, ...options, logger });
  app.silent = true;
  const server = createHttpServer(app, logger, http);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/**
 * The demo database (seeded, in an in-memory PGlite) and app with explain on, for the browser suites;
 * fails clearly when the admin UI has not been built.
 */
export async function startDemoServer(): Promise<SeededDemoServer> {
  const built = join(repoRoot, 'dist', 'admin-ui', 'index.html');
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (it builds the admin UI with Vite)`);
  const knex = createKnex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  try {
    await prepareDemoDatabase(knex);
    const listening = await serveDemo(knex, { explain: true });
    return {
      ...listening,
      knex,
      close: async () => {
        await listening.close();
        await knex.destroy();
      },
    };
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}
