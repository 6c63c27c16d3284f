// Reads a raw query string into ordered (key, value) pairs, keeping each pair's raw text so that
// page links can be rebuilt without re-encoding what the client sent (decisions.md 1).

export interface QueryPair {
  readonly key: string;
  readonly value: string;
  /** The segment exactly as sent, e.g. `filter%5Bid%5D=%3E%3D5`. */
  readonly raw: string;
  /** Set when the segment could not be percent-decoded; key and value then hold the raw text. */
  readonly undecodable: boolean;
}

function decodePart(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** `filter[id]=%3E%3D5&sort[name]` -> `[{key: 'filter[id]', value: '>=5'}, {key: 'sort[name]', value: ''}]` */
export function parseQueryString(queryString: string): QueryPair[] {
  const pairs: QueryPair[] = [];
  for (const raw of queryString.split('&')) {
    if (raw === '') continue;
    const equals = raw.indexOf('=');
    const rawKey = equals === -1 ? raw : raw.slice(0, equals);
    const rawValue = equals === -1 ? '' : raw.slice(equals + 1);
    const key = decodePart(rawKey);
    const value = decodePart(rawValue);
    if (key === undefined || value === undefined) {
      pairs.push({ key: key ?? rawKey, value: rawValue, raw, undecodable: true });
    } else {
      pairs.push({ key, value, raw, undecodable: false });
    }
  }
  return pairs;
}
