// Owns the server the browser tests talk to: the demo app (server/app.ts, admin UI on) over the demo
// schema and seed in an in-memory PGlite, listening on a random port of 127.0.0.1.

import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { knex as createKnex, type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { createApp, type AppOptions } from '../../server/app';
import { prepareDemoDatabase } from '../../server/demo/setup';
import { createHttpServer } from '../../server/http-server';
import { createLogger } from '../../server/logging';

/** The repository root, from dist/test/browser/. */
export const projectRoot = resolve(__dirname, '..', '..', '..');

export interface DemoServer {
  readonly knex: Knex;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Starts another app on an existing database, through the demo server's listener: explain on, other
 * settings as given (for example `{ apiToken: 'sesame' }`, or `{ explain: false }`).
 */
export async function listenApp(knex: Knex, options: Partial<AppOptions> = {}): Promise<{ origin: string; close(): Promise<void> }> {
  const logger = createLogger({ LOG_LEVEL: 'silent' });
  const app = await createApp({ knex, explain: true, logger, ...options });
  app.silent = true;
  const server: Server = createHttpServer(app, logger);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The demo database (seeded) and app; fails clearly when the admin UI has not been built. */
export async function startDemoServer(): Promise<DemoServer> {
  const built = join(projectRoot, 'dist', 'admin-ui', 'index.html');
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (it builds the admin UI with Vite)`);
  const knex = createKnex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  try {
    await prepareDemoDatabase(knex);
    const listening = await listenApp(knex);
    return {
      knex,
      origin: listening.origin,
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
