// What the shared-cache suite starts: a throw-away redis-server on a free port (stopped and started
// again by the tests), and app instances as separate processes (shared-cache-instance.ts).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Undefined when redis-server can be run here, else why not. */
export function redisMissing(): string | undefined {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return found.status === 0 ? undefined : 'redis-server is not installed (apt-get install redis-server)';
}

/** Whether something answers PING on `port`. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.setTimeout(500, () => socket.destroy());
    socket.on('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

export class ThrowawayRedis {
  private process: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await freePort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) on the same port, nothing kept from before. */
  async resume(): Promise<void> {
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i += 1) {
      if (await pings(this.port)) return;
      await new Promise((wait) => setTimeout(wait, 50));
    }
    throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const running = this.process;
    this.process = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((exited) => {
      running.once('exit', () => exited());
      running.kill('SIGKILL');
    });
  }
}

/** One app instance process; `get` sends a request to it. */
export class Instance {
  private constructor(
    private readonly child: ChildProcess,
    readonly origin: string,
  ) {}

  static start(env: Record<string, string>): Promise<Instance> {
    const script = join(__dirname, 'shared-cache-instance.js');
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr?.on('data', (data: Buffer) => (errors += data.toString()));
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (data: Buffer) => {
        out += data.toString();
        const line = out.split('\n')[0];
        if (out.includes('\n') && line !== undefined)
          resolve(new Instance(child, `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`));
      });
      child.once('exit', (code) => reject(new Error(`instance exited with ${code}: ${errors}`)));
    });
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; etag: string; cache: string }> {
    const res = await fetch(`${this.origin}${path}`, { headers: { 'X-Forwarded-Host': 'api.example.test', ...headers } });
    return {
      status: res.status,
      body: await res.text(),
      etag: res.headers.get('etag') ?? '',
      cache: res.headers.get('x-test-cache') ?? '',
    };
  }

  /** The status of a conditional GET sent with node:http (fetch adds `Cache-Control: no-cache`, which no server answers 304 to). */
  revalidate(path: string, etag: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.origin}${path}`,
        { headers: { 'X-Forwarded-Host': 'api.example.test', 'If-None-Match': etag } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** The statements this instance has sent, the versions reads left out. */
  async statements(): Promise<number> {
    const res = await fetch(`${this.origin}/_statements`);
    return ((await res.json()) as { statements: number }).statements;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    await new Promise<void>((exited) => {
      this.child.once('exit', () => exited());
      this.child.kill('SIGTERM');
    });
  }
}
