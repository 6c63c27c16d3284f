// Reads the links and heading anchors of a markdown file, for the check that every link of the docs
// leads to a file and a heading that exist (test/unit/doc-links.test.ts).

/** A link's target as written (`benchmarks.md#running-it`), with its 1-based line. */
export interface DocLink {
  readonly target: string;
  readonly line: number;
}

const fence = /^ *(`{3,}|~{3,})/;

/** The lines outside fenced blocks, inline code removed, each with its 1-based number. */
function proseLines(text: string): { readonly text: string; readonly line: number }[] {
  const out: { text: string; line: number }[] = [];
  let open: string | undefined;
  text.split(/\r?\n/).forEach((row, i) => {
    const marks = fence.exec(row)?.[1];
    if (open === undefined && marks !== undefined) open = marks;
    else if (open !== undefined && marks !== undefined && marks[0] === open[0] && marks.length >= open.length && row.trim() === marks)
      open = undefined;
    else if (open === undefined) out.push({ text: row.replace(/(`+)[^`]*?\1/g, ''), line: i + 1 });
  });
  return out;
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation and symbols dropped, spaces as hyphens.
 * Example: "Search: ILIKE or `lower() LIKE lower()`" -> "search-ilike-or-lower-like-lower".
 */
export function headingAnchor(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a file's headings, a repeated one numbered as GitHub does (`x`, then `x-1`). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  let open: string | undefined;
  for (const row of lines) {
    const marks = fence.exec(row)?.[1];
    if (marks !== undefined && (open === undefined || (marks[0] === open[0] && marks.length >= open.length && row.trim() === marks))) {
      open = open === undefined ? marks : undefined;
      continue;
    }
    const heading = open === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(row)?.[1] : undefined;
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/**
 * The inline links and images of a file, outside code. Example: "see [x](a.md#b) and `[y](z)`" ->
 * one link, `a.md#b`.
 */
export function linksOf(text: string): DocLink[] {
  const links: DocLink[] = [];
  for (const { text: row, line } of proseLines(text)) {
    for (const match of row.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1] as string, line });
    }
  }
  return links;
}

/** Whether a target leaves the repository (`https:`, `mailto:`): those are not checked. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}
