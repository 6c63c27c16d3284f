// Seals cursors (docs/query-language.md, "Cursors: cursor"): what a client holds is the cursor's
// content, padded to a multiple of 32 bytes and encrypted with AES-256-GCM under a key derived from
// the `cursorSecret` option, with the collection as associated data. A client can neither read one
// (a sort value of a field it may not see stays hidden) nor make or edit one (a forged cursor is no
// range oracle): a cursor that does not open is refused before any of its values is read.
//
// The nonce is synthetic (an HMAC of the collection and the padded content under a second derived
// key): a cursor depends on nothing but its content, so the same page gives the same body (and
// ETag) twice and no random source is needed per cursor; two cursors are equal only when they hold
// the same position of the same sort, which a client learns anyway by using them. Nonces of distinct
// contents collide no more often than random 96-bit nonces would.

import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { readCursorContent, writeCursorContent, type CursorToken } from './syntax';

/** Seals and opens the cursors of one mount. */
export interface CursorSeal {
  /** True without a `cursorSecret`: the key was drawn at random for this process. */
  readonly ephemeral: boolean;
  /** `users`, `{sort: ['id:asc'], direction: 'next', at: ['15']}` -> 80 base64url characters. */
  seal(collection: string, token: CursorToken): string;
  /** The token, or undefined when `text` is not a cursor sealed for `collection` by any of the keys. */
  open(collection: string, text: string): CursorToken | undefined;
}

interface Keys {
  readonly cipher: KeyObject;
  readonly nonce: KeyObject;
}

const FORMAT = 'koa-query-modifiers cursor v1';
/** Content is padded to a multiple of this many bytes, so a cursor's length tells no finer. */
export const CURSOR_BLOCK = 32;
const NONCE = 12;
const TAG = 16;
const base64url = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function deriveKeys(secret: string | Buffer): Keys {
  const bytes = Buffer.from(hkdfSync('sha256', secret, FORMAT, 'aes-256-gcm key and nonce key', 64));
  return { cipher: createSecretKey(bytes.subarray(0, 32)), nonce: createSecretKey(bytes.subarray(32)) };
}

let processSecret: Buffer | undefined;

/** One random secret per process, for every mount without a `cursorSecret`. */
function ephemeralSecret(): Buffer {
  processSecret ??= randomBytes(32);
  return processSecret;
}

/** The content's UTF-8 bytes, a 0x80 byte, then zeros up to the next multiple of CURSOR_BLOCK. */
function pad(content: string): Buffer {
  const length = Buffer.byteLength(content, 'utf8');
  const padded = Buffer.alloc(Math.ceil((length + 1) / CURSOR_BLOCK) * CURSOR_BLOCK);
  padded.write(content, 'utf8');
  padded[length] = 0x80;
  return padded;
}

function unpad(padded: Buffer): string | undefined {
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 0x80) return undefined;
  try {
    return utf8.decode(padded.subarray(0, end));
  } catch {
    return undefined;
  }
}

