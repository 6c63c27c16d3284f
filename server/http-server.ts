// Owns the demo server's HTTP listener: Node's server around the Koa app, its parser's size limit and
// timeouts, and problem+json answers for requests that never reach the app: one the parser cannot
// read (400 MALFORMED_PARAMETER), one over the parser's size limit (414 or 431 LIMIT_EXCEEDED), one
// whose head did not arrive in time (408 LIMIT_EXCEEDED), and CONNECT (405 METHOD_NOT_ALLOWED).
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { requestIdFrom, type Logger } from './logging';
import { methodNotAllowed, rawProblem, type ServerProblem } from './problems';
import { MAX_HEADER_BYTES, MAX_TARGET_BYTES } from './request-limits';

/**
 * Node's limit on a request's head (request line and headers). Above the app's own limits
 * (request-limits.ts), so that a request over those is still read and answered with its request id.
 */
export const MAX_HEAD_BYTES = MAX_TARGET_BYTES + MAX_HEADER_BYTES + 16 * 1024;

export interface HttpServerOptions {
  /** How long a client may take to send a request's head (Node's `headersTimeout`); default 60 s. */
  readonly headersTimeoutMs?: number;
  /** How long a client may take to send a whole request (Node's `requestTimeout`); default 300 s. */
  readonly requestTimeoutMs?: number;
  /** How often Node looks for requests past those times; default 30 s. */
  readonly timeoutCheckMs?: number;
}

// The first bytes of a request line: a method token and a space.
const REQUEST_LINE_START = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /;

/** The answer to an error of Node's parser or of the connection; undefined when there is no one to answer. */
function parserProblem(error: Error & { code?: string; rawPacket?: Buffer }): ServerProblem | undefined {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      // Node counts the request line with the headers. When the part received starts the request,
      // it shows the request line: one longer than the app's own limit on targets is the 414 the app
      // would have sent. A part from further on cannot tell, and the headers are blamed.
      const received = error.rawPacket?.toString('latin1') ?? '';
      const lineEnd = received.indexOf('\n');
      const longLine = REQUEST_LINE_START.test(received) && (lineEnd === -1 || lineEnd > MAX_TARGET_BYTES);
      return longLine
        ? { status: 414, code: 'LIMIT_EXCEEDED', detail: `The request line is longer than the ${MAX_HEAD_BYTES} bytes this server reads` }
        : {
            status: 431,
            code: 'LIMIT_EXCEEDED',
            detail: `The request line and header fields are longer than the ${MAX_HEAD_BYTES} bytes this server reads`,
          };
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'LIMIT_EXCEEDED', detail: 'The request did not arrive in time' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 400, code: 'LIMIT_EXCEEDED', detail: 'The chunk extensions of the request body are too long' };
    default:
      // HPE_* are the parser's: anything else (ECONNRESET, EPIPE) is the connection failing.
      if (error.code?.startsWith('HPE_') !== true) return undefined;
      return {
        status: 400,
        code: 'MALFORMED_PARAMETER',
        detail: `The request cannot be read as HTTP/1.1: ${error.message.replace(/^Parse Error: /, '')}`,
      };
  }
}

/** The response being written on a connection, if any: a later pipelined request waits for it. */
type InFlight = WeakMap<Duplex, http.ServerResponse>;

/**
 * Answers a connection the app never saw and closes it: after the response in flight on it, if a
 * later pipelined request is the one that failed to parse. A socket that is gone, or an error that
 * is the connection's own, gets no answer.
 */
function refuse(socket: Duplex, answer: ServerProblem | undefined, inFlight: InFlight, requestId: string): void {
  if (answer === undefined || !socket.writable) {
    socket.destroy();
    return;
  }
  const pending = inFlight.get(socket);
  if (pending !== undefined && !pending.writableFinished) {
    pending.once('finish', () => refuse(socket, answer, inFlight, requestId));
    pending.once('close', () => {
      if (!pending.writableFinished) socket.destroy();
    });
    return;
  }
  socket.end(rawProblem(answer, requestId));
  // A client that keeps sending would hold the connection open: give the answer time to leave.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * `createHttpServer(app, logger).listen(3000)`: the app behind Node's parser, every refusal of the
 * parser a problem+json answer with an `X-Request-Id`, logged like any request.
 */
export function createHttpServer(app: Koa, logger: Logger, options: HttpServerOptions = {}): http.Server {
  /* eslint-disable @typescript-eslint/no-misused-promises -- Koa's callback answers every error itself (ctx.onerror): its promise never rejects */
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEAD_BYTES,
      // Node's own 400 for a missing Host is text/plain; request-limits.ts answers it instead.
      requireHostHeader: false,
      ...(options.headersTimeoutMs === undefined ? {} : { headersTimeout: options.headersTimeoutMs }),
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
      ...(options.timeoutCheckMs === undefined ? {} : { connectionsCheckingInterval: options.timeoutCheckMs }),
    },
    app.callback(),
  );
  /* eslint-enable @typescript-eslint/no-misused-promises */
  const inFlight: InFlight = new WeakMap();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => inFlight.set(req.socket, res));
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    const answer = parserProblem(error);
    const requestId = requestIdFrom(undefined);
    if (answer !== undefined) logger.warn({ requestId, status: answer.status, code: answer.code, parserError: error.code }, 'request');
    refuse(socket, answer, inFlight, requestId);
  });
  // Without a listener Node drops CONNECT without an answer; the server proxies nothing.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const answer = methodNotAllowed('CONNECT');
    const requestId = requestIdFrom(req.headers['x-request-id']?.toString());
    logger.warn({ requestId, method: 'CONNECT', path: req.url, status: answer.status, code: answer.code }, 'request');
    refuse(socket, answer, inFlight, requestId);
  });
  return server;
}
