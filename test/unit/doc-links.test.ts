// Every link of the docs leads somewhere: each relative link of README.md, CONTRIBUTING.md,
// CHANGELOG.md and docs/**/*.md names a file that exists and, with `#anchor`, a heading of it; each
// `docs/<file>.md` a code comment names exists, with the heading it names (`#anchor`, or quoted as in
// `docs/query-language.md, "Cursors: cursor"`); and a doc the package ships links only to files the
// package ships (package.json `files`), so a host reading the docs in node_modules finds them.

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { anchorsOf, headingAnchor, isExternal, linksOf } from '../docs/links';

const root = resolve(__dirname, '..', '..', '..');

/**
 * README.md is also the repository's front page: it may link to the pages for people working on
 * the repository, which the package leaves out. Every other shipped doc links only to shipped files.
 */
const REPOSITORY_PAGES_LINKED_FROM_README: readonly string[] = ['CONTRIBUTING.md', 'docs/architecture.md', 'docs/benchmarks.md'];

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path, keep);
    return keep(path) ? [path] : [];
  });
}

const markdown = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...filesUnder('docs', (f) => f.endsWith('.md'))].sort();

const anchorCache = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorCache.get(file);
  if (found === undefined) {
    found = anchorsOf(readFileSync(join(root, file), 'utf8'));
    anchorCache.set(file, found);
  }
  return found;
}

/** The repository-relative file a link leads to, and its anchor. Example: ('README.md', 'CHANGELOG.md#x') -> ['CHANGELOG.md', 'x']. */
function resolveLink(from: string, target: string): [string, string | undefined] {
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? from : relative(root, normalize(join(root, dirname(from), decodeURIComponent(path))));
  return [file.split('\\').join('/'), anchor];
}

/** What is wrong with a link to `file#anchor`, or undefined. */
function problem(file: string, anchor: string | undefined): string | undefined {
  if (file.startsWith('..') || !existsSync(join(root, file))) return `${file} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!file.endsWith('.md') || statSync(join(root, file)).isDirectory()) return `an anchor into ${file}, which has no headings`;
  return anchors(file).has(anchor) ? undefined : `${file} has no heading #${anchor}`;
}

function shippedEntries(): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files?: unknown };
  const files = pkg.files;
  if (!Array.isArray(files)) throw new Error('package.json has no files list');
  for (const entry of files) {
    if (typeof entry !== 'string' || /[*?![\]{}]/.test(entry))
      throw new Error(`files entry ${String(entry)}: this check reads plain paths only`);
  }
  return files as string[];
}

/** npm always ships package.json and the README besides the `files` list. */
function isShipped(file: string, entries: readonly string[]): boolean {
  if (file === 'package.json' || file === 'README.md') return true;
  return entries.some((entry) => file === entry || file.startsWith(`${entry.replace(/\/$/, '')}/`));
}

const fence = '```';

/** A rule number, the specification's decisions file or a path above the repository: a text this repository does not hold. */
const OUTSIDE_REFERENCE = /\bdecisions?(?:\.md)?\s+\d|\bdecisions\.md\b|\.\.\/shared\/|\brules?\s+\d+\b|\bspec\//;

/**
 * `docs/query-language.md, "Cursors: cursor", "sort"` -> the path (with any `#anchor`) and the quoted
 * headings; a quote that runs onto the next line of a comment is not read.
 */
