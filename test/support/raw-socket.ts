// Owns talking HTTP/1.1 over a bare TCP socket for the tests that need what no HTTP client sends:
// malformed request lines and headers, unknown methods, CONNECT, oversized heads, a head that never
// ends. The bytes go out exactly as given; the answer is read back and parsed by hand.

import net from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawAnswer {
  readonly status: number;
  readonly reason: string;
  /** Header names in lower case; a repeated header's values joined with ', ' (as Node does). */
  readonly headers: Readonly<Record<string, string>>;
  /** Every header line as sent, to count repeated ones such as WWW-Authenticate. */
  readonly headerLines: readonly (readonly [string, string])[];
  /** The body as text, decoded first when it came gzip or br compressed. */
  readonly text: string;
  /** The body as sent (a compressed body stays compressed). */
  readonly bytes: Buffer;
  /** The text parsed as JSON, or undefined. */
  readonly body: unknown;
}

export interface RawOptions {
  /** The request was HEAD: the answer has no body whatever its Content-Length says. */
  readonly head?: boolean;
  /** Give up after this long (default 10 s). */
  readonly timeoutMs?: number;
  /** Send the bytes in pieces of this size, one write each, instead of in one write. */
  readonly pieceBytes?: number;
}

interface Head {
  readonly status: number;
  readonly reason: string;
  readonly headerLines: [string, string][];
  readonly bodyStart: number;
}

function parseHead(buffer: Buffer): Head | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
  if (match === null) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine.slice(0, 200))}`);
  const headerLines = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
  return { status: Number(match[1]), reason: match[2] ?? '', headerLines, bodyStart: end + 4 };
}

/** The body of a chunked answer once it is complete, else undefined. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a chunk size that is not a number');
    if (size === 0) return data.length >= lineEnd + 4 ? Buffer.concat(parts) : undefined;
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The whole answer in `buffer`, or undefined while it is incomplete (`closed`: no more will come). */
function parseAnswer(buffer: Buffer, options: RawOptions, closed: boolean): RawAnswer | undefined {
  const head = parseHead(buffer);
  if (head === undefined) return undefined;
  // An interim answer (100 Continue to `Expect: 100-continue`) comes before the answer itself.
  if (head.status >= 100 && head.status < 200) return parseAnswer(buffer.subarray(head.bodyStart), options, closed);
  const headers: Record<string, string> = {};
  for (const [name, value] of head.headerLines) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  const rest = buffer.subarray(head.bodyStart);
  let body: Buffer | undefined;
  if (options.head === true || head.status === 204 || head.status === 304) body = Buffer.alloc(0);
  else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(rest);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    body = rest.length >= length ? rest.subarray(0, length) : undefined;
  } else if (closed) body = rest;
  if (body === undefined) return undefined;
  const coding = headers['content-encoding'];
  const plain = coding === 'gzip' ? gunzipSync(body) : coding === 'br' ? brotliDecompressSync(body) : body;
  const text = plain.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: head.status, reason: head.reason, headers, headerLines: head.headerLines, text, bytes: body, body: json };
}

/**
 * Sends `request` on a new connection to 127.0.0.1:`port` and reads the first answer. Rejects when
 * the connection closes without a whole answer or the time runs out. Example:
 * `await rawExchange(port, 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n')` -> `{status: 400, ...}`.
 */
export function rawExchange(port: number, request: string | Buffer, options: RawOptions = {}): Promise<RawAnswer> {
  const bytes = typeof request === 'string' ? Buffer.from(request, 'latin1') : request;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (outcome: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new Error(
              `no whole answer within ${options.timeoutMs ?? 10000} ms; got ${JSON.stringify(received.toString('latin1').slice(0, 300))}`,
            ),
          ),
        ),
      options.timeoutMs ?? 10000,
    );
    const attempt = (closed: boolean): void => {
      try {
        const answer = parseAnswer(received, options, closed);
        if (answer !== undefined) finish(() => resolve(answer));
        else if (closed)
          finish(() =>
            reject(
              new Error(`the connection closed without a whole answer; got ${JSON.stringify(received.toString('latin1').slice(0, 300))}`),
            ),
          );
      } catch (error) {
        finish(() => reject(error instanceof Error ? error : new Error(String(error))));
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      attempt(false);
    });
    socket.on('end', () => attempt(true));
    socket.on('close', () => attempt(true));
    // A server that answers and closes while the request is still being written resets the rest.
    socket.on('error', () => attempt(true));
    socket.on('connect', () => {
      void (async () => {
        const size = options.pieceBytes ?? bytes.length;
        for (let at = 0; at < bytes.length && !done && socket.writable; at += size) {
          socket.write(bytes.subarray(at, at + size));
          if (size < bytes.length) await new Promise((wait) => setTimeout(wait, 1));
        }
      })();
    });
  });
}
