// Owns the size and shape the demo server asks of a request before anything reads it: a request
// target over 16 KiB is 414, header fields over 16 KiB together are 431 (both LIMIT_EXCEEDED), and
// an HTTP/1.1 request needs exactly one Host header (RFC 9112 3.2), else 400 MALFORMED_PARAMETER.
// Node's parser holds requests up to a larger size (http-server.ts), so these answers come from
// here, logged with the request's id; only bigger requests meet the parser's own refusal.
import type Koa from 'koa';
import { sendProblem, type ServerProblem } from './problems';

/** Longest request target (path and query string) answered; the plugin's own cap on the query string is 8192 characters. */
export const MAX_TARGET_BYTES = 16 * 1024;

/** Largest total of the header field lines (`Name: value` and their line ends). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The bytes of the header field lines as they came (Node keeps them as latin1 strings, one character a byte). */
function headerBytes(rawHeaders: readonly string[]): number {
  let total = 0;
  // Name, ': ', value and CRLF.
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) total += (rawHeaders[i]?.length ?? 0) + (rawHeaders[i + 1]?.length ?? 0) + 4;
  return total;
}

function hostHeaders(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') count += 1;
  return count;
}

/** What is wrong with the request's size or shape, or undefined. Example: a 20 KB query string -> 414. */
export function requestProblem(req: {
  readonly url?: string | undefined;
  readonly rawHeaders: readonly string[];
  readonly httpVersion: string;
}): ServerProblem | undefined {
  const target = req.url ?? '';
  if (target.length > MAX_TARGET_BYTES) {
    return {
      status: 414,
      code: 'LIMIT_EXCEEDED',
      detail: `The request target has ${target.length} bytes; at most ${MAX_TARGET_BYTES} are read`,
    };
  }
  const bytes = headerBytes(req.rawHeaders);
  if (bytes > MAX_HEADER_BYTES) {
    return { status: 431, code: 'LIMIT_EXCEEDED', detail: `The header fields have ${bytes} bytes; at most ${MAX_HEADER_BYTES} are read` };
  }
  const hosts = hostHeaders(req.rawHeaders);
  if (hosts > 1 || (hosts === 0 && req.httpVersion === '1.1')) {
    return { status: 400, code: 'MALFORMED_PARAMETER', detail: 'An HTTP/1.1 request needs exactly one Host header' };
  }
  return undefined;
}

/** Answers a request over the limits (or without its Host) before any other middleware sees it. */
export function requestLimits(): Koa.Middleware {
  return async (ctx, next) => {
    const answer = requestProblem(ctx.req);
    if (answer === undefined) {
      await next();
      return;
    }
    sendProblem(ctx, answer);
  };
}
