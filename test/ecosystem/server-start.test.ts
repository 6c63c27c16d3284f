// `npm start` as a user runs it on a built checkout: the build is skipped when nothing changed since
// the last `npm run build` (scripts/build-stamp.mjs), the server answers within seconds, and it
// listens on HOST only (127.0.0.1 by default). Runs in the PostgreSQL pass: the server needs a
// database of its own, and on PGlite it would open the project's data/pglite.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/db';
import { freePort } from '../support/free-port';

const root = resolve(__dirname, '..', '..', '..');

/** The status of GET `url`, or 0 when nothing answers. */
function status(url: string): Promise<number> {
  return new Promise((done) => {
    const req = http.get(url, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', () => done(0));
    req.setTimeout(1000, () => req.destroy());
  });
}

describe('npm start on a built checkout', function () {
  this.timeout(120_000);
  let db: TestDatabase | undefined;
  let child: ChildProcess | undefined;

  before(async function () {
    if (testDbKind() !== 'postgres') {
      console.log('    skipping npm start: it runs in the PostgreSQL pass (a database of its own)');
      this.skip();
    }
    if (spawnSync(process.execPath, [join(root, 'scripts', 'build-stamp.mjs')], { cwd: root }).status !== 0) {
      console.log('    skipping npm start: dist is older than the sources; run npm run build first');
      this.skip();
    }
    db = await createTestDatabase({ empty: true });
  });

  after(async function () {
    // npm, its shell and node run in one process group of their own.
    if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await db?.destroy();
  });

  it('skips the build, answers within seconds, and listens on HOST (127.0.0.1) only', async function () {
    const port = await freePort();
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = `/${(db as TestDatabase).name ?? ''}`;
    const stamp = statSync(join(root, 'dist', '.build-stamp')).mtimeMs;
    const started = performance.now();
    child = spawn('npm', ['start'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), HOST: '', LOG_LEVEL: 'warn' },
    });
    while ((await status(`http://127.0.0.1:${port}/api/users?limit=1`)) !== 200) {
      if (child.exitCode !== null) expect.fail(`npm start exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) expect.fail('npm start did not answer within 60 s');
      await new Promise((wait) => setTimeout(wait, 50));
    }
    const elapsed = performance.now() - started;
    // Generous, for seeding an empty database; a build would take longer still.
    expect(elapsed, `answered after ${Math.round(elapsed)} ms`).to.be.below(15_000);
    expect(statSync(join(root, 'dist', '.build-stamp')).mtimeMs, 'the build ran').to.equal(stamp);
    expect(await status(`http://[::1]:${port}/api/users?limit=1`), 'answered on ::1').to.equal(0);
  });
});
