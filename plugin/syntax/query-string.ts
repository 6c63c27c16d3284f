// Reads a raw query string into ordered (key, value) pairs, keeping each pair's raw text so that
// page links can be rebuilt without re-encoding what the client sent
// (docs/query-language.md, "How the query string is read").

export interface QueryPair {
  /** The decoded key; exactly as sent when it cannot be decoded. */
  readonly key: string;
  /** The decoded value; exactly as sent when it cannot be decoded. */
  readonly value: string;
  /** The segment exactly as sent, e.g. `filter%5Bid%5D=%3E%3D5`. */
  readonly raw: string;
  /** Which part is not valid percent-encoded UTF-8 (`key` when both are); undefined when both decode. */
  readonly undecodable: 'key' | 'value' | undefined;
}

function decodePart(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * `filter%5Bname%E0%5D` -> `filter[name%E0]`: `+` and the escapes of ASCII characters decoded, every
 * other escape left as written. Enough to recognise a key whose full decoding fails.
 */
export function decodeAsciiEscapes(text: string): string {
  return text.replace(/\+/g, ' ').replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** `a=1&&b=2` -> `['a=1', 'b=2']`: the segments as sent, empty ones left out. */
export function querySegments(queryString: string): string[] {
  return queryString.split('&').filter((segment) => segment !== '');
}

/** `filter[id]=%3E%3D5&sort[name]` -> `[{key: 'filter[id]', value: '>=5'}, {key: 'sort[name]', value: ''}]` */
export function parseQueryString(queryString: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const raw of querySegments(queryString)) {
    const equals = raw.indexOf('=');
    const rawKey = equals === -1 ? raw : raw.slice(0, equals);
    const rawValue = equals === -1 ? '' : raw.slice(equals + 1);
    const key = decodePart(rawKey);
    const value = decodePart(rawValue);
    const undecodable = key === undefined ? 'key' : value === undefined ? 'value' : undefined;
    pairs.push({ key: key ?? rawKey, value: value ?? rawValue, raw, undecodable });
  }
  return pairs;
}
