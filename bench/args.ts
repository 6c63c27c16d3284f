// Reads the `npm run bench -- ...` command line into BenchOptions. Unknown flags stop the run with a usage text.

import { DEFAULT_POSTS_PER_USER } from './data';
import { DEFAULT_SHAPE_IDS, SCALES_SHAPE_IDS, SHAPES } from './shapes';

export interface BenchOptions {
  /** Users in the data set (posts `postsPerUser` x, phones for half, roles through user_roles). */
  readonly scale: number;
  /** Posts per user in the data set (default 5; shape 7's cost must not grow with it). */
  readonly postsPerUser: number;
  /** Seconds per autocannon run. */
  readonly duration: number;
  /** A/B rounds per shape: each round runs plugin then floor (or floor then plugin, alternating). */
  readonly rounds: number;
  readonly connections: number;
  /** Shape numbers to run (the ids of bench/shapes.ts). */
  readonly shapes: readonly number[];
  /** Admin URL used only to create `<databasePrefix>_<scale>`. */
  readonly databaseUrl: string;
  /** Starts the bench database's name (default `kqm_bench`): several people sharing a server keep their own data sets. */
  readonly databasePrefix: string;
  /** Profile the plugin server with --cpu-prof under the given shapes instead of the A/B comparison. */
  readonly cpuProf: boolean;
  /** Run the A/B comparison at each of these scales and write a comparison (`--compare-scales 10000,1000000`). */
  readonly compareScales: readonly number[] | undefined;
  /** Seconds of one long run of shape 1 against the plugin, sampling RSS every second (0 = off). */
  readonly soak: number;
  /** Drop and regenerate the bench database even when it exists with the same scale. */
  readonly regenerate: boolean;
  /** Write docs/images/bench.svg and the table in docs/benchmarks.md (default: only for the default scale). */
  readonly writeDocs: boolean;
  /** LOG_LEVEL of the plugin server (the demo server logs one line per request at info). */
  readonly logLevel: string;
  /** Serve the plugin's router on a bare Koa app instead of the demo server (server/app.ts). */
  readonly bare: boolean;
  /**
   * The demo models override `$formatJson`, so every record is built through the model
   * (docs/configuration.md, "Your models as they are").
   */
  readonly modelJson: boolean;
  /**
   * The posts keep their search document in a stored generated `tsvector` column with its own GIN
   * index (database `<name>_doc`), which the plugin's Post declares as `{language, column}` and the
   * floor reads, instead of the expression the demo indexes.
   */
  readonly storedDocument: boolean;
  /** Time the plugin's stages in-process (no HTTP, no load). */
  readonly stages: boolean;
  /** With --compare-scales: reuse bench/results/scale-<n>.json files from an earlier run. */
  readonly resume: boolean;
  /** PLAN_CACHE of the plugin server (undefined = the plugin's default). */
  readonly planCache: number | undefined;
  /** TOTALS_CACHE_SECONDS of the plugin server (undefined = totals counted on every request). */
  readonly totalsCache: number | undefined;
  /** One primary against a primary with a streaming replica, on a throw-away cluster (docs/scaling.md). */
  readonly replica: boolean;
  /** A third server, Koa + Objection + objection-find (installed into bench/.peer), on the shapes it can express. */
  readonly peer: boolean;
  /** What one client's requests cost the others (bench/governance.ts); its default scale is 5,000 and duration 10 s. */
  readonly governance: boolean;
  /** With --governance: how many oversized requests run at once. */
  readonly oversized: number;
  /** With --governance: the length of a long post title, in KB. */
  readonly titleKb: number;
  /** A whole-list CSV export of every user (bench/export.ts): the server's peak RSS against its baseline, and throughput against a floor. */
  readonly export: boolean;
}

/** `''` for the default plugin settings, else e.g. `-plan-cache-0` or `-totals-cache-5s`: part of result file names. */
export function variantSuffix(
  options: Pick<BenchOptions, 'planCache' | 'totalsCache' | 'modelJson' | 'postsPerUser' | 'storedDocument'>,
): string {
  return (
    (options.postsPerUser === DEFAULT_POSTS_PER_USER ? '' : `-ppu${options.postsPerUser}`) +
    (options.storedDocument ? '-stored-document' : '') +
    (options.modelJson ? '-model-json' : '') +
    (options.planCache === undefined ? '' : `-plan-cache-${options.planCache}`) +
    (options.totalsCache === undefined ? '' : `-totals-cache-${options.totalsCache}s`)
  );
}

