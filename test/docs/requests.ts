// Reads what the docs write as an HTTP exchange: request lines (`GET /api/users?...`, optionally with
// continuation lines and headers), curl commands, and shown responses (status line, headers, body).

import { DocJsonError, parseDocJson, type DocValue } from './doc-json';
import type { NumberedLine } from './markdown';

export interface ExampleRequest {
  readonly method: string;
  /** Path and query string as the docs write them (continuation lines joined). */
  readonly target: string;
  /** The Host the example talks to: the curl URL's, or the demo server's default address. */
  readonly host: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly line: number;
}

export interface ShownResponse {
  readonly line: number;
  readonly status?: number;
  readonly reason?: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body values shown, in order (several only for a block of several requests). */
  readonly bodies: readonly DocValue[];
  /** The body shown as text, when the shown headers say it is CSV (`Content-Type: text/csv`): compared as text. */
  readonly text?: string;
}

/** Where the demo server listens by default; request lines without a host talk to it. */
export const DEMO_HOST = 'localhost:3000';

const requestLine = /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\/\S.*)$/;
const continuation = /^\s+[&?]\S/;
const headerLine = /^([A-Za-z][A-Za-z0-9-]*): ?(.*)$/;
const statusLine = /^HTTP\/\d(?:\.\d)? (\d{3})(?: (.*))?$/;

/** A request target ends at the line's end or at two spaces, after which a comment may follow. */
function targetOf(text: string): string {
  return text.trim().split(/\s{2,}/)[0] ?? '';
}

/** `3`..`5` -> `3,4,5`; undefined for a range that is empty or too long to be an example. */
function integers(from: string, to: string): string | undefined {
  const [a, b] = [Number(from), Number(to)];
  if (!(a < b) || b - a > 100_000) return undefined;
  return Array.from({ length: b - a + 1 }, (_, i) => String(a + i)).join(',');
}

/**
 * `in[id]=1,2,3,...,600` sends every integer from 3 to 600: the docs shorten long lists so. A curl
 * command writes such a list with the shell's `$(seq -s, 1 600)`, so it can be pasted as it is.
 * Example: `expandRanges('in[id]=1,2,…,5')` and `expandRanges('in[id]=$(seq -s, 1 5)')` -> `'in[id]=1,2,3,4,5'`.
 */
export function expandRanges(target: string): string {
  return target
    .replace(/(-?\d+),(?:\.\.\.|…),(-?\d+)/g, (whole, from: string, to: string) => integers(from, to) ?? whole)
    .replace(/\$\(seq -s, (-?\d+) (-?\d+)\)/g, (whole, from: string, to: string) => integers(from, to) ?? whole);
}

/** `GET /api/users?fields=id  all users` -> method and target; anything else -> undefined. */
function readRequestLine(row: NumberedLine): { method: string; target: string } | undefined {
  const m = requestLine.exec(row.text);
  return m === null ? undefined : { method: m[1] ?? 'GET', target: targetOf(m[2] ?? '') };
}

/** A request line with its continuation and header lines, and the lines it owns after them. */
export interface RequestRun {
  readonly request: ExampleRequest;
  readonly rest: readonly NumberedLine[];
}

/**
 * Splits a plain block into its requests; each owns the lines up to the next request line.
 * Example: ["GET /api/users?fields=id", "[{\"id\":1}, …]"] -> one request whose `rest` is the body line.
 */
export function readRequestBlock(lines: readonly NumberedLine[]): { runs: RequestRun[]; leading: NumberedLine[] } {
  const runs: RequestRun[] = [];
  const leading: NumberedLine[] = [];
  let i = 0;
  while (i < lines.length) {
    const row = lines[i] as NumberedLine;
    const start = readRequestLine(row);
    i += 1;
    if (start === undefined) {
      if (row.text.trim() !== '') leading.push(row);
      continue;
    }
    let target = start.target;
    for (; i < lines.length && continuation.test(lines[i]?.text ?? ''); i += 1) target += targetOf(lines[i]?.text ?? '');
    const headers: [string, string][] = [];
    for (let h = headerLine.exec(lines[i]?.text ?? ''); i < lines.length && h !== null; h = headerLine.exec(lines[i]?.text ?? '')) {
      headers.push([h[1] ?? '', h[2] ?? '']);
      i += 1;
    }
    const rest: NumberedLine[] = [];
    for (; i < lines.length && readRequestLine(lines[i] as NumberedLine) === undefined; i += 1) rest.push(lines[i] as NumberedLine);
    runs.push({ request: { method: start.method, target, host: DEMO_HOST, headers, line: row.line }, rest });
  }
  return { runs, leading };
}

