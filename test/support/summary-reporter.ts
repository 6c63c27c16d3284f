// A mocha reporter for run-tests.ts: prints one line per failure as it happens and one line per top-level
// suite, and writes {passes, pending, failures, total, executed} as JSON to the file named by
// `--reporter-option output=...`: `total` is how many tests mocha found, `executed` how many ended
// (passed, failed or skipped), so a run cut short by a failing hook is told from a complete one.

import { writeFileSync } from 'node:fs';

interface ReporterOptions {
  readonly reporterOption?: Readonly<Record<string, string>>;
  readonly reporterOptions?: Readonly<Record<string, string>>;
}

interface Failure {
  readonly title: string;
  readonly message: string;
}

interface SuiteCount {
  passes: number;
  failures: number;
}

function topSuiteTitle(runnable: Mocha.Runnable): string {
  let suite: Mocha.Suite | undefined = runnable.parent;
  let title = '(root)';
  while (suite && !suite.root) {
    title = suite.title;
    suite = suite.parent;
  }
  return title;
}

// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- mocha constructs its reporter with `new`; the constructor subscribes to the runner
class SummaryReporter {
  constructor(runner: Mocha.Runner, options: ReporterOptions = {}) {
    const output = options.reporterOption?.output ?? options.reporterOptions?.output ?? process.env.KQM_REPORT_FILE;
    const failures: Failure[] = [];
    const perSuite = new Map<string, SuiteCount>();
    let passes = 0;
    let pending = 0;
    let total = 0;
    let failedTests = 0;
    runner.once('start', () => {
      total = runner.total;
    });
    const count = (runnable: Mocha.Runnable): SuiteCount => {
      const key = topSuiteTitle(runnable);
      let entry = perSuite.get(key);
      if (!entry) {
        entry = { passes: 0, failures: 0 };
        perSuite.set(key, entry);
      }
      return entry;
    };
    runner.on('pass', (test: Mocha.Test) => {
      passes += 1;
      count(test).passes += 1;
    });
    runner.on('pending', () => {
      pending += 1;
    });
    runner.on('fail', (test: Mocha.Runnable, err: Error) => {
      const message = err && typeof err.message === 'string' ? err.message : String(err);
      failures.push({ title: test.fullTitle(), message });
      if ((test as { type?: string }).type === 'test') failedTests += 1;
      count(test).failures += 1;
      process.stdout.write(`    FAIL ${test.fullTitle()}\n         ${message.split('\n').join('\n         ')}\n`);
    });
    runner.on('suite end', (suite: Mocha.Suite) => {
      if (!suite.parent || !suite.parent.root) return;
      const entry = perSuite.get(suite.title) ?? { passes: 0, failures: 0 };
      process.stdout.write(`  ${suite.title}: ${entry.passes} passed, ${entry.failures} failed\n`);
    });
    runner.once('end', () => {
      if (output) writeFileSync(output, JSON.stringify({ passes, pending, failures, total, executed: passes + pending + failedTests }));
    });
  }
}

export = SummaryReporter;