const DOC_REFERENCE = /\b(docs\/[\w./-]*\w\.md(?:#[\w-]+)?)((?:,? \(?"[^"\n]+")*)/g;

describe('doc links: reading markdown', function () {
  it('gives a heading the anchor GitHub gives it', function () {
    expect(headingAnchor('Search: ILIKE or lower() LIKE lower()')).to.equal('search-ilike-or-lower-like-lower');
    expect(headingAnchor('Per-parent windows: LATERAL against row_number()')).to.equal('per-parent-windows-lateral-against-row_number');
    expect(headingAnchor('Kept totals: how cost grows with `totalsCache`')).to.equal('kept-totals-how-cost-grows-with-totalscache');
    expect(headingAnchor('How cost grows: 10,000 and 1,000,000 users')).to.equal('how-cost-grows-10000-and-1000000-users');
    expect(headingAnchor('The peer: Koa + Objection (`--peer`)')).to.equal('the-peer-koa--objection---peer');
  });

  it('numbers a repeated heading and skips lines inside fenced blocks', function () {
    const text = `# A\n## Options\n${fence}sh\n# not a heading\n${fence}\n## Options\n`;
    expect([...anchorsOf(text)]).to.deep.equal(['a', 'options', 'options-1']);
  });

  it('finds inline links and images outside code, with their lines', function () {
    const text = `see [a](x.md#y) and ![i](img.png)\n\`[no](code.md)\`\n${fence}\n[no](block.md)\n${fence}\n[b](https://e.org)`;
    expect(linksOf(text)).to.deep.equal([
      { target: 'x.md#y', line: 1 },
      { target: 'img.png', line: 1 },
      { target: 'https://e.org', line: 6 },
    ]);
    expect(isExternal('https://e.org')).to.equal(true);
    expect(isExternal('design/plan-cache.md')).to.equal(false);
  });
});

describe('doc links', function () {
  it("reads a code comment's reference to a doc: its path and each quoted heading", function () {
    const row = '// keyset pages (docs/query-language.md, "Cursors: cursor", "sort"); see docs/errors.md#codes.';
    expect([...row.matchAll(DOC_REFERENCE)].map((m) => [m[1], m[2]])).to.deep.equal([
      ['docs/query-language.md', ', "Cursors: cursor", "sort"'],
      ['docs/errors.md#codes', ''],
    ]);
  });

  it('finds the docs it checks', function () {
    expect(markdown).to.include.members(['README.md', 'docs/benchmarks.md', 'docs/query-language.md']);
  });

  it('every relative link of the docs names a file that exists, and a heading of it when it has #anchor', function () {
    const broken = markdown.flatMap((from) =>
      linksOf(readFileSync(join(root, from), 'utf8'))
        .filter((link) => !isExternal(link.target))
        .flatMap((link) => {
          const why = problem(...resolveLink(from, link.target));
          return why === undefined ? [] : [`${from}:${link.line} (${link.target}): ${why}`];
        }),
    );
    expect(broken).to.deep.equal([]);
  });

  it('every docs/<file>.md a code comment names exists, with the heading it names (#anchor or quoted)', function () {
    const sources = ['plugin', 'server', 'bench', 'test', 'admin-ui/src'].flatMap((dir) =>
      filesUnder(dir, (f) => /\.(ts|tsx|mts|cts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')),
    );
    const broken = sources.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((row, i) =>
          [...row.matchAll(DOC_REFERENCE)].flatMap((match) => {
            const [path, anchor] = (match[1] ?? '').split('#', 2) as [string, string | undefined];
            const headings = [...(match[2] ?? '').matchAll(/"([^"]+)"/g)].map((quoted) => headingAnchor(quoted[1] ?? ''));
            const why = [anchor, ...headings].map((a) => problem(path, a)).find((p) => p !== undefined);
            return why === undefined ? [] : [`${file}:${i + 1} (${match[0]}): ${why}`];
          }),
        ),
    );
    expect(broken).to.deep.equal([]);
  });

  it('no code comment or doc cites a rule number or a text outside this repository (docs/<file>.md headings instead)', function () {
    const files = [
      ...markdown,
      ...['plugin', 'server', 'bench', 'test', 'admin-ui/src', 'scripts'].flatMap((dir) =>
        filesUnder(dir, (f) => /\.(ts|mts|cts|js|mjs)$/.test(f) && f !== 'test/unit/doc-links.test.ts'),
      ),
    ];
    const found = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((row, i) => (OUTSIDE_REFERENCE.test(row) ? [`${file}:${i + 1}: ${row.trim()}`] : [])),
    );
    expect(found).to.deep.equal([]);
  });

  it('a doc the package ships links only to files it ships (README.md: also to the repository pages)', function () {
    const entries = shippedEntries();
    const outside = markdown
      .filter((from) => isShipped(from, entries))
      .flatMap((from) =>
        linksOf(readFileSync(join(root, from), 'utf8'))
          .filter((link) => !isExternal(link.target))
          .flatMap((link) => {
            const [file] = resolveLink(from, link.target);
            if (isShipped(file, entries)) return [];
            if (from === 'README.md' && REPOSITORY_PAGES_LINKED_FROM_README.includes(file)) return [];
            return [`${from}:${link.line} links to ${file}, which the package does not ship`];
          }),
      );
    expect(outside).to.deep.equal([]);
  });

  it('ships the docs a host reads, and not the benchmark page, its chart or the code map', function () {
    const entries = shippedEntries();
    for (const doc of ['docs/installing.md', 'docs/configuration.md', 'docs/query-language.md', 'docs/errors.md'])
      expect(isShipped(doc, entries), doc).to.equal(true);
    for (const doc of ['docs/benchmarks.md', 'docs/images/bench.svg', 'docs/architecture.md'])
      expect(isShipped(doc, entries), doc).to.equal(false);
  });
});
