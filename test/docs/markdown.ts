// Splits a markdown file into its fenced blocks, each with the prose lines between it and the block
// before, and reads the `<!-- example: ... -->` markers that say how a block's requests are run.

/** One line of a file with its 1-based number. */
export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

export interface FencedBlock {
  /** The info string after the opening fence (`json`, `sh`, or empty). */
  readonly info: string;
  /** Line of the opening fence. */
  readonly line: number;
  /** The content, with the fence's indentation removed. */
  readonly lines: readonly NumberedLine[];
  /** The non-blank lines between the previous block (or the file's start) and this block. */
  readonly before: readonly NumberedLine[];
}

const fence = /^( *)(`{3,}|~{3,})\s*([^`\s]*)/;

/** Example: "# T\n```json\n{}\n```\n" -> one block, info 'json', one content line (line 3). */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split(/\r?\n/);
  let before: NumberedLine[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const opening = fence.exec(lines[i] ?? '');
    if (opening === null) {
      if ((lines[i] ?? '').trim() !== '') before.push({ text: lines[i] ?? '', line: i + 1 });
      continue;
    }
    const [, indent = '', marks = '', info = ''] = opening;
    const content: NumberedLine[] = [];
    let j = i + 1;
    for (; j < lines.length; j += 1) {
      const row = lines[j] ?? '';
      const closing = /^ *(`{3,}|~{3,})\s*$/.exec(row);
      if (closing !== null && closing[1]?.[0] === marks[0] && (closing[1]?.length ?? 0) >= marks.length) break;
      // Content indented like its fence (a block inside a list item) loses that indentation.
      const strip = Math.min(indent.length, row.length - row.trimStart().length);
      content.push({ text: row.slice(strip), line: j + 1 });
    }
    blocks.push({ info, line: i + 1, lines: content, before });
    before = [];
    i = j;
  }
  return blocks;
}

/** How a block's requests are run: against the demo app with these settings, or not at all. */
export type Setup =
  | { readonly kind: 'demo'; readonly options: Readonly<Record<string, unknown>>; readonly env: Readonly<Record<string, string>> }
  | { readonly kind: 'not-demo'; readonly reason: string };

export const DEMO: Setup = { kind: 'demo', options: {}, env: {} };

const markerLine = /^\s*<!--\s*example\b(.*?)-->\s*$/;

/** Whether a prose line is meant as a marker (so a misspelt one is reported, not ignored). */
export function looksLikeMarker(text: string): boolean {
  return /^\s*<!--\s*example\b/.test(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The end (exclusive) of the JSON object starting at `text[start] === '{'`, strings skipped. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    const c = text.charAt(i);
    if (c === '"') {
      for (i += 1; i < text.length && text.charAt(i) !== '"'; i += 1) if (text.charAt(i) === '\\') i += 1;
    } else if (c === '{') {
      depth += 1;
    } else if (c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Reads a marker line, or says what is wrong with it.
 * Example: `<!-- example: options={"limits":{"maxRelatedRows":100}} -->` -> demo setup with those options.
 */
export function parseMarker(text: string): Setup | string {
  const body = markerLine.exec(text)?.[1]?.trim();
  if (body === undefined || !body.startsWith(':'))
    return 'a marker reads `<!-- example: not-demo <why> -->`, `<!-- example: options={...} -->` or `<!-- example: env={...} -->`';
  let rest = body.slice(1).trim();
  if (/^not-demo\b/.test(rest)) return { kind: 'not-demo', reason: rest.slice('not-demo'.length).trim() || 'not against the demo server' };
  const found: { options: Record<string, unknown>; env: Record<string, string> } = { options: {}, env: {} };
  while (rest !== '') {
    const name = /^(options|env)=\{/.exec(rest)?.[1];
    if (name !== 'options' && name !== 'env') return `unknown marker text "${rest}"`;
    const start = name.length + 1;
    const end = objectEnd(rest, start);
    if (end === -1) return `${name}= is not followed by a whole JSON object`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(rest.slice(start, end));
    } catch (error) {
      return `${name}= is not JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!isRecord(parsed)) return `${name}= must be a JSON object`;
    if (name === 'options') {
      found.options = parsed;
    } else {
      const entries = Object.entries(parsed);
      if (entries.some(([, value]) => typeof value !== 'string')) return 'env= values must be strings';
      found.env = Object.fromEntries(entries.map(([key, value]) => [key, String(value)]));
    }
    rest = rest.slice(end).trim();
  }
  return { kind: 'demo', ...found };
}
