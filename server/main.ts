// Owns the standalone demo server process: reads the environment (HOST, PORT, DATABASE_URL,
// DATABASE_REPLICA_URLS, API_TOKEN, CORS_ORIGIN, LOG_LEVEL, PLAN_CACHE, TOTALS_CACHE_SECONDS,
// ADMIN_EXPLAIN, TRUST_PROXY, CURSOR_SECRET, REDIS_URL, CACHE_TTL_SECONDS), prepares the database, listens, and shuts down gracefully on SIGINT/SIGTERM.
import type http from 'node:http';
import type { Knex } from 'knex';
import { displayOrigin, readHost, readPort } from './address';
import { sharedCacheFromEnv } from './shared-cache';
import { cachesFromEnv, createApp, cursorSecretFromEnv, serverTimingFromEnv } from './app';
import { corsFromEnv } from './cors';
import { closeKnex, createKnex, createReplicaKnexes, databaseKind } from './db';
import { prepareDemoDatabase } from './demo/setup';
import { createHttpServer } from './http-server';
import { createLogger, type Logger } from './logging';

const SHUTDOWN_TIMEOUT_MS = 10_000;

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/**
 * Stops accepting connections, lets in-flight requests finish, then closes the database.
 * A second signal or the timeout forces exit code 1.
 */
function installShutdown(server: http.Server, knexes: readonly Knex[], logger: Logger): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.error({ signal }, 'signal received again: forcing exit');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'finishing in-flight requests');
    setTimeout(() => {
      logger.error(`shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s: forcing exit`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    // Keep-alive sockets that finish their request after close() must be closed too, or close() never returns.
    const sweeper = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweeper);
      Promise.all(knexes.map(closeKnex)).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'closing the database failed');
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(logger: Logger): Promise<void> {
  const env = process.env;
  const port = readPort(env.PORT);
  const host = readHost(env.HOST);
  const knex = createKnex(env);
  const replicas = createReplicaKnexes(env);
  const shared = sharedCacheFromEnv(env);
  if (shared !== undefined) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, shared.close);
  try {
    const seed = await prepareDemoDatabase(knex);
    if (seed.seeded) {
      logger.info(
        { ...seed, database: databaseKind(env) },
        `seeded ${seed.users} users, ${seed.posts} posts, ${seed.comments} comments, ${seed.phones} phones`,
      );
    }
    const app = await createApp({
      knex,
      apiToken: env.API_TOKEN,
      cors: corsFromEnv(env.CORS_ORIGIN),
      logger,
      caches: cachesFromEnv(env),
      cursorSecret: cursorSecretFromEnv(env),
      explain: env.ADMIN_EXPLAIN === 'true',
      trustProxy: env.TRUST_PROXY === 'true',
      // With replicas the demo names the answering server in Server-Timing, so a reader can watch requests move.
      plugin: {
        serverTiming: serverTimingFromEnv(env),
        ...(replicas.length === 0 ? {} : { replicas: { servers: replicas, revealServer: true } }),
        ...(shared === undefined ? {} : { cache: shared.cache }),
      },
    });
    const server = createHttpServer(app, logger);
    installShutdown(server, [knex, ...replicas], logger);
    const actualPort = await listen(server, port, host);
    const origin = displayOrigin(host, actualPort);
    logger.info(
      { host, port: actualPort, database: databaseKind(env), replicas: replicas.length },
      `koa-query-modifiers demo listening on ${origin}/api/users (admin UI: ${origin}/admin)`,
    );
  } catch (error) {
    await Promise.all([knex, ...replicas].map((k) => closeKnex(k).catch(() => undefined)));
    shared?.close();
    throw error;
  }
}

const logger = createLogger(process.env);
main(logger).catch((error: unknown) => {
  logger.fatal({ err: error }, 'the server could not start');
  // A silent logger (LOG_LEVEL=silent) must not hide why the process exits.
  if (!logger.isLevelEnabled('fatal')) console.error(error);
  process.exit(1);
});
