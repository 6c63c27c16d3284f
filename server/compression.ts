// Owns the demo server's response compression: which content coding a request's Accept-Encoding
// asks for (RFC 9110 12.5.3: codings with weights, `*`, `identity`), and brotli or gzip for bodies
// of 1 KB or more of a type that compresses. When the client accepts none of the codings offered,
// the body goes out as it is: RFC 9110 12.1 lets a server disregard the header rather than answer
// 406, and no client refuses identity on purpose without accepting something else. Koa's own
// ctx.acceptsEncodings() answers otherwise on headers the tests pin: it reads `Q=0.2` as no weight,
// takes weights the RFC's grammar has no room for (`q=2`, `q=0.0001`, `;level=9`), and breaks a tie
// by the client's order of listing rather than the server's preference below.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Koa from 'koa';

export type Coding = 'br' | 'gzip';

/** The codings offered, in the server's order of preference when the client weighs them equally. */
const OFFERED: readonly Coding[] = ['br', 'gzip'];

const compressors: Readonly<Record<Coding, (body: Buffer) => Promise<Buffer>>> = {
  // Quality 4 of 11: most of brotli's gain on JSON at a fraction of its top cost in CPU.
  br: (body) => promisify(zlib.brotliCompress)(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (body) => promisify(zlib.gzip)(body),
};

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 9110 12.4.2: 0 to 1 with at most three decimals; anything else makes the member unreadable.
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The weight each coding named in an Accept-Encoding value gets, by lower-case name (`*` too). A
 * member that cannot be read (a bad weight such as `q=-1` or `q=2`, another parameter) is left out;
 * a coding named twice keeps its first weight. Example: `gzip;q=0.5, BR, *;q=0` ->
 * `Map {gzip => 0.5, br => 1, * => 0}`.
 */
export function acceptedWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const member of header.split(',')) {
    const [name = '', ...parameters] = member.split(';').map((part) => part.trim());
    if (!TOKEN.test(name) || parameters.length > 1) continue;
    const weight = parameters.length === 0 ? '1' : WEIGHT.exec(parameters[0] ?? '')?.[1];
    const coding = name.toLowerCase();
    if (weight !== undefined && !weights.has(coding)) weights.set(coding, Number(weight));
  }
  return weights;
}

/**
 * The coding to send a body in, or undefined to send it as it is. No header means as it is (every
 * client reads that); otherwise the offered coding with the highest weight above 0, unless the
 * client weighs identity higher. Examples: `gzip;q=0.5, br` -> `br`; `identity;q=0` -> undefined
 * (nothing offered is accepted); `*` -> `br`; `identity, gzip;q=0.5` -> undefined.
 */
export function chooseCoding(header: string | undefined): Coding | undefined {
  if (header === undefined) return undefined;
  const weights = acceptedWeights(header);
  const wildcard = weights.get('*') ?? 0;
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of OFFERED) {
    const weight = weights.get(coding) ?? wildcard;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  const identity = weights.get('identity') ?? weights.get('*');
  return identity !== undefined && identity > bestWeight ? undefined : best;
}

const COMPRESSIBLE = /^(?:text\/|application\/(?:[\w.+-]+\+)?json$|application\/javascript$|image\/svg\+xml$)/;

/** The body as bytes when it is one this module may compress (not a stream, not already encoded). */
function bodyBytes(ctx: Koa.Context): Buffer | undefined {
  const { body } = ctx;
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  // Koa itself would send a plain object as JSON.
  if (typeof body === 'object' && body !== null && Object.getPrototypeOf(body) === Object.prototype)
    return Buffer.from(JSON.stringify(body));
  return undefined;
}

function mayCompress(ctx: Koa.Context): boolean {
  // Koa 3 gives undefined for a header that is not set.
  const encoded: unknown = ctx.response.get('Content-Encoding');
  const cacheControl: unknown = ctx.response.get('Cache-Control');
  return (
    ctx.method !== 'HEAD' &&
    ctx.status !== 204 &&
    ctx.status !== 304 &&
    (encoded === undefined || encoded === '') &&
    !(typeof cacheControl === 'string' && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)) &&
    COMPRESSIBLE.test(ctx.type)
  );
}

/**
 * Compresses answers of at least `thresholdBytes` (default 1 KB; smaller ones cost more to compress
 * than they save) in the coding chooseCoding picks. Every answer varies on Accept-Encoding.
 */
export function compression(thresholdBytes = 1024): Koa.Middleware {
  return async (ctx, next) => {
    ctx.vary('Accept-Encoding');
    await next();
    if (!mayCompress(ctx)) return;
    const coding = chooseCoding(ctx.request.headers['accept-encoding']);
    if (coding === undefined) return;
    const body = bodyBytes(ctx);
    if (body === undefined || body.length < thresholdBytes) return;
    // Koa keeps the Content-Type already set and sets the new Content-Length.
    ctx.body = await compressors[coding](body);
    ctx.set('Content-Encoding', coding);
  };
}
