// A minimal HTTP client for the reliability suites: the path goes out byte for byte as given (no URL
// normalisation, so raw brackets, bad percent-encodings and latin-1 bytes reach the server as
// written), over a keep-alive agent so thousands of requests stay fast.

import http from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly body: unknown;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** GET `origin + path`; `path` starts with `/` and is sent unchanged. */
export function rawGet(
  origin: string,
  path: string,
  options: { headers?: http.OutgoingHttpHeaders; agent?: http.Agent | false } = {},
): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolveGet, rejectGet) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'GET',
        path,
        headers: options.headers,
        agent: options.agent === undefined ? agent : options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolveGet({ status: res.statusCode ?? 0, headers: res.headers, text, body: parse(text) });
        });
        res.on('error', rejectGet);
      },
    );
    req.on('error', rejectGet);
    req.end();
  });
}

/** Closes the idle keep-alive sockets (call in `after`). */
export function closeIdleSockets(): void {
  agent.destroy();
}
