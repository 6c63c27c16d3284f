// Runs `npm run lint` first, then every suite as its own mocha child process: unit tests once; the HTTP, ecosystem,
// reliability and docs suites on PGlite and, when DATABASE_URL is set, again on that PostgreSQL server; the
// fault, install, browser and benchmark smoke suites once. Ends with `N passed, N failed` over all runs.
// REQUIRE_POSTGRES=1 turns a missing or silent server into a failure instead of a skip.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { postgresSilence } from './support/postgres-silence';

interface Run {
  readonly name: string;
  readonly spec: string;
  readonly env: Readonly<Record<string, string>>;
}

interface Failure {
  readonly title: string;
  readonly message: string;
}

interface Outcome {
  readonly name: string;
  readonly passes: number;
  readonly pending?: number;
  readonly failures: readonly Failure[];
  /** Why the run did not finish normally (no report, killed, non-zero exit without failures). */
  readonly crash?: string;
}

const root = resolve(__dirname, '..', '..');
const mochaBin = require.resolve('mocha/bin/mocha.js');
const reporter = join(__dirname, 'support', 'summary-reporter.js');

function isFailure(value: unknown): value is Failure {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.title === 'string' && typeof record.message === 'string';
}

interface Report {
  readonly passes: number;
  readonly pending: number;
  readonly failures: Failure[];
  /** Tests mocha found, and tests that ended (passed, failed or skipped). */
  readonly total: number;
  readonly executed: number;
}

function readReport(file: string): Report | undefined {
  if (!existsSync(file)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  const failures = Array.isArray(record.failures) ? record.failures.filter(isFailure) : [];
  const count = (value: unknown): number => (typeof value === 'number' ? value : 0);
  return {
    passes: count(record.passes),
    pending: count(record.pending),
    failures,
    total: count(record.total),
    executed: count(record.executed),
  };
}

/**
 * Why a run that wrote a report still does not count as complete: mocha failed without a failing
 * test, found no test at all, or ended fewer tests than it found (a hook failed and cut it short).
 */
function crashOf(report: Report, code: number | null, signal: NodeJS.Signals | null): { crash?: string } {
  if (signal !== null || (code !== 0 && report.failures.length === 0)) return { crash: `mocha exited with ${signal ?? code}` };
  if (report.total === 0) return { crash: 'the suite found no test to run' };
  if (report.executed < report.total) return { crash: `only ${report.executed} of its ${report.total} tests ran to an end` };
  return {};
}

function runMocha(run: Run, workDir: string): Promise<Outcome> {
  const output = join(workDir, `${run.name.replace(/\W+/g, '-')}.json`);
  const args = [
    // A `.only` left in a test would silently run a fraction of the suite.
    mochaBin,
    '--no-config',
    '--forbid-only',
    '--reporter',
    reporter,
    '--reporter-option',
    `output=${output}`,
    '--timeout',
    '60000',
    '--slow',
    '5000',
    run.spec,
  ];
  process.stdout.write(`\n=== ${run.name} ===\n`);
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...run.env } });
    child.on('error', (error) => resolveRun({ name: run.name, passes: 0, failures: [], crash: error.message }));
    child.on('exit', (code, signal) => {
      const report = readReport(output);
      if (!report) {
        resolveRun({ name: run.name, passes: 0, failures: [], crash: `mocha exited (${signal ?? code}) without a report` });
        return;
      }
      resolveRun({
        name: run.name,
        passes: report.passes,
        pending: report.pending,
        failures: report.failures,
        ...crashOf(report, code, signal),
      });
    });
  });
}

/**
 * `npm run lint` (ESLint, and Prettier's check once the code is formatted) as the first run: one
 * passed check, or one failure with the end of its output. CI runs `npm test`, so this is where CI lints.
 */
function runLint(): Promise<Outcome> {
  const name = 'lint (npm run lint)';
  process.stdout.write(`\n=== ${name} ===\n`);
  // Under `npm test`, npm_execpath is the npm that runs us; otherwise the one on the PATH.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli === undefined ? ['npm', ['run', 'lint']] : [process.execPath, [npmCli, 'run', 'lint']];
  return new Promise((resolveRun) => {
    let output = '';
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => {
      process.stdout.write(chunk);
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => {
      resolveRun({ name, passes: 0, failures: [{ title: name, message: error.message }] });
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolveRun({ name, passes: 1, failures: [] });
      else resolveRun({ name, passes: 0, failures: [{ title: `${name} exited with ${signal ?? code}`, message: output.trim() }] });
    });
  });
}

