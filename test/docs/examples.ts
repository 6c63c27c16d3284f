// Finds the example exchanges of one markdown file: each block holding requests, how it is to be run
// (its marker), and the response shown after each request. Anything that looks like an example but
// cannot be read is returned as a problem with its line, so the suite fails instead of skipping it.

import { DEMO, fencedBlocks, looksLikeMarker, parseMarker, type FencedBlock, type NumberedLine, type Setup } from './markdown';
import {
  looksLikeResponse,
  readCurl,
  readRequestBlock,
  readResponse,
  type ExampleRequest,
  type RequestRun,
  type ShownResponse,
} from './requests';

export interface DocExample {
  /** The file, relative to the project root (`docs/errors.md`). */
  readonly file: string;
  readonly request: ExampleRequest;
  /** What the docs show for it; undefined when they show nothing (then it must succeed). */
  readonly response: ShownResponse | undefined;
  readonly setup: Setup;
}

export interface ExampleProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

const SHELL = /^(sh|bash|shell|console|zsh)$/;

interface Found {
  readonly runs: RequestRun[];
  readonly problems: { line: number; message: string }[];
}

/** The curl commands of a shell block (a line ending in `\` goes on on the next one). */
function shellRequests(block: FencedBlock): Found {
  const found: Found = { runs: [], problems: [] };
  let command: NumberedLine | undefined;
  for (const row of block.lines) {
    command = command === undefined ? row : { text: `${command.text.slice(0, -1)} ${row.text}`, line: command.line };
    if (command.text.endsWith('\\')) continue;
    const request = readCurl(command);
    if (typeof request === 'string') found.problems.push({ line: command.line, message: request });
    else if (request !== undefined) found.runs.push({ request, rest: [] });
    command = undefined;
  }
  return found;
}

function plainRequests(block: FencedBlock): Found {
  const { runs, leading } = readRequestBlock(block.lines);
  const first = leading[0];
  const problems =
    runs.length > 0 && first !== undefined
      ? [{ line: first.line, message: 'a block of requests has text before its first request line' }]
      : [];
  return { runs, problems };
}

/** The setup its marker gives a block (the demo app when there is none), and misplaced markers. */
function setupOf(block: FencedBlock, report: (line: number, message: string) => void): { setup: Setup; line?: number } {
  let result: { setup: Setup; line?: number } = { setup: DEMO };
  const last = block.before[block.before.length - 1];
  for (const row of block.before.filter((l) => looksLikeMarker(l.text))) {
    if (row !== last) {
      report(row.line, 'a marker must stand right before the fenced block it is about');
      continue;
    }
    const parsed = parseMarker(row.text);
    if (typeof parsed === 'string') report(row.line, parsed);
    else result = { setup: parsed, line: row.line };
  }
  return result;
}

/**
 * Pairs a block's requests with the responses it shows inline or in the blocks right after it:
 * undefined where none is shown, null where the shown one cannot be read (a problem is reported).
 */
function responsesOf(
  runs: readonly RequestRun[],
  following: readonly NumberedLine[],
  report: (line: number, message: string) => void,
): (ShownResponse | undefined | null)[] {
  const read = (lines: readonly NumberedLine[]): ShownResponse | null => {
    const shown = readResponse(lines);
    if (!('problem' in shown)) return shown;
    report(shown.line, shown.problem);
    return null;
  };
  const showsInline = (run: RequestRun): boolean => run.rest.some((l) => l.text.trim() !== '');
  if (runs.some(showsInline)) {
    if (following.length > 0) report(following[0]?.line ?? 0, 'a block with inline responses is followed by another response block');
    return runs.map((run) => (showsInline(run) ? read(run.rest) : undefined));
  }
  if (following.length === 0) return runs.map(() => undefined);
  const shown = read(following);
  if (shown === null) return runs.map(() => null);
  if (runs.length === 1) return [shown];
  if (shown.status !== undefined || shown.headers.length > 0 || shown.bodies.length !== runs.length) {
    report(shown.line, `${runs.length} requests, but the response block does not show exactly one body for each`);
    return runs.map(() => null);
  }
  return shown.bodies.map((body) => ({ line: shown.line, headers: [], bodies: [body] }));
}

/**
 * Every example exchange of a markdown file, and every problem in reading them.
 * Example: a block "GET /api/users?limit=1" followed by a ```json block -> one example with that body.
 */
export function collectExamples(file: string, text: string): { examples: DocExample[]; problems: ExampleProblem[] } {
  const examples: DocExample[] = [];
  const problems: ExampleProblem[] = [];
  const report = (line: number, message: string): void => void problems.push({ file, line, message });
  const blocks = fencedBlocks(text);
  for (let b = 0; b < blocks.length; b += 1) {
    const block = blocks[b] as FencedBlock;
    const { setup, line: markerLine } = setupOf(block, report);
    const found = SHELL.test(block.info) ? shellRequests(block) : plainRequests(block);
    found.problems.forEach((p) => report(p.line, p.message));
    if (found.runs.length === 0) {
      if (markerLine !== undefined) report(markerLine, 'the marker is not followed by a block holding a request');
      continue;
    }
    const following: NumberedLine[] = [];
    for (
      let next = blocks[b + 1];
      next !== undefined && next.before.length === 0 && !SHELL.test(next.info) && looksLikeResponse(next.lines);
      next = blocks[b + 1]
    ) {
      following.push(...next.lines);
      b += 1;
    }
    const responses = responsesOf(found.runs, following, report);
    found.runs.forEach((run, i) => {
      const response = responses[i];
      if (response !== null) examples.push({ file, request: run.request, response, setup });
    });
  }
  return { examples, problems };
}
