// The third server of `npm run bench -- --peer`: Koa + Objection + objection-find, the Objection-native
// way to serve query-string searches (issue 16). Its libraries are installed by the bench, on first
// use, into bench/.peer (its own package.json, ignored by git): never a dependency of the project.
// objection-find 3 declares objection 2 as its peer; it is installed beside the objection, knex and
// pg versions the plugin runs on here (npm's --legacy-peer-deps), so both servers use the same ORM
// and driver.
// PEER_QUERIES writes each shape the peer can express in objection-find's parameters; the peer
// answers in its own format (objection's JSON, `{results, total}` for a range), so only the status
// of its answers is checked, not their bytes.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Shape } from './shapes';

export const PEER_DEPENDENCIES: Readonly<Record<string, string>> = {
  'objection-find': '3.0.1',
  objection: '3.1.5',
  knex: '3.3.0',
  koa: '3.3.0',
  pg: '8.23.1',
};

/**
 * The shapes objection-find can express, on the same collection. Not expressible: 2 (one search over
 * two fields is an OR; its filters are ANDed), 4 and 5 (no field selection: it returns every
 * column), 7 (a limit inside an eager relation applies across all parents, not per parent), 8-13
 * (no total modes). `limit`/`offset` are read by the route (objection-find pages only with a
 * `rangeStart`/`rangeEnd`, which always counts); 3's per-relation fields and order are named
 * modifiers of the peer's Post model, as an Objection developer would declare them.
 */
export const PEER_QUERIES: Readonly<Record<number, string>> = {
  1: 'status:eq=active&orderByDesc=created_at&orderBy=id&rangeStart=40&rangeEnd=59',
  3: 'eager=posts(idTitle,newestFirst)&orderBy=id&rangeStart=0&rangeEnd=19',
  6: 'role:eq=editor&eager=[roles,phone]&orderBy=id&rangeStart=0&rangeEnd=19',
  17: 'orderByDesc=created_at&orderBy=id&limit=20&offset=9980',
  18: 'title:likeLower=%25ar%25&orderBy=id&rangeStart=0&rangeEnd=19',
};

/** `/api/users?<objection-find parameters>`, or undefined when the peer cannot express the shape. */
export function peerPath(shape: Shape): string | undefined {
  const query = PEER_QUERIES[shape.id];
  return query === undefined ? undefined : `/api/${shape.collection ?? 'users'}?${query}`;
}

/** Installs the peer's libraries into `dir` unless they are there already at these versions. */
export function preparePeer(dir: string, log: (line: string) => void): void {
  const manifest = `${JSON.stringify({ name: 'kqm-bench-peer', private: true, dependencies: PEER_DEPENDENCIES }, null, 2)}\n`;
  const file = path.join(dir, 'package.json');
  const installed = fs.existsSync(path.join(dir, 'node_modules', 'objection-find', 'package.json'));
  if (installed && fs.existsSync(file) && fs.readFileSync(file, 'utf8') === manifest) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, manifest);
  log(
    `installing the peer server's libraries into ${path.relative(process.cwd(), dir) || dir} (objection-find ${PEER_DEPENDENCIES['objection-find']}) …`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--legacy-peer-deps', '--no-package-lock'], {
    cwd: dir,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`npm install in ${dir} failed (status ${result.status ?? 'none'})`);
}