function printOutcome(outcome: Outcome): void {
  const skipped = outcome.pending ? `, ${outcome.pending} skipped` : '';
  process.stdout.write(`\n--- ${outcome.name}: ${outcome.passes} passed, ${outcome.failures.length} failed${skipped}\n`);
  for (const failure of outcome.failures) {
    process.stdout.write(`  x ${failure.title}\n      ${failure.message.split('\n').join('\n      ')}\n`);
  }
  if (outcome.crash) process.stdout.write(`  ! run crashed: ${outcome.crash}\n`);
}

async function main(): Promise<number> {
  const workDir = mkdtempSync(join(tmpdir(), 'kqm-tests-'));
  const outcomes: Outcome[] = [];
  const problems: string[] = [];
  // Suites that take a database run once per kind of database; the others run once.
  const perDatabase = (kind: 'pglite' | 'postgres'): Run[] => [
    { name: `http (${kind})`, spec: 'dist/test/http/**/*.test.js', env: { TEST_DB: kind } },
    { name: `ecosystem (${kind})`, spec: 'dist/test/ecosystem/*.test.js', env: { TEST_DB: kind } },
    { name: `reliability (${kind})`, spec: 'dist/test/reliability/!(faults|replicas).test.js', env: { TEST_DB: kind } },
    { name: `docs (${kind})`, spec: 'dist/test/docs/*.test.js', env: { TEST_DB: kind } },
  ];
  const runs: Run[] = [{ name: 'unit', spec: 'dist/test/unit/**/*.test.js', env: {} }, ...perDatabase('pglite')];
  const once: Run[] = [
    { name: 'faults (throw-away cluster)', spec: 'dist/test/reliability/faults.test.js', env: {} },
    { name: 'replicas (throw-away primary and streaming replicas)', spec: 'dist/test/reliability/replicas.test.js', env: {} },
    { name: 'install (npm pack into a host app)', spec: 'dist/test/ecosystem/install/*.test.js', env: {} },
    { name: 'browser (admin UI)', spec: 'dist/test/browser/**/*.test.js', env: {} },
    { name: 'bench smoke (every shape, 1,000 users, one short round)', spec: 'dist/test/bench/*.test.js', env: {} },
  ];
  const databaseUrl = process.env.DATABASE_URL;
  const requirePostgres = process.env.REQUIRE_POSTGRES === '1';
  if (databaseUrl) {
    const silence = await postgresSilence(databaseUrl);
    if (silence === undefined) {
      runs.push(...perDatabase('postgres'));
    } else if (requirePostgres) {
      problems.push(`REQUIRE_POSTGRES=1 but the server at DATABASE_URL does not answer: ${silence}`);
    } else {
      process.stdout.write(`PostgreSQL at DATABASE_URL does not answer (${silence}); skipping the postgres run\n`);
    }
  } else if (requirePostgres) {
    problems.push('REQUIRE_POSTGRES=1 but DATABASE_URL is not set');
  } else {
    process.stdout.write('DATABASE_URL is not set; the HTTP suites run on PGlite only\n');
  }
  runs.push(...once);
  try {
    outcomes.push(await runLint());
    for (const run of runs) outcomes.push(await runMocha(run, workDir));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }

  process.stdout.write('\n===== summary =====\n');
  outcomes.forEach(printOutcome);
  for (const problem of problems) process.stdout.write(`\n  ! ${problem}\n`);
  const passed = outcomes.reduce((sum, o) => sum + o.passes, 0);
  const skipped = outcomes.reduce((sum, o) => sum + (o.pending ?? 0), 0);
  // A crashed run or an unavailable required database counts as one failure each, so the total never
  // reads "0 failed" when the exit status is 1.
  const failed = outcomes.reduce((sum, o) => sum + o.failures.length + (o.crash ? 1 : 0), 0) + problems.length;
  process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`run-tests: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.stdout.write('\n0 passed, 1 failed, 0 skipped\n');
    process.exitCode = 1;
  },
);
