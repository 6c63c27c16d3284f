// The plugin's import graph has no cycle, type imports included (docs/architecture.md): a file that
// needs another's types and is needed by it shows that one of them holds a shape both should share
// from a leaf (for example plugin/apply/types.ts).

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../support/repo-root';

const pluginRoot = join(repoRoot, 'plugin');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `import {a} from './b'`, `import type {c} from '../d'`, `export * from './e'`, `import './f'` -> the files they name. */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?(?:from\s*)?['"](\.{1,2}\/[^'"]*)['"]/gm)].map(
    (m) => m[1] as string,
  );
  return specifiers.flatMap((specifier) => {
    const target = resolve(dirname(file), specifier);
    const found = [`${target}.ts`, join(target, 'index.ts')].find((candidate) => existsSync(candidate));
    return found === undefined ? [] : [found];
  });
}

/** The strongly connected groups of more than one file (Tarjan), each as paths relative to plugin/. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(relative(pluginRoot, member));
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

describe('the import graph of plugin/', function () {
  it('reads type imports, re-exports and multi-line import lists as edges', function () {
    const file = join(pluginRoot, 'apply', 'query.ts');
    const text =
      "import {\n  a,\n  b,\n} from './sql';\nimport type { Row } from './types';\nexport { c } from '../errors';\nconst x = 'from ./kept';\n";
    expect(importsOf(file, text).map((path) => relative(pluginRoot, path))).to.deep.equal([
      'apply/sql.ts',
      'apply/types.ts',
      'errors/index.ts',
    ]);
  });

  it('finds a cycle when there is one', function () {
    const a = join(pluginRoot, 'a.ts');
    const b = join(pluginRoot, 'b.ts');
    const c = join(pluginRoot, 'c.ts');
    const graph = new Map([
      [a, [b]],
      [b, [c]],
      [c, [a]],
    ]);
    expect(cyclesOf(graph)).to.deep.equal([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      cyclesOf(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, []],
        ]),
      ),
    ).to.deep.equal([]);
  });

  it('has no cycle, type imports included', function () {
    const graph = new Map(sources(pluginRoot).map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    expect(graph.size).to.be.greaterThan(100);
    expect(cyclesOf(graph), 'files that import each other, directly or around a loop').to.deep.equal([]);
  });
});
