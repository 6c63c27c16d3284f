// Serves the plugin for the reliability suites on an ephemeral port. Unlike test/support/app.ts it
// lets a suite raise Node's header limit, so a 50 KB query string reaches the plugin instead of
// being refused by Node's HTTP parser with 431 (which a test of the plugin would learn nothing from).

import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Knex } from 'knex';
import { queryModifiers, QueryModifiersOptions, type QueryModifiersRouter, type RequestReport } from '../../plugin';
import { collections } from '../support/fixture';
import { TEST_CURSOR_SECRET } from '../support/app';

export interface Served {
  readonly origin: string;
  readonly router: QueryModifiersRouter;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Node's limit on the request line and headers (default 1 MiB instead of Node's 16 KiB). */
  readonly maxHeaderSize?: number;
  /** Receives the errors Koa turns into 500s, so a test can say what went wrong. */
  readonly onError?: (error: unknown) => void;
  /** Receives `ctx.state.queryModifiers` after each request, as a host's access log would. */
  readonly onReport?: (report: RequestReport | undefined) => void;
}

export async function serve(knex: Knex, options: Partial<QueryModifiersOptions> = {}, serveOptions: ServeOptions = {}): Promise<Served> {
  const router = await queryModifiers({ knex, collections, cursorSecret: TEST_CURSOR_SECRET, ...options });
  const app = new Koa();
  app.silent = true;
  if (serveOptions.onError) app.on('error', serveOptions.onError);
  const maxHeaderSize = serveOptions.maxHeaderSize ?? 1024 * 1024;
  const { onReport } = serveOptions;
  if (onReport !== undefined) {
    app.use(async (ctx, next) => {
      await next();
      onReport((ctx.state as { queryModifiers?: RequestReport }).queryModifiers);
    });
  }
  app.use(router.routes()).use(router.allowedMethods());
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers every error itself (ctx.onerror): its promise never rejects
  const server: Server = createServer({ maxHeaderSize }, app.callback());
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    router,
    close: () =>
      new Promise<void>((resolveClose) => {
        router.close();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
