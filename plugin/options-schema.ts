// The JSON Schema of the plugin's options. ajv checks options against it at start-up, and plugin.json
// publishes the same schema for CMS hosts (a test keeps the two equal).

export const optionsSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'koa-query-modifiers options',
  type: 'object',
  required: ['knex', 'collections'],
  additionalProperties: false,
  properties: {
    knex: { description: 'A Knex instance connected to PostgreSQL (pg) or PGlite.' },
    collections: {
      description: 'Collection name -> Objection model class; each becomes GET <prefix>/<name>.',
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_-]*$' },
    },
    prefix: {
      description: 'Route prefix of the collection routes.',
      type: 'string',
      pattern: '^(/[A-Za-z0-9._~-]+)*$',
      default: '/api',
    },
    pagination: {
      type: 'object',
      additionalProperties: false,
      properties: {
        defaultPageSize: { type: 'integer', minimum: 1, default: 15 },
        maxPageSize: { type: 'integer', minimum: 1, default: 100 },
        total: {
          description:
            'How envelopes get their total when the request has no total=: exact (a count), estimated (a count up to estimateAbove, ' +
            "the planner's estimate past it) or none (no total); one mode for all, or per collection name (the others exact).",
          oneOf: [
            { enum: ['exact', 'estimated', 'none'] },
            { type: 'object', additionalProperties: { enum: ['exact', 'estimated', 'none'] } },
          ],
          default: 'exact',
        },
        estimateAbove: {
          description:
            "With total=estimated, up to this many matching records are counted exactly; past it the total is the planner's estimate.",
          type: 'integer',
          minimum: 0,
          default: 10000,
        },
        estimateTtlSeconds: {
          description:
            "With total=estimated, how many seconds the planner's estimate of one query (statement and values) is kept before it is planned again; " +
            '0 plans on every request. The capped count runs on every request regardless.',
          type: 'number',
          minimum: 0,
          maximum: 3600,
          default: 5,
        },
        plannerEstimatesUnderScope: {
          description:
            "With a scope or scopeModel hook, total=estimated past estimateAbove answers estimateAbove + 1 (a lower bound), since the planner's " +
            'estimate counts the rows the hooks hide too; true (or true per collection name) gives the estimate anyway, which tells clients ' +
            'roughly how many hidden rows there are.',
          oneOf: [{ type: 'boolean' }, { type: 'object', additionalProperties: { type: 'boolean' } }],
          default: false,
        },
      },
    },
    maxRows: {
      description: 'Most records in an unpaginated (bare array) response.',
      type: 'integer',
      minimum: 1,
      default: 1000,
    },
    limits: {
      description: 'Cost caps; a request over one gets 400 LIMIT_EXCEEDED.',
      type: 'object',
      additionalProperties: false,
      properties: {
        maxQueryLength: { type: 'integer', minimum: 1, default: 8192 },
        maxClauses: { type: 'integer', minimum: 1, default: 50 },
        maxListItems: { type: 'integer', minimum: 1, default: 500 },
        maxExpansions: {
          description: 'Most expansions in one request, counted at every depth.',
          type: 'integer',
          minimum: 1,
          default: 5,
        },
        maxExpandDepth: {
          description: 'Deepest nested expansion: expand[...] is depth 1, <alias>_expand[...] one deeper.',
          type: 'integer',
          minimum: 1,
          default: 3,
        },
        maxRelatedRows: {
          description: 'Most related records one expansion may load for all parents of a response; more is 400 LIMIT_EXCEEDED.',
          type: 'integer',
          minimum: 1,
          default: 5000,
        },
        maxResponseBytes: {
          description:
            'Largest body of one response, in bytes; the plugin stops reading past it and answers 400 LIMIT_EXCEEDED naming what to ask less of.',
          type: 'integer',
          minimum: 1024,
          default: 8388608,
        },
        maxInFlightBytes: {
          description:
            'Response bytes all requests in flight may hold together; a request arriving past it is 503 SERVER_BUSY with Retry-After. Default: 8 times maxResponseBytes.',
          type: 'integer',
          minimum: 1,
        },
        maxExportRows: {
          description:
            'Most records a whole-list CSV export (format=csv or Accept: text/csv without page parameters or limit) may stream; more is 400 LIMIT_EXCEEDED before anything is sent.',
          type: 'integer',
          minimum: 1,
          default: 100000,
        },
        exportBatchRows: {
          description: 'Most records one batch of a whole-list CSV export reads from the database at a time.',
          type: 'integer',
          minimum: 1,
          maximum: 100000,
          default: 1000,
        },
        heavyCost: {
          description: 'A request whose rows statement the planner costs above this is heavy (its own lane).',
          type: 'number',
          exclusiveMinimum: 0,
          default: 25000,
        },
        heavyConcurrency: {
          description: 'Most heavy requests holding database connections at once; default half the pool, at least 1.',
          type: 'integer',
          minimum: 1,
        },
        heavyQueueMs: {
          description: 'How long a heavy request waits for a turn before 503 SERVER_BUSY.',
          type: 'integer',
          minimum: 0,
          default: 2000,
        },
        maxCost: {
          description: 'A request the planner costs above this is 400 LIMIT_EXCEEDED; default off.',
          type: 'number',
          exclusiveMinimum: 0,
        },
      },
    },
    cors: {
      description: 'CORS for the plugin routes: false (default) or the options of @koa/cors, e.g. {"origin": "https://site.example"}.',
      oneOf: [{ const: false }, { type: 'object' }],
    },
    cacheControl: {
      description:
        'Cache-Control of successful responses: one value for all, or per collection name. With an authorize, scope or scopeModel hook, ' +
        'a value without public, private, s-maxage or no-store gets "private, " in front (default "private, no-cache"); public or ' +
        's-maxage there needs vary.',
      oneOf: [
        { type: 'string', minLength: 1 },
        { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
      ],
      default: 'no-cache',
    },
    admin: {
      description: 'Serve the admin UI and collection metadata; false or absent turns them off.',
      oneOf: [
        { const: false },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            path: { type: 'string', pattern: '^(/[A-Za-z0-9._~-]+)+$', default: '/admin' },
            explain: {
              description:
                'Serve <prefix>/_explain: the SQL, bindings and plans of a request, scope conditions and hidden columns included, ' +
                "to clients for whom authorize(ctx, '_explain') returns true (to everyone when there is no authorize hook).",
              type: 'boolean',
              default: false,
            },
          },
        },
      ],
    },
    authorize: { description: 'authorize(ctx, collection): allow, deny (403) or {status: 401|403, detail}.' },
    scopeModel: {
      description:
        'scopeModel(ctx, model, query, label): restricts every query on a model wherever it appears (root, every expansion, every count, explain); may be async.',
    },
    scope: {
      description:
        'scope(ctx, collection, query): restricts one label: the root query and its count (the collection name) or one relation (`users.posts`); may be async.',
    },
    logger: { description: 'An object with an error(message, error) method; defaults to console.' },
    planCache: {
      description:
        'Prepared queries (parsed, validated, their SQL written) kept between requests, least recently used dropped first: ' +
        '{"maxBytes": n} bounds their estimated memory in bytes, optionally with "maxEntries"; a number bounds how many are kept instead; ' +
        '0 (or maxBytes 0) turns the cache off.',
      oneOf: [
        { type: 'integer', minimum: 0 },
        {
          type: 'object',
          additionalProperties: false,
          required: ['maxBytes'],
          properties: {
            maxBytes: { type: 'integer', minimum: 0 },
            maxEntries: { type: 'integer', minimum: 1 },
          },
        },
      ],
      default: { maxBytes: 8388608 },
    },
    search: {
      description:
        'Ranked search: similarityThreshold is the least trigram similarity (0 to 1, default 0.3) a record needs to be kept by similar[field].',
      type: 'object',
      additionalProperties: false,
      properties: { similarityThreshold: { type: 'number', minimum: 0, maximum: 1, default: 0.3 } },
    },
    totalsCache: {
      description:
        'Keep the total of each paginated query for ttlSeconds, so repeated pages skip the count; totals may then lag writes by that much. false (default) counts on every request.',
      oneOf: [
        { const: false },
        {
          type: 'object',
          additionalProperties: false,
          required: ['ttlSeconds'],
          properties: {
            ttlSeconds: { type: 'number', exclusiveMinimum: 0, maximum: 86400 },
            maxEntries: { type: 'integer', minimum: 1, default: 1000 },
          },
        },
      ],
      default: false,
    },
    vary: {
      description:
        'The request headers the hooks read (e.g. ["Authorization", "X-Tenant"]), added to Vary on every answer so a shared cache keeps ' +
        'one copy per caller; required with a public or s-maxage cacheControl on a mount with hooks.',
      type: 'array',
      items: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'+.^_`|~-]+$" },
      default: [],
    },
    indexAdvice: {
      description:
        'Start-up warning, one line per collection, when a table of at least minRows rows (the planner estimate) lacks an index ' +
        'its declarations need (router.indexAdvice() lists them); false skips the check.',
      oneOf: [
        { const: false },
        { type: 'object', additionalProperties: false, properties: { minRows: { type: 'integer', minimum: 0, default: 10000 } } },
      ],
    },
    serverTiming: {
      description: 'Send Server-Timing (parse, query and serialize durations) on collection answers.',
      type: 'boolean',
      default: false,
    },
    replicas: {
      description:
        'Read replicas: a list of Knex instances (or {name, knex}), or {servers, maxLagMs, checkIntervalMs, checkTimeoutMs, queryTimeoutMs, readAfter, revealServer}. ' +
        'Each request goes to one usable replica, else to knex (the primary); see docs/scaling.md.',
      oneOf: [
        { type: 'array', minItems: 1 },
        {
          type: 'object',
          additionalProperties: false,
          required: ['servers'],
          properties: {
            servers: { type: 'array', minItems: 1 },
            maxLagMs: { description: 'A replica further behind the primary gets no requests.', type: 'integer', minimum: 0, default: 2000 },
            checkIntervalMs: { description: 'How often each server is checked.', type: 'integer', minimum: 50, default: 1000 },
            checkTimeoutMs: {
              description: 'A check that takes longer takes the replica out of rotation.',
              type: 'integer',
              minimum: 1,
              default: 2000,
            },
            queryTimeoutMs: {
              description:
                "How long one request's statements may take on a replica before it is taken out of rotation and the request is answered by another server.",
              type: 'integer',
              minimum: 1,
              maximum: 3600000,
              default: 5000,
            },
            readAfter: { description: 'readAfter(ctx): the WAL position the answer must include (read-your-writes); may be async.' },
            revealServer: {
              description:
                'Name the answering server in Server-Timing (db;desc="replica-1"); Server-Timing is sent only with serverTiming: true.',
              type: 'boolean',
              default: false,
            },
          },
        },
      ],
    },
    cursorSecret: {
      description:
        'The secret cursors are sealed with (AES-256-GCM under a key derived from it): at least 32 characters, the same on every instance; ' +
        'or a list whose first entry seals and every entry opens, to rotate it. Absent: a random key per process (cursors do not survive a restart).',
      oneOf: [
        { type: 'string', minLength: 32 },
        { type: 'array', minItems: 1, items: { type: 'string', minLength: 32 } },
      ],
    },
  },
} as const;
