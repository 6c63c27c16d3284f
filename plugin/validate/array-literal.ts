// Reads an array's text form as PostgreSQL writes it (`{a,"b c",NULL}`, `{{1,2},{3,4}}`,
// `[0:1]={7,8}`) far enough to know the database will take it as an array: braces that nest and
// close, quoting, rectangular sub-arrays, at most six dimensions. The elements themselves are left to
// the database, whose refusal of one is a data exception (docs/errors.md, INVALID_CURSOR); a seventh
// dimension is not: PostgreSQL answers it as a program limit, so it is refused here.

/** PostgreSQL's MAXDIM. */
const MAX_DIMENSIONS = 6;

/** Where reading stopped and the lengths of each dimension met there (the outermost first). */
interface Read {
  readonly end: number;
  readonly shape: readonly number[];
}

/**
 * An unquoted element: anything up to `,` or `}` but braces, quotes, backslashes and the white space
 * PostgreSQL quotes (C's isspace: other spaces, such as U+00A0, are written bare).
 */
const bareElement = /[^{}",\\ \t\n\r\v\f]+/y;

/** A quoted element starting at its opening quote: the index after its closing quote. */
function quotedEnd(text: string, from: number): number | undefined {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return undefined;
}

function elementEnd(text: string, from: number, depth: number): Read | undefined {
  if (text[from] === '{') return readArray(text, from, depth + 1);
  if (text[from] === '"') {
    const end = quotedEnd(text, from);
    return end === undefined ? undefined : { end, shape: [] };
  }
  bareElement.lastIndex = from;
  return bareElement.test(text) ? { end: bareElement.lastIndex, shape: [] } : undefined;
}

const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((n, i) => n === b[i]);

/** `{...}` from its opening brace at `from`, at nesting depth `depth` (1 for the outermost). */
function readArray(text: string, from: number, depth: number): Read | undefined {
  if (depth > MAX_DIMENSIONS || text[from] !== '{') return undefined;
  // Only the whole array may be empty: PostgreSQL writes no empty sub-arrays.
  if (text[from + 1] === '}') return depth === 1 ? { end: from + 2, shape: [0] } : undefined;
  let at = from + 1;
  let inner: readonly number[] | undefined;
  let count = 0;
  for (;;) {
    const element = elementEnd(text, at, depth);
    if (element === undefined || (inner !== undefined && !sameShape(inner, element.shape))) return undefined;
    inner = element.shape;
    count++;
    at = element.end;
    if (text[at] === '}') return { end: at + 1, shape: [count, ...inner] };
    if (text[at] !== ',') return undefined;
    at++;
  }
}

const decoration = /^((?:\[-?\d{1,10}:-?\d{1,10}\]){1,6})=/;
const bounds = /\[(-?\d+):(-?\d+)\]/g;

/** `[0:1][1:2]=` -> [[0, 1], [1, 2]]; undefined when a bound is no int4 or a dimension is empty. */
function readDecoration(text: string): number[] | undefined {
  const lengths: number[] = [];
  for (const [, low, high] of text.matchAll(bounds)) {
    const [lo, hi] = [Number(low), Number(high)];
    if (lo < -2147483648 || hi > 2147483647 || hi < lo) return undefined;
    lengths.push(hi - lo + 1);
  }
  return lengths;
}

/**
 * `{{1,2},{3,4}}` -> true; `{{{{{{{a}}}}}}}` (seven dimensions), `{1,{2}}`, `{"a}` -> false. The text
 * form of an array whose lower bounds are not 1 starts with them, as PostgreSQL writes it:
 * `[0:1]={7,8}` (their lengths must then be the array's).
 */
export function isArrayLiteral(text: string): boolean {
  const decorated = decoration.exec(text);
  const start = decorated === null ? 0 : decorated[0].length;
  const read = readArray(text, start, 1);
  if (read === undefined || read.end !== text.length) return false;
  if (decorated === null) return true;
  const lengths = readDecoration(decorated[1] ?? '');
  return lengths !== undefined && sameShape(lengths, read.shape);
}