const usage = `usage: npm run bench -- [options]
  --scale N              users in the data set (default 100000)
  --posts-per-user N     posts per user in the data set (default 5; e.g. 10 vs 1000 for shape 7, at a smaller --scale)
  --duration S           seconds per autocannon run (default 5)
  --rounds R             A/B rounds per shape (default 3)
  --connections C        autocannon connections (default 16)
  --shapes 1,2,3         shapes to run (default 1-7 and 14-18; 8-13 are 1, 3 and 6 with total=estimated, total=none;
                         17 is a deep offset, 18 a search on posts, whose title has no trigram index; 19-22:
                         shape 1 at page 500 by OFFSET, and by cursor at its first page, at page 500, and
                         walking 5,000 pages from page 500, a page further on each request)
                         23 (named only): match on posts (two words, best first) served by the GIN index;
                         24 (named only): search[title] for one of those words, to compare latency with 23
  --database-url URL     admin connection (default $DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --database-prefix P    name the data set's database P_<scale> (default kqm_bench), e.g. to keep your own on a shared server
  --cpu-prof             profile both servers (--cpu-prof) under shapes 1 and 3 (or --shapes) and summarise
  --compare-scales A,B   run the comparison at each scale (e.g. 10000,1000000) and write results/scales.json;
                         without --shapes it runs every shape, 1-22
  --soak S               run shape 1 against the plugin for S seconds, sampling its RSS every second; its live heap
                         after a full GC (--expose-gc) before and after
  --log-level L          LOG_LEVEL of the plugin server (default warn: no per-request log lines; info logs each request)
  --bare                 plugin side = the plugin's router on a bare Koa app, not the demo server's createApp
  --stored-document      the posts' search document in a stored generated tsvector column with a GIN index (its own
                         database, <name>_doc), declared {language, column} by the plugin's Post and read by the floor
  --model-json           the demo models override $formatJson: records are built through the models (their own JSON)
  --stages               time the plugin's stages in-process, one request at a time (parse, validate, plan, compile, respond)
  --resume               with --compare-scales, reuse the results/scale-<n>.json of scales already measured
  --plan-cache N         the plugin server's PLAN_CACHE (0 = parse, validate and write SQL on every request)
  --totals-cache S       the plugin server's TOTALS_CACHE_SECONDS (keep envelope totals S seconds; default: count every time)
  --replica              one primary vs primary + one streaming replica (throw-away cluster made with initdb and
                         pg_basebackup): throughput ratio and CPU per request of the app, the primary and the replica
  --peer                 also load a Koa + Objection + objection-find server (installed into bench/.peer on first
                         use) on the shapes it can express (1, 3, 6, 17, 18): plugin / peer beside plugin / floor
  --governance           a cheap request's p50/p99 alone, beside heavy-lane requests and beside the largest expansions,
                         and peak RSS under N oversized requests, against their targets (default --scale 5000, --duration 10)
  --export               one whole-list CSV export of every user (format=csv, streamed): the plugin server's peak RSS
                         against its baseline, and the export's throughput against a floor (pg rows written as CSV)
  --oversized N          with --governance: oversized requests at once (default 4)
  --title-kb K           with --governance: the long post titles' length in KB (default 20)
  --regenerate           rebuild the data set even if the database already holds this scale
  --write-docs / --no-write-docs   update docs/images/bench.svg and the tables in docs/benchmarks.md
                         (default: on for a default run and for --compare-scales)`;

function positiveInt(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) {
    throw new Error(`${flag} needs a positive whole number, got "${text ?? ''}"\n${usage}`);
  }
  return n;
}

