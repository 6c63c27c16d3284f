// Compares a response the docs show (a DocValue, possibly shortened with ellipses) with the value the
// server answered, and says where they first differ. The rule is written out in examples.test.ts.

import type { DocValue } from './doc-json';

const ELLIPSIS = /…|\.\.\./;

/**
 * Whether a shown text stands for the actual one: equal, or each ellipsis in it stands for any run
 * of characters. Example: `matchText('allowed: id, name, …', 'allowed: id, name, email')` -> true.
 */
export function matchText(shown: string, actual: string): boolean {
  if (shown === actual) return true;
  const parts = shown.split(ELLIPSIS);
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (parts.length === 1 || actual.length < first.length + last.length) return false;
  if (!actual.startsWith(first) || !actual.endsWith(last)) return false;
  const end = actual.length - last.length;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = actual.indexOf(middle, at);
    if (found === -1 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matchObject(shown: Extract<DocValue, { kind: 'object' }>, actual: unknown, path: string): string | undefined {
  if (!isRecord(actual)) return `${path}: the docs show an object, the server answered ${show(actual)}`;
  const keys = Object.keys(actual);
  let previous = -1;
  for (const [key, value] of shown.members) {
    const at = keys.indexOf(key);
    if (at === -1) return `${path}: the docs show "${key}", the server's object has no such member (it has ${keys.join(', ')})`;
    const inner = matchDoc(value, actual[key], `${path}.${key}`);
    if (inner !== undefined) return inner;
    if (at < previous) return `${path}: the docs show "${key}" after "${keys[previous]}", the server sends it before`;
    previous = at;
  }
  const extra = shown.open ? [] : keys.filter((key) => !shown.members.some(([name]) => name === key));
  if (extra.length > 0)
    return `${path}: the server's object also has ${extra.map((k) => `"${k}"`).join(', ')} (write "…" in the docs to leave members out)`;
  return undefined;
}

function matchRun(shown: readonly DocValue[], actual: readonly unknown[], from: number, path: string): string | undefined {
  for (const [i, item] of shown.entries()) {
    const inner = matchDoc(item, actual[from + i], `${path}[${from + i}]`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function matchArray(shown: readonly DocValue[], actual: unknown, path: string): string | undefined {
  if (!Array.isArray(actual)) return `${path}: the docs show an array, the server answered ${show(actual)}`;
  const runs: DocValue[][] = [[]];
  for (const item of shown) {
    if (item.kind === 'ellipsis') runs.push([]);
    else runs[runs.length - 1]?.push(item);
  }
  const head = runs[0] ?? [];
  if (runs.length === 1) {
    const inner = matchRun(head.slice(0, actual.length), actual, 0, path);
    if (inner !== undefined) return inner;
    return head.length === actual.length
      ? undefined
      : `${path}: the docs show ${head.length} elements, the server answered ${actual.length}`;
  }
  const tail = runs[runs.length - 1] ?? [];
  if (actual.length < head.length + tail.length) {
    return `${path}: the docs show at least ${head.length + tail.length} elements, the server answered ${actual.length}`;
  }
  const end = actual.length - tail.length;
  const edges = matchRun(head, actual, 0, path) ?? matchRun(tail, actual, end, path);
  if (edges !== undefined) return edges;
  let at = head.length;
  for (const run of runs.slice(1, -1)) {
    let found = -1;
    for (let start = at; start + run.length <= end && found === -1; start += 1) {
      if (matchRun(run, actual, start, path) === undefined) found = start;
    }
    if (found === -1)
      return `${path}: the ${run.length} element(s) shown between two ellipses are not found, in order, within [${at}..${end - 1}]`;
    at = found + run.length;
  }
  return undefined;
}

/**
 * Where `actual` first differs from what the docs show at `path`, or undefined when it matches.
 * Example: `matchDoc(parseDocJson('[{"id":1},…]')[0], [{id: 1}, {id: 2}])` -> undefined.
 */
export function matchDoc(shown: DocValue, actual: unknown, path = '$'): string | undefined {
  switch (shown.kind) {
    case 'ellipsis':
      return undefined;
    case 'array':
      return matchArray(shown.items, actual, path);
    case 'object':
      return matchObject(shown, actual, path);
    case 'literal': {
      const expected = shown.value;
      const same = typeof expected === 'string' ? typeof actual === 'string' && matchText(expected, actual) : expected === actual;
      return same ? undefined : `${path}: the docs show ${show(expected)}, the server answered ${show(actual)}`;
    }
  }
}