/** nonce, ciphertext, tag. */
function encrypt(keys: Keys, associated: Buffer, padded: Buffer): Buffer {
  const nonce = createHmac('sha256', keys.nonce).update(associated).update(padded).digest().subarray(0, NONCE);
  const cipher = createCipheriv('aes-256-gcm', keys.cipher, nonce, { authTagLength: TAG });
  cipher.setAAD(associated);
  const body = cipher.update(padded);
  cipher.final();
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

function decrypt(keys: Keys, associated: Buffer, sealed: Buffer): Buffer | undefined {
  const decipher = createDecipheriv('aes-256-gcm', keys.cipher, sealed.subarray(0, NONCE), { authTagLength: TAG });
  decipher.setAAD(associated);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  const body = decipher.update(sealed.subarray(NONCE, sealed.length - TAG));
  try {
    decipher.final();
    return body;
  } catch {
    return undefined;
  }
}

/** The bytes of `text` when it is base64url in its one canonical spelling and as long as a sealed cursor can be. */
function sealedBytes(text: string): Buffer | undefined {
  if (!base64url.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  const body = bytes.length - NONCE - TAG;
  if (body < CURSOR_BLOCK || body % CURSOR_BLOCK !== 0) return undefined;
  // Node ignores trailing bits; only the spelling seal() writes is accepted.
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/**
 * A map that keeps at least its newest `size` entries and at most twice as many: when the newer of
 * its two generations is full, the older is dropped whole (deleting a Map's oldest entry one at a
 * time makes V8 walk over the deleted ones to find the next).
 */
class Recent<V> {
  private newer = new Map<string, V>();
  private older = new Map<string, V>();

  constructor(private readonly size: number) {}

  get(key: string): V | undefined {
    return this.newer.get(key) ?? this.older.get(key);
  }

  set(key: string, value: V): void {
    if (this.newer.size >= this.size) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }
}

/** How many cursors each mount remembers at least, either way; only content this long or shorter is remembered. */
const RECENT = 512;
const RECENT_CONTENT = 256;

const frozenCopy = (token: CursorToken): CursorToken =>
  Object.freeze({
    sort: Object.freeze([...token.sort]),
    direction: token.direction,
    at: token.at === null ? null : Object.freeze([...token.at]),
  });

/**
 * The seal of a mount: `cursorSecret` as given (a string, or a list whose first entry seals and
 * every entry opens), or a random key for this process when there is none. The same content always
 * seals to the same text, so the texts of the cursors it sealed or opened lately are remembered: a
 * walk opens the cursor the page before sealed, and the first page of a query seals the same one
 * for every client, without the cipher.
 */
export function createCursorSeal(secret: string | readonly string[] | undefined): CursorSeal {
  const secrets = secret === undefined ? [ephemeralSecret()] : typeof secret === 'string' ? [secret] : secret;
  const keys = secrets.map(deriveKeys);
  const sealing = keys[0];
  if (sealing === undefined) throw new Error('koa-query-modifiers: cursorSecret must not be an empty list');
  // Collection names come from the catalog, never from a request, so this map stays as small as it.
  const bound = new Map<string, Buffer>();
  const associated = (collection: string): Buffer => {
    let data = bound.get(collection);
    if (data === undefined) {
      // Collection names hold no NUL (options-schema.ts), so the data ends where its first NUL is.
      data = Buffer.from(`${FORMAT}\u0000${collection}\u0000`, 'utf8');
      bound.set(collection, data);
    }
    return data;
  };
  const sealed = new Recent<string>(RECENT);
  const opened = new Recent<CursorToken>(RECENT);
  const openAnew = (collection: string, text: string): CursorToken | undefined => {
    const bytes = sealedBytes(text);
    if (bytes === undefined) return undefined;
    const data = associated(collection);
    for (const key of keys) {
      const padded = decrypt(key, data, bytes);
      if (padded === undefined) continue;
      const content = unpad(padded);
      return content === undefined ? undefined : readCursorContent(content);
    }
    return undefined;
  };
  return Object.freeze({
    ephemeral: secret === undefined,
    seal(collection: string, token: CursorToken): string {
      const content = writeCursorContent(token);
      if (content.length > RECENT_CONTENT) return encrypt(sealing, associated(collection), pad(content)).toString('base64url');
      // Collection names hold no NUL, so neither key can be another collection's.
      const kept = sealed.get(`${collection}\u0000${content}`);
      if (kept !== undefined) return kept;
      const text = encrypt(sealing, associated(collection), pad(content)).toString('base64url');
      sealed.set(`${collection}\u0000${content}`, text);
      // What open() gives for this text: this token, frozen as an opened one is.
      opened.set(`${collection}\u0000${text}`, frozenCopy(token));
      return text;
    },
    open(collection: string, text: string): CursorToken | undefined {
      const kept = opened.get(`${collection}\u0000${text}`);
      if (kept !== undefined) return kept;
      const token = openAnew(collection, text);
      if (token !== undefined && text.length <= 2 * RECENT_CONTENT) opened.set(`${collection}\u0000${text}`, token);
      return token;
    },
  });
}
