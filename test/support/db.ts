// Gives an HTTP suite a fresh database holding the fixture: an in-memory PGlite (TEST_DB=pglite, the
// default) or a uniquely named database on the server named by DATABASE_URL (TEST_DB=postgres).

import { randomBytes } from 'node:crypto';
import { createServer, connect as connectTcp, AddressInfo, Socket } from 'node:net';
import { knex as createKnex, Knex } from 'knex';
import { PGlite, type Extension } from '@electric-sql/pglite';
import ClientPgLite from 'knex-pglite';
import { Client } from 'pg';
import { loadFixture } from './fixture';

export type TestDbKind = 'pglite' | 'postgres';

export interface TestDatabase {
  readonly kind: TestDbKind;
  readonly knex: Knex;
  /** The database's name on the server (postgres only). */
  readonly name?: string;
  /**
   * Another Knex on the same database. On a server it reaches PostgreSQL through a TCP proxy, and
   * `outage()` closes the proxy and every connection through it, as a server going down does; on
   * PGlite it is the same Knex, and `outage()` closes the PGlite instance.
   */
  connectWithOutage(): Promise<{ knex: Knex; outage: () => Promise<void> }>;
  /**
   * Another Knex on the same database with more configuration, as a host sets it up (name mappers,
   * `searchPath`); closed by `destroy()`. On PGlite it shares the one PGlite instance.
   */
  connectWith(config: Partial<Knex.Config>): Knex;
  /** Closes the connections and, on a server, drops the database. Safe to call twice. */
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Session time zone of every connection (default: the server's own, UTC for PGlite). */
  readonly timezone?: string;
  /** Skip loading the fixture (a suite that creates its own tables). */
  readonly empty?: boolean;
  /** Run after the fixture is loaded and before the app starts: a suite's own rows and columns. */
  readonly prepare?: (knex: Knex) => Promise<void>;
  /**
   * The pg_trgm extension can be created (`create extension pg_trgm`): PGlite ships it as a module
   * it must be started with; a server needs PostgreSQL's contrib package.
   */
  readonly trigram?: boolean;
}

export function testDbKind(): TestDbKind {
  const kind = process.env.TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`TEST_DB must be pglite or postgres, not ${kind}`);
  return kind;
}

/** A database with the fixture loaded, on the kind of database TEST_DB names. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const db = testDbKind() === 'pglite' ? await createPglite(options) : await createPostgres(options);
  try {
    if (!options.empty) await loadFixture(db.knex);
    await options.prepare?.(db.knex);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/** PGlite's pg_trgm module: an `exports` subpath, which this project's module resolution does not read for types. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: an import would not type-check
const pgTrgm = (): Extension => (require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension }).pg_trgm;

async function createPglite(options: TestDatabaseOptions): Promise<TestDatabase> {
  const knex = options.trigram
    ? createKnex({ client: ClientPgLite, connection: { pglite: new PGlite('memory://', { extensions: { pg_trgm: pgTrgm() } }) } as never })
    : createKnex({ client: ClientPgLite, connection: { filename: 'memory://' } });
  // PGlite has exactly one connection, so a SET lasts for the whole database's life.
  if (options.timezone) await knex.raw(`set time zone '${options.timezone}'`);
  let destroyed = false;
  const others: Knex[] = [];
  return {
    kind: 'pglite',
    knex,
    connectWith(config) {
      const pglite = (knex.client as { pglite?: unknown }).pglite;
      const other = createKnex({ client: ClientPgLite, connection: { pglite } as never, ...config });
      // Destroyed with the database (closing it closes the shared PGlite instance); its pool's timers
      // would otherwise keep the test process alive.
      others.push(other);
      return other;
    },
    connectWithOutage() {
      const client: unknown = knex.client;
      return Promise.resolve({
        knex,
        outage: async () => {
          const pglite = (client as { pglite?: { close(): Promise<void> } }).pglite;
          if (!pglite) throw new Error('knex-pglite keeps no PGlite instance where expected');
          await pglite.close();
        },
      });
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const other of others) await other.destroy().catch(() => undefined);
      await knex.destroy().catch(() => undefined);
    },
  };
}

function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs DATABASE_URL');
  return url;
}

/** Runs one statement on the server's maintenance database (postgres only). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function createPostgres(options: TestDatabaseOptions): Promise<TestDatabase> {
  const name = `kqm_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  if (options.timezone) await adminQuery(`alter database ${name} set timezone to '${options.timezone}'`);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  const knex = createKnex({ client: 'pg', connection: url.toString() });
  const cleanups: (() => Promise<void>)[] = [];
  let destroyed = false;
  return {
    kind: 'postgres',
    knex,
    name,
    connectWith(config) {
      const other = createKnex({ client: 'pg', connection: url.toString(), ...config });
      cleanups.push(() => other.destroy().catch(() => undefined));
      return other;
    },
    async connectWithOutage() {
      const proxy = await startProxy(url.hostname, Number(url.port || 5432));
      const viaProxy = new URL(url.toString());
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const proxied = createKnex({ client: 'pg', connection: viaProxy.toString() });
      cleanups.push(async () => {
        proxy.close();
        await proxied.destroy().catch(() => undefined);
      });
      return {
        knex: proxied,
        outage: () => {
          proxy.close();
          return Promise.resolve();
        },
      };
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const cleanup of cleanups) await cleanup();
      await knex.destroy().catch(() => undefined);
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** A TCP proxy to host:port; `close()` stops accepting and cuts every connection through it. */
async function startProxy(host: string, port: number): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connectTcp(port, host);
    sockets.add(client);
    sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port: proxyPort } = server.address() as AddressInfo;
  return {
    port: proxyPort,
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
