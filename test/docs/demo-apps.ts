// Serves the demo app once per setup the docs' examples ask for (plugin options, demo server
// environment), all on one demo database, and sends an example's request the way a client would.

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Knex } from 'knex';
import { cachesFromEnv, createApp, cursorSecretFromEnv, type AppOptions } from '../../server/app';
import { corsFromEnv } from '../../server/cors';
import { createLogger } from '../../server/logging';
import { listen, type TestApp } from '../support/app';
import type { Setup } from './markdown';
import { expandRanges, type ExampleRequest } from './requests';

export type DemoSetup = Extract<Setup, { kind: 'demo' }>;

export interface Answer {
  readonly status: number;
  readonly reason: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** The demo server's environment variables a marker may set, as createApp options. */
function fromEnv(env: Readonly<Record<string, string>>): Partial<AppOptions> {
  const known = ['API_TOKEN', 'CORS_ORIGIN', 'PLAN_CACHE', 'TOTALS_CACHE_SECONDS', 'CURSOR_SECRET'];
  const unknown = Object.keys(env).filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`env=${unknown.join(', ')}: the docs check sets only ${known.join(', ')}`);
  return {
    apiToken: env.API_TOKEN,
    cors: corsFromEnv(env.CORS_ORIGIN),
    caches: cachesFromEnv(env),
    cursorSecret: cursorSecretFromEnv(env),
  };
}

/** What a client sends for a target the docs write unencoded: spaces and non-ASCII percent-encoded. */
function encodeTarget(target: string): string {
  return expandRanges(target).replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

function send(origin: string, request: ExampleRequest): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  const headers: Record<string, string> = { host: request.host };
  for (const [name, value] of request.headers) headers[name.toLowerCase()] = value;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method: request.method, path: encodeTarget(request.target), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? '',
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The demo apps of one database, started on first use per setup. */
export class DemoApps {
  private readonly apps = new Map<string, Promise<TestApp>>();

  constructor(private readonly knex: Knex) {}

  /** Example: `await apps.send(DEMO, { method: 'GET', target: '/api/users?limit=1', ... })` -> status 200 and its body. */
  async send(setup: DemoSetup, request: ExampleRequest): Promise<Answer> {
    const key = JSON.stringify([setup.options, setup.env]);
    let app = this.apps.get(key);
    if (app === undefined) {
      app = this.start(setup);
      this.apps.set(key, app);
    }
    return send((await app).origin, request);
  }

  private async start(setup: DemoSetup): Promise<TestApp> {
    // A marker's options are plain JSON; queryModifiers() checks them against its schema at start-up.
    const plugin = setup.options as AppOptions['plugin'];
    const app = await createApp({ knex: this.knex, logger: createLogger({ LOG_LEVEL: 'silent' }), plugin, ...fromEnv(setup.env) });
    return listen(app);
  }

  async close(): Promise<void> {
    const started = await Promise.allSettled(this.apps.values());
    for (const result of started) if (result.status === 'fulfilled') await result.value.close();
  }
}
