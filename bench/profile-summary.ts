// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per package, and
// inclusive time of the functions under which most time goes. Also a command:
// `node dist/bench/profile-summary.js bench/results/profiles/plugin-shape1.cpuprofile [top]`.

import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Entry {
  readonly name: string;
  readonly ms: number;
  /** Microseconds per request, when the request count is known. */
  readonly usPerRequest?: number;
  /** Share of busy (non-idle) time, 0-100. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly file: string;
  readonly totalMs: number;
  readonly busyMs: number;
  /** Busy time spent loading modules and starting the server (not counted in the tables). */
  readonly startupMs: number;
  /** Requests the server answered while profiled, when known (for µs per request). */
  readonly requests: number | undefined;
  readonly selfByFunction: Entry[];
  readonly selfByPackage: Entry[];
  readonly inclusiveByFunction: Entry[];
  /** Inclusive time of the plugin's own functions (dist/plugin). */
  readonly inclusiveOurs: Entry[];
}

/** `/work/main/node_modules/knex/lib/x.js` -> `knex`; `/…/dist/plugin/apply/sql.js` -> `plugin`. */
export function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules !== null) return modules[1] as string;
  if (url.startsWith('node:')) return 'node: core';
  const dist = /\/dist\/([^/]+)\//.exec(url);
  if (dist !== null) return `ours: ${dist[1]}`;
  return url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const dist = url.lastIndexOf('/dist/');
  if (dist !== -1) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
}

function frameName(frame: CallFrame): string {
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return frame.url === '' ? name : `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

const IDLE = new Set(['(idle)']);

export function summariseProfile(file: string, top = 25, requests?: number): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfFn = new Map<string, number>();
  const selfPkg = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const ours = new Map<string, number>();
  let total = 0;
  let busy = 0;
  let startup = 0;
  // Samples under the main module's top-level code are start-up (requiring modules, building the catalog).
  const startupRoot = new Set(profile.nodes.filter((n) => n.callFrame.url === 'node:internal/main/run_main_module').map((n) => n.id));
  const underStartup = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (startupRoot.has(at)) return true;
    return false;
  };
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const node = byId.get(id);
    if (node === undefined || IDLE.has(node.callFrame.functionName)) return;
    if (underStartup(id)) {
      startup += ms;
      return;
    }
    busy += ms;
    const name = frameName(node.callFrame);
    selfFn.set(name, (selfFn.get(name) ?? 0) + ms);
    const pkg = packageOf(node.callFrame.url, node.callFrame.functionName);
    selfPkg.set(pkg, (selfPkg.get(pkg) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame === undefined || frame.url === '') continue;
      const key = frameName(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
      if (frame.url.includes('/dist/plugin/')) ours.set(key, (ours.get(key) ?? 0) + ms);
    }
  });
  const ranked = (map: Map<string, number>, n: number): Entry[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => ({
        name,
        ms: Math.round(ms),
        percent: Math.round((ms / busy) * 1000) / 10,
        ...(requests === undefined || requests === 0 ? {} : { usPerRequest: Math.round((ms * 1000) / requests) }),
      }));
  return {
    file,
    totalMs: Math.round(total),
    busyMs: Math.round(busy),
    startupMs: Math.round(startup),
    requests,
    selfByFunction: ranked(selfFn, top),
    selfByPackage: ranked(selfPkg, 20),
    // Inclusive time of our own code and the libraries' entry points; skip the event-loop plumbing at the root.
    inclusiveByFunction: ranked(inclusive, top * 2)
      .filter((e) => !/^(processTicksAndRejections|listOnTimeout|processTimers|emit|emitBeforeScript|runMicrotasks) /.test(e.name))
      .slice(0, top),
    inclusiveOurs: ranked(ours, top),
  };
}

export function formatSummary(summary: ProfileSummary): string {
  const perRequest =
    summary.requests === undefined
      ? ''
      : `, ${summary.requests} requests (${Math.round((summary.busyMs * 1000) / summary.requests)} µs busy per request)`;
  const lines = [
    `${summary.file}: ${summary.busyMs} ms busy of ${summary.totalMs} ms sampled, ${summary.startupMs} ms start-up excluded${perRequest}`,
  ];
  const table = (title: string, entries: readonly Entry[]): void => {
    lines.push('', title);
    for (const e of entries) {
      const us = e.usPerRequest === undefined ? '' : `${String(e.usPerRequest).padStart(6)} µs/req  `;
      lines.push(`  ${e.percent.toFixed(1).padStart(5)}%  ${String(e.ms).padStart(7)} ms  ${us}${e.name}`);
    }
  };
  table('self time by package', summary.selfByPackage);
  table('self time by function', summary.selfByFunction);
  table('inclusive time by function', summary.inclusiveByFunction);
  if (summary.inclusiveOurs.length > 0) table("inclusive time of the plugin's functions (dist/plugin)", summary.inclusiveOurs);
  return lines.join('\n');
}

if (require.main === module) {
  const [file, top, requests] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: node dist/bench/profile-summary.js <file.cpuprofile> [top] [requests]');
    process.exit(2);
  }
  console.log(
    formatSummary(summariseProfile(file, top === undefined ? 25 : Number(top), requests === undefined ? undefined : Number(requests))),
  );
}
