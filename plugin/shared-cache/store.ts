// Talks to Redis for the shared cache: every call bounded by a short timeout, and after a failure
// Redis is left alone for a moment, so a Redis that is down or slow costs a request almost nothing
// and never an error (docs/scaling.md, "When something fails").

import type { CachedAnswer, SharedCacheClient } from './types';

/** How long Redis is skipped after a failed or late call. */
const PAUSE_MS = 1000;

/** `{stamp: '3.7', etag: 'abc', truncated: false, body: '[]'}` -> `3.7\nabc\n0\n[]`: the body is not parsed again. */
export function encodeAnswer(answer: CachedAnswer): string {
  return `${answer.stamp}\n${answer.etag}\n${answer.truncated ? 1 : 0}\n${answer.body}`;
}

/** The reverse of encodeAnswer; undefined for anything else found under the key. */
export function decodeAnswer(text: string): CachedAnswer | undefined {
  const first = text.indexOf('\n');
  const second = text.indexOf('\n', first + 1);
  const third = text.indexOf('\n', second + 1);
  if (first < 0 || second < 0 || third < 0) return undefined;
  return {
    stamp: text.slice(0, first),
    etag: text.slice(first + 1, second),
    truncated: text.slice(second + 1, third) === '1',
    body: text.slice(third + 1),
  };
}

export class AnswerStore {
  private pausedUntil = 0;

  constructor(
    private readonly client: SharedCacheClient,
    private readonly timeoutMs: number,
    private readonly ttlMs: number,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** The answer kept under `key`, or undefined when there is none or Redis does not answer in time. */
  async get(key: string): Promise<CachedAnswer | undefined> {
    const text = await this.call(() => this.client.get(key));
    return typeof text === 'string' ? decodeAnswer(text) : undefined;
  }

  /** Keeps `answer` under `key` for the time to live; a failure is only logged. */
  async set(key: string, answer: CachedAnswer): Promise<void> {
    await this.call(() => this.client.set(key, encodeAnswer(answer), 'PX', this.ttlMs));
  }

  private available(): boolean {
    if (performance.now() < this.pausedUntil) return false;
    const { status } = this.client;
    return status === undefined || status === 'ready';
  }

  private async call<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (!this.available()) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        this.pause(new Error(`Redis did not answer within ${this.timeoutMs} ms (cache.timeoutMs)`));
        resolve(undefined);
      }, this.timeoutMs);
    });
    let pending: Promise<T | undefined>;
    try {
      pending = work().catch((error: unknown) => {
        this.pause(error);
        return undefined;
      });
    } catch (error) {
      this.pause(error);
      return undefined;
    }
    try {
      return await Promise.race([pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private pause(error: unknown): void {
    const wasServing = performance.now() >= this.pausedUntil;
    this.pausedUntil = performance.now() + PAUSE_MS;
    if (wasServing) this.failed(error);
  }
}