/** Shell words of one command line, quoted as sh reads them; stops at an unquoted `>`, `|`, `;`, `&` or `#`. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const part = /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([^\s'"\\]+)/y;
  let at = 0;
  for (;;) {
    while (/\s/.test(text.charAt(at))) at += 1;
    if (at >= text.length || /[>|;&#]/.test(text.charAt(at))) return words;
    let word = '';
    // A word may run quoted and unquoted parts together (`'a'b"c"`).
    while (at < text.length && !/\s/.test(text.charAt(at))) {
      part.lastIndex = at;
      const m = part.exec(text);
      if (m === null) return words;
      word += m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? m[4] ?? '';
      at = part.lastIndex;
    }
    words.push(word);
  }
}

const curlFlags: ReadonlySet<string> = new Set(['-g', '--globoff', '-s', '--silent', '-S', '-sS', '-i', '--include', '-v']);

/**
 * Reads a curl command line, or says why it cannot be run.
 * Example: `curl -g 'http://localhost:3000/api/users?limit=1'` -> GET /api/users?limit=1 on localhost:3000.
 */
export function readCurl(row: NumberedLine): ExampleRequest | string | undefined {
  const words = shellWords(row.text.replace(/^\s*\$\s+/, ''));
  if (words[0] !== 'curl') return undefined;
  let method = 'GET';
  let url: string | undefined;
  const headers: [string, string][] = [];
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i] ?? '';
    if (word === '-X' || word === '--request') method = words[++i] ?? '';
    else if (word === '-I' || word === '--head') method = 'HEAD';
    else if (word === '-H' || word === '--header') {
      const h = headerLine.exec(words[++i] ?? '');
      if (h === null) return `curl header "${words[i] ?? ''}" is not "Name: value"`;
      headers.push([h[1] ?? '', h[2] ?? '']);
    } else if (/^https?:\/\//.test(word)) url = word;
    else if (!curlFlags.has(word)) return `curl option "${word}" is not one the docs check understands`;
  }
  const m = url === undefined ? null : /^https?:\/\/([^/?#]+)(\/[^#]*)?$/.exec(url);
  if (m === null) return 'curl command without an http:// URL';
  return { method, target: m[2] ?? '/', host: m[1] ?? DEMO_HOST, headers, line: row.line };
}

/** Whether a block's first line starts a shown response: a status line, a header or a JSON body. */
export function looksLikeResponse(lines: readonly NumberedLine[]): boolean {
  const first = lines.find((l) => l.text.trim() !== '')?.text ?? '';
  return statusLine.test(first) || headerLine.test(first) || /^\s*[[{]/.test(first);
}

/** Reads a shown response: an optional status line, headers, a blank line, then body values. */
export function readResponse(lines: readonly NumberedLine[]): ShownResponse | { problem: string; line: number } {
  const rows = lines.slice(
    Math.max(
      0,
      lines.findIndex((l) => l.text.trim() !== ''),
    ),
  );
  const line = rows[0]?.line ?? 0;
  const status = statusLine.exec(rows[0]?.text ?? '');
  let i = status === null ? 0 : 1;
  const headers: [string, string][] = [];
  for (; i < rows.length; i += 1) {
    const h = headerLine.exec(rows[i]?.text ?? '');
    if (h === null) break;
    headers.push([h[1] ?? '', h[2] ?? '']);
  }
  const body = rows.slice(i);
  const text = body.map((l) => l.text).join('\n');
  const shownStatus = status === null ? {} : { status: Number(status[1]), ...(status[2] ? { reason: status[2] } : {}) };
  if (headers.some(([name, value]) => name.toLowerCase() === 'content-type' && value.startsWith('text/csv'))) {
    // A CSV body: every line as shown, the blank line after the headers left out.
    return {
      line,
      headers,
      bodies: [],
      text: `${body
        .map((l) => l.text)
        .join('\n')
        .replace(/^\n/, '')}\n`,
      ...shownStatus,
    };
  }
  try {
    const bodies = parseDocJson(text);
    return {
      line,
      headers,
      bodies,
      ...(status === null ? {} : { status: Number(status[1]), ...(status[2] ? { reason: status[2] } : {}) }),
    };
  } catch (error) {
    if (!(error instanceof DocJsonError)) throw error;
    const row = body[text.slice(0, error.offset).split('\n').length - 1];
    return { problem: `the shown response is not JSON as the docs write it: ${error.message}`, line: row?.line ?? line };
  }
}
