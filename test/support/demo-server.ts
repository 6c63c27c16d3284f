// Serves the demo app (server/app.ts) through the demo server's own listener (server/http-server.ts)
// on an ephemeral port of 127.0.0.1, on a test database holding the demo schema and seed: the parts
// `npm start` runs, for the suites that check what a client of the demo server sees.

import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type pino from 'pino';
import { createApp, type AppOptions } from '../../server/app';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { createHttpServer, type HttpServerOptions } from '../../server/http-server';
import { createLogger } from '../../server/logging';
import { createTestDatabase, type TestDatabase } from './db';

export interface DemoServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/** A fresh test database (PGlite or PostgreSQL, as TEST_DB says) with the demo tables and `userCount` users. */
export async function demoDatabase(userCount = 60): Promise<TestDatabase> {
  const db = await createTestDatabase({ empty: true, trigram: true });
  await prepareDemoDatabase(db.knex, { userCount });
  return db;
}

/** Starts the demo app on `knex`; the logger is silent unless one is given. */
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
