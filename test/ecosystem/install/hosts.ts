// What the install suites share: packing the package, installing it into a throw-away host with
// npm, type-checking and starting the host, and reading the host's installed tree.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(__dirname, '..', '..', '..', '..');
const tsc = require.resolve('typescript/bin/tsc');

/** npm and node children get a clean environment: no npm_* variables from an outer `npm test`. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))), ...extra };
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runQuietly(command: string, args: readonly string[], cwd: string): RunResult {
  const result = spawnSync(command, args, { cwd, env: childEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function run(command: string, args: readonly string[], cwd: string): string {
  const result = runQuietly(command, args, cwd);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** `npm pack` of the built repository into `dir`; returns the tarball's path and the packed file list. */
export function pack(dir: string): { tarball: string; files: string[] } {
  const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)) as {
    filename: string;
    files: { path: string }[];
  }[];
  const [info] = packed;
  if (info === undefined) throw new Error('npm pack reported nothing');
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path) };
}

/** A fresh host project in `hostDir` with `npm install <specs>`; an install failure throws (the test fails). */
export function installHost(hostDir: string, specs: readonly string[]): void {
  mkdirSync(join(hostDir, 'src'), { recursive: true });
  writeFileSync(join(hostDir, 'package.json'), JSON.stringify({ name: 'kqm-host', version: '1.0.0', private: true }, null, 2));
  run('npm', ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], hostDir);
}

/** What every host shares (host-shared/: how it starts and stops), copied beside its own sources. */
const sharedSources = join(root, 'test', 'ecosystem', 'install', 'host-shared');

/** Copies a host's sources (`*.cts`) and tsconfig.json from `sources`, and the shared sources, into `hostDir`. */
export function copyHostSources(sources: string, hostDir: string): void {
  for (const dir of [sharedSources, sources]) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.cts'))) copyFileSync(join(dir, file), join(hostDir, 'src', file));
  }
  copyFileSync(join(sources, 'tsconfig.json'), join(hostDir, 'tsconfig.json'));
}

/** A compiler error that belongs to a library's own declaration files, not to the host or this package. */
export interface ToleratedError {
  /** Path prefix inside the host, e.g. `node_modules/knex/`. */
  readonly under: string;
  readonly code: string;
}

/**
 * Compiles the host with `tsc -p tsconfig.json` and returns every error not listed in `tolerated`
 * (each as tsc printed it). An empty result means the host and every declaration it reaches,
 * this package's included, type-check.
 */
export function typeCheck(hostDir: string, tolerated: readonly ToleratedError[] = []): string[] {
  const result = runQuietly(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], hostDir);
  const errors = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /\berror TS\d+/.test(line));
  const unexpected = errors.filter((line) => {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+):/.exec(line);
    return match === null || !tolerated.some((t) => match[1]?.startsWith(t.under) && match[2] === t.code);
  });
  if (result.status !== 0 && errors.length === 0) unexpected.push(`tsc exited with ${result.status}:\n${result.stdout}${result.stderr}`);
  return unexpected;
}

/**
 * Every installed copy of a package in the host's tree, as paths relative to the host, e.g.
 * `['node_modules/knex', 'node_modules/koa-query-modifiers/node_modules/knex']`.
 */
export function installedCopies(hostDir: string, name: string): string[] {
  const found: string[] = [];
  const visit = (modules: string): void => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const packages = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((sub) => `${entry}/${sub}`) : [entry];
      for (const pkg of packages) {
        const dir = join(modules, pkg);
        if (pkg === name && existsSync(join(dir, 'package.json'))) found.push(dir.slice(hostDir.length + 1));
        visit(join(dir, 'node_modules'));
      }
    }
  };
  visit(join(hostDir, 'node_modules'));
  return found.sort();
}

/** The version of a package the host resolves from its own folder. */
export function installedVersion(hostDir: string, name: string): string {
  return String(readJson(join(hostDir, 'node_modules', name, 'package.json')).version);
}

/** Starts `node build/main.cjs` and resolves with its port once it prints `{"port": N}`. */
export function startHost(cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolveStart, rejectStart) => {
    const child = spawn(process.execPath, [join('build', 'main.cjs')], { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (line !== undefined) resolveStart({ child, port: (JSON.parse(line) as { port: number }).port });
    });
    child.on('exit', (code) => rejectStart(new Error(`the host exited (${code}) before listening:\n${out}\n${err}`)));
  });
}

export function stopHost(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}
