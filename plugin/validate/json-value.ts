// Checks that a client's value is a JSON document PostgreSQL's jsonb accepts
// (docs/query-language.md, "Enums, arrays and JSON"): valid JSON, and nothing jsonb refuses that
// JSON.parse allows (the escape \u0000, unpaired surrogate escapes, numbers past numeric's limits,
// nesting past a fixed depth).

import { decimalFits } from './numbers';

/** Deep enough for any real document; far below what exhausts PostgreSQL's parser stack. */
const maxDepth = 1000;

const numberAt = /-?[0-9.eE+-]+/y;

const notJson =
  'must be a JSON value: an object, an array, a number, true, false, null, ' +
  'or a string in JSON\'s own double quotes (written "\\"text\\"" in a query)';

/** Inside a string starting after its opening quote at `i`: the index after the closing quote, or a problem. */
function scanString(text: string, start: number): number | string {
  let pendingHigh = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') return pendingHigh ? 'must not hold an unpaired surrogate escape' : i + 1;
    if (ch !== '\\') {
      if (pendingHigh) return 'must not hold an unpaired surrogate escape';
      continue;
    }
    i++;
    if (text[i] !== 'u') {
      if (pendingHigh) return 'must not hold an unpaired surrogate escape';
      continue;
    }
    const code = parseInt(text.slice(i + 1, i + 5), 16);
    i += 4;
    if (code === 0) return 'must not hold the escape \\u0000 (jsonb cannot store it)';
    const high = code >= 0xd800 && code <= 0xdbff;
    const low = code >= 0xdc00 && code <= 0xdfff;
    if (low !== pendingHigh) return 'must not hold an unpaired surrogate escape';
    pendingHigh = high;
  }
  return text.length;
}

/** `{"a": [1, 2]}` -> undefined; `{a: 1}` -> why it cannot be compared as jsonb. */
export function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return notJson;
  }
  // JSON.parse accepted it, so only strings, numbers and brackets need a second look.
  let depth = 0;
  for (let i = 0; i < text.length;) {
    const ch = text[i] as string;
    if (ch === '"') {
      const end = scanString(text, i + 1);
      if (typeof end === 'string') return end;
      i = end;
    } else if (ch === '[' || ch === '{') {
      depth++;
      if (depth > maxDepth) return `must not nest arrays and objects more than ${maxDepth} deep`;
      i++;
    } else if (ch === ']' || ch === '}') {
      depth--;
      i++;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      numberAt.lastIndex = i;
      const number = numberAt.exec(text)?.[0] ?? ch;
      if (decimalFits(number.replace(/^-/, '')) === false) return "must not hold a number past numeric's limits";
      i += number.length;
    } else {
      i++;
    }
  }
  return undefined;
}
