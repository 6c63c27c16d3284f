// A short run of the benchmark (every shape, 1,000 users, one round of one second) so that it cannot
// rot: both servers start, answer every shape with byte-identical bodies (the benchmark stops
// otherwise), serve load without errors, and the result file says so. Its figures are never asserted.
// Needs a PostgreSQL server (DATABASE_URL, else the local one): REQUIRE_POSTGRES=1 makes its absence
// a failure, otherwise the suite is skipped with the reason.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { postgresSilence } from '../support/postgres-silence';

const root = resolve(__dirname, '..', '..', '..');
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SHAPE_COUNT = 26;

interface ServerFigures {
  readonly requestsPerSecond: number;
  readonly statementsPerRequest: number;
  readonly non2xx: number;
  /** PostgreSQL's CPU per request for the server's connections. */
  readonly databaseCpuMsPerRequest: number;
}

interface ShapeFigures {
  readonly id: number;
  readonly plugin: ServerFigures;
  readonly floor: ServerFigures;
  /** The plugin's statements for the shape, read from its explain view before the run. */
  readonly pluginSql: readonly string[];
}

function runBench(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'dist', 'bench', 'run.js'), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('benchmark smoke (every shape, 1,000 users, one short round)', function () {
  this.timeout(15 * 60 * 1000);
  let resultsDir = '';

  before(async function () {
    const silence = await postgresSilence(databaseUrl);
    if (silence === undefined) return;
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL does not answer: ${silence}`);
    this.skip();
  });

  beforeEach(function () {
    resultsDir = mkdtempSync(join(tmpdir(), 'kqm-bench-smoke-'));
  });

  afterEach(function () {
    rmSync(resultsDir, { recursive: true, force: true });
  });

  it('runs every shape on both servers with identical bodies and no failed request', async function () {
    const shapes = Array.from({ length: SHAPE_COUNT }, (_, i) => i + 1).join(',');
    const { code, output } = await runBench(
      ['--scale', '1000', '--rounds', '1', '--duration', '1', '--connections', '4', '--shapes', shapes, '--no-write-docs'],
      // A threshold below the data's size, so total=estimated reaches the planner's estimate.
      { BENCH_RESULTS_DIR: resultsDir, BENCH_ESTIMATE_ABOVE: '100', DATABASE_URL: databaseUrl },
    );
    expect(code, output.slice(-3000)).to.equal(0);
    const files = readdirSync(resultsDir).filter((name) => name.endsWith('.json'));
    expect(files, output.slice(-3000)).to.have.length(1);
    const result = JSON.parse(readFileSync(join(resultsDir, files[0] as string), 'utf8')) as { shapes: ShapeFigures[] };
    expect(result.shapes.map((s) => s.id)).to.deep.equal(Array.from({ length: SHAPE_COUNT }, (_, i) => i + 1));
    for (const shape of result.shapes) {
      expect(shape.pluginSql, `shape ${shape.id}: the plugin's statements`).to.have.length.greaterThan(0);
      for (const server of [shape.plugin, shape.floor]) {
        expect(server.requestsPerSecond, `shape ${shape.id}`).to.be.greaterThan(0);
        expect(server.statementsPerRequest, `shape ${shape.id}`).to.be.greaterThan(0);
        expect(server.non2xx, `shape ${shape.id}`).to.equal(0);
        expect(server.databaseCpuMsPerRequest, `shape ${shape.id}`).to.be.at.least(0);
      }
    }
    // Single runs this short may round to no tick of CPU; over every shape, each server's backends are found and measured.
    for (const side of ['plugin', 'floor'] as const) {
      const cpu = result.shapes.reduce((sum, shape) => sum + shape[side].databaseCpuMsPerRequest, 0);
      expect(cpu, `PostgreSQL CPU measured for the ${side}`).to.be.greaterThan(0);
    }
  });

  it('runs the governance measurements and reports every target', async function () {
    const { code, output } = await runBench(['--governance', '--scale', '1000', '--duration', '1', '--oversized', '1', '--title-kb', '1'], {
      BENCH_RESULTS_DIR: resultsDir,
      DATABASE_URL: databaseUrl,
    });
    expect(code, output.slice(-3000)).to.equal(0);
    const result = JSON.parse(readFileSync(join(resultsDir, 'governance.json'), 'utf8')) as {
      runs: { load: string; cheap: { requests: number; non2xx: number } }[];
      targets: { name: string; holds: boolean }[];
    };
    expect(result.runs.map((run) => run.load)).to.deep.equal(['alone', 'beside heavy-lane requests', 'beside the largest expansions']);
    for (const run of result.runs) expect(run.cheap.requests, run.load).to.be.greaterThan(0);
    expect(result.targets).to.have.length(4);
  });
});