function intList(flag: string, text: string | undefined): number[] {
  if (text === undefined || text === '') throw new Error(`${flag} needs a comma-separated list\n${usage}`);
  return text.split(',').map((part) => positiveInt(flag, part.trim()));
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  let scale: number | undefined;
  let postsPerUser = DEFAULT_POSTS_PER_USER;
  let duration: number | undefined;
  let rounds = 3;
  let connections = 16;
  let shapes: number[] | undefined;
  let databaseUrl =
    env.DATABASE_URL !== undefined && env.DATABASE_URL !== '' ? env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/postgres';
  let databasePrefix = 'kqm_bench';
  let cpuProf = false;
  let compareScales: number[] | undefined;
  let soak = 0;
  let regenerate = false;
  let writeDocs: boolean | undefined;
  let logLevel = 'warn';
  let bare = false;
  let modelJson = false;
  let storedDocument = false;
  let stages = false;
  let resume = false;
  let planCache: number | undefined;
  let totalsCache: number | undefined;
  let replica = false;
  let peer = false;
  let governance = false;
  let oversized = 4;
  let titleKb = 20;
  let exportMode = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--scale':
        scale = positiveInt(flag, value());
        break;
      case '--posts-per-user':
        postsPerUser = positiveInt(flag, value());
        break;
      case '--duration':
        duration = positiveInt(flag, value());
        break;
      case '--rounds':
        rounds = positiveInt(flag, value());
        break;
      case '--connections':
        connections = positiveInt(flag, value());
        break;
      case '--shapes':
        shapes = intList(flag, value());
        break;
      case '--database-url':
        databaseUrl = value() ?? databaseUrl;
        break;
      case '--database-prefix': {
        const text = value();
        if (text === undefined || !/^[a-z_][a-z0-9_]*$/.test(text))
          throw new Error(`--database-prefix needs a lower-case SQL name, got "${text ?? ''}"\n${usage}`);
        databasePrefix = text;
        break;
      }
      case '--cpu-prof':
        cpuProf = true;
        break;
      case '--compare-scales':
        compareScales = intList(flag, value());
        break;
      case '--soak':
        soak = positiveInt(flag, value());
        break;
      case '--regenerate':
        regenerate = true;
        break;
      case '--log-level':
        logLevel = value() ?? logLevel;
        break;
      case '--bare':
        bare = true;
        break;
      case '--stored-document':
        storedDocument = true;
        break;
      case '--model-json':
        modelJson = true;
        break;
      case '--stages':
        stages = true;
        break;
      case '--resume':
        resume = true;
        break;
      case '--replica':
        replica = true;
        break;
      case '--peer':
        peer = true;
        break;
      case '--governance':
        governance = true;
        break;
      case '--export':
        exportMode = true;
        break;
      case '--oversized':
        oversized = positiveInt(flag, value());
        break;
      case '--title-kb':
        titleKb = positiveInt(flag, value());
        break;
      case '--plan-cache': {
        const text = value();
        if (text === undefined || !/^\d+$/.test(text))
          throw new Error(`--plan-cache needs a whole number (0 = off), got "${text ?? ''}"\n${usage}`);
        planCache = Number(text);
        break;
      }
      case '--totals-cache':
        totalsCache = positiveInt(flag, value());
        break;
      case '--write-docs':
        writeDocs = true;
        break;
      case '--no-write-docs':
        writeDocs = false;
        break;
      case '--help':
      case '-h':
        console.log(usage);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option "${arg}"\n${usage}`);
    }
  }
  const chosen = shapes ?? (cpuProf ? [1, 3] : compareScales === undefined ? [...DEFAULT_SHAPE_IDS] : [...SCALES_SHAPE_IDS]);
  for (const s of chosen)
    if (!SHAPES.some((shape) => shape.id === s)) throw new Error(`--shapes: there are shapes 1 to ${SHAPES.length}, got ${s}`);
  return {
    scale: scale ?? (governance ? 5_000 : 100_000),
    postsPerUser,
    duration: duration ?? (governance ? 10 : 5),
    rounds,
    connections,
    shapes: chosen,
    databaseUrl,
    databasePrefix,
    cpuProf,
    compareScales,
    soak,
    regenerate,
    logLevel,
    bare,
    stages,
    resume,
    planCache,
    totalsCache,
    modelJson,
    storedDocument,
    replica,
    peer,
    governance,
    export: exportMode,
    oversized,
    titleKb,
    // A default run rewrites the chart and the results block; --compare-scales rewrites its scales block.
    writeDocs:
      writeDocs ??
      (compareScales !== undefined ||
        ((scale ?? 100_000) === 100_000 &&
          !governance &&
          postsPerUser === DEFAULT_POSTS_PER_USER &&
          !cpuProf &&
          !bare &&
          !modelJson &&
          !storedDocument &&
          !stages &&
          !replica &&
          soak === 0 &&
          shapes === undefined &&
          planCache === undefined &&
          totalsCache === undefined)),
  };
}
