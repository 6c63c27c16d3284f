// Whether the build is up to date, so `npm start` skips it: `node scripts/build-stamp.mjs` exits 0
// when nothing the demo server runs (plugin/, server/, admin-ui/, the configs) changed since the
// last complete `npm run build`, 1 otherwise. `mark` (first step of the build) and `done` (last
// step) record when that build started; a failed build leaves the old stamp, so the next start builds.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const pending = join(root, 'dist', '.build-pending');
const sources = ['plugin', 'server', 'admin-ui', 'tsconfig.json', 'package.json', 'package-lock.json'];
const outputs = ['dist/server/main.js', 'dist/admin-ui/index.html'];

/** The newest modification time under `path` (a file or a folder), node_modules left out. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry !== 'node_modules') latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function upToDate() {
  if (!existsSync(stamp) || outputs.some((file) => !existsSync(join(root, file)))) return false;
  const builtFrom = Number(readFileSync(stamp, 'utf8'));
  return Number.isFinite(builtFrom) && sources.every((source) => newest(join(root, source)) <= builtFrom);
}

const command = process.argv[2];
if (command === 'mark') {
  mkdirSync(dirname(pending), { recursive: true });
  writeFileSync(pending, String(Date.now()));
} else if (command === 'done') {
  if (existsSync(pending)) renameSync(pending, stamp);
} else {
  process.exitCode = upToDate() ? 0 : 1;
}
