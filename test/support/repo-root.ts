// Where the repository is, for the suites that read its files (the built admin UI, the problem
// schema, docs) or write into it (screenshots), whether they run from test/ or dist/test/.

import { join, resolve } from 'node:path';

/** The repository root, from test/<folder>/ or dist/test/<folder>/. */
export const repoRoot = resolve(__dirname, __dirname.includes(join('dist', 'test')) ? '../../..' : '../..');
