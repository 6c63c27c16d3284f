// What every server the benchmark loads (plugin, floor, peer) shares: the HTTP server around its
// request handler, `GET /__bench/stats` (SQL statements sent and requests answered, read by
// load.ts), `GET /__bench/heap` (under --expose-gc: the live heap after a full collection), a clean stop on SIGTERM/SIGINT, and the `listening <port>` line processes.ts waits for.

import http from 'node:http';

/** Counted by each server: `statements` where it sends SQL, `requests` here. */
export interface BenchCounters {
  statements: number;
  requests: number;
}

export const newCounters = (): BenchCounters => ({ statements: 0, requests: 0 });

/**
 * Serves `handle` on PORT (0 = any) of 127.0.0.1. `close` releases the database pools on stop; the
 * process exits whether or not they close cleanly, as the benchmark is stopping this server anyway.
 */
export function serveBench(handle: http.RequestListener, counters: BenchCounters, close: () => Promise<unknown>): void {
  const server = http.createServer((req, res) => {
    if (req.url === '/__bench/stats') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ statements: counters.statements, requests: counters.requests }));
      return;
    }
    if (req.url === '/__bench/heap') {
      // Started with --expose-gc (the soak): a full collection first, so what is left is what the process keeps.
      const collect = (globalThis as { gc?: () => void }).gc;
      if (collect === undefined) {
        res.statusCode = 404;
        res.end();
        return;
      }
      collect();
      const { heapUsed, rss } = process.memoryUsage();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ heapUsed, rss }));
      return;
    }
    counters.requests++;
    handle(req, res);
  });
  server.keepAliveTimeout = 60_000;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    void close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const address = server.address();
    console.log(`listening ${typeof address === 'object' && address !== null ? address.port : ''}`);
  });
}
