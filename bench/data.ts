// Creates (or reuses) the bench database `kqm_bench_<scale>`: the demo schema from server/demo/schema.ts,
// a deterministic data set made with generate_series, and the indexes a real deployment would add.
// The database comment records the data version and scale; a database without it (an interrupted
// run) or with another version is rebuilt.

import Knex from 'knex';
import { Client } from 'pg';
import { createSchema } from '../server/demo/schema';

/** Bump when the generated data or the extra indexes change, so old bench databases are rebuilt. */
const DATA_VERSION = 5;

export interface PreparedDatabase {
  readonly url: string;
  readonly name: string;
  readonly scale: number;
  readonly reused: boolean;
  /** Time the generation took (this run, or the run that made the reused database). */
  readonly generatedMs: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly sizeBytes: number;
}

export function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const marker = (scale: number, postsPerUser: number, ms: number): string =>
  `kqm-bench v${DATA_VERSION} scale=${scale} posts_per_user=${postsPerUser} generated_ms=${ms}`;

function readMarker(comment: string | null, scale: number, postsPerUser: number): number | undefined {
  const m = /^kqm-bench v(\d+) scale=(\d+) posts_per_user=(\d+) generated_ms=(\d+)$/.exec(comment ?? '');
  if (m === null || Number(m[1]) !== DATA_VERSION || Number(m[2]) !== scale || Number(m[3]) !== postsPerUser) return undefined;
  return Number(m[4]);
}

/** Posts per user of the default data set; other counts (`--posts-per-user`) get their own database. */
export const DEFAULT_POSTS_PER_USER = 5;

const FIRST = [
  'Anna',
  'Brian',
  'Chloe',
  'Daniel',
  'Emma',
  'Felix',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Kara',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Uma',
  'Victor',
  'Wendy',
  'Xavier',
  'Yara',
  'Zoe',
  'Ahmed',
  'Bea',
  'Carlos',
  'Dana',
  'Erik',
  'Fatima',
  'Goran',
  'Hana',
  'Ivan',
  'Julia',
  'Kenji',
  'Lena',
  'Marco',
  'Nina',
];
const LAST = [
  'Smith',
  'Garcia',
  'Müller',
  'Rossi',
  'Dubois',
  'Novak',
  'Kowalski',
  'Jensen',
  'Silva',
  'Tanaka',
  'Okafor',
  'Larsen',
  'Moreau',
  'Schmidt',
  'Costa',
  'Nakamura',
  'Berg',
  'Popescu',
  'Horvat',
  'Ivanova',
  'Walsh',
  'Murphy',
  'Lindqvist',
  'Fischer',
  'Kim',
  'Chen',
  'Patel',
  'Singh',
  'Haddad',
  'Cohen',
  'Bauer',
  'Romano',
  'Varga',
  'Nilsen',
  'Meyer',
  'Brown',
  'Wilson',
  'Lopez',
  'Ortiz',
  'Ward',
  'Stone',
  'Fox',
  'Hale',
  'Reyes',
  'Quist',
  'Young',
  'Baker',
  'Perez',
  'Ahn',
  'Dahl',
];
const WORDS = [
  'postgres',
  'koa',
  'index',
  'query',
  'latency',
  'cache',
  'schema',
  'router',
  'paging',
  'filter',
  'search',
  'trigram',
  'replica',
  'vacuum',
  'planner',
  'cursor',
  'tuple',
  'buffer',
  'json',
  'node',
];

const sqlArray = (items: readonly string[]): string => `ARRAY[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

/**
 * The statements that fill an empty demo schema with `n` users and `postsPerUser` posts each.
 * Everything is a function of the row number.
 */
function generationStatements(n: number, postsPerUser: number): string[] {
  const first = sqlArray(FIRST);
  const last = sqlArray(LAST);
  const words = sqlArray(WORDS);
  const posts = n * postsPerUser;
  return [
    `INSERT INTO roles (id, name, description) VALUES
       (1, 'admin', 'Full access'), (2, 'editor', 'Edits and publishes posts'), (3, 'author', 'Writes posts'),
       (4, 'moderator', 'Moderates comments'), (5, 'viewer', 'Reads only')`,
    // Two years of sign-ups, distinct instants (a prime stride) with microseconds; roles and statuses skewed.
    `INSERT INTO users (id, name, email, email_verified_at, created_at, updated_at, status, role, score, is_admin, birthday)
     SELECT g,
            f || ' ' || l,
            lower(f) || '.' || lower(l) || '.' || g || '@example.' || (ARRAY['com','org','net','io'])[1 + g % 4],
            CASE WHEN g % 3 = 0 THEN NULL ELSE c + interval '2 hours' END,
            c,
            c + (g % 90) * interval '1 day' + (g % 3600) * interval '1 second',
            CASE WHEN (g * 17) % 100 < 70 THEN 'active' WHEN (g * 17) % 100 < 90 THEN 'inactive' ELSE 'banned' END,
            r,
            CASE WHEN g % 5 = 0 THEN NULL ELSE ((g::bigint * 7919) % 100000) / 100.0 END,
            r = 'admin',
            CASE WHEN g % 4 = 0 THEN NULL ELSE date '1960-01-01' + ((g * 37) % 15000) END
       FROM generate_series(1, ${n}) AS g,
            LATERAL (SELECT (${first})[1 + g % ${FIRST.length}] AS f,
                            (${last})[1 + (g / ${FIRST.length}) % ${LAST.length}] AS l,
                            timestamptz '2024-01-01 00:00:00+00' + ((g::bigint * 104729) % 63072000) * interval '1 second'
                              + (g % 997) * interval '1 microsecond' AS c,
                            CASE WHEN (g * 31) % 100 < 2 THEN 'admin' WHEN (g * 31) % 100 < 12 THEN 'editor'
                                 WHEN (g * 31) % 100 < 32 THEN 'author' WHEN (g * 31) % 100 < 40 THEN 'moderator'
                                 ELSE 'viewer' END AS r) AS v`,
    // postsPerUser posts per user (7919 is prime, so p -> p * 7919 mod n deals them out evenly), scattered
    // over the heap (a user's posts are not adjacent), three statuses.
    `INSERT INTO posts (id, user_id, title, body, status, views, created_at)
     SELECT p,
            1 + (p::bigint * 7919) % ${n},
            'Post ' || p || ': ' || initcap((${words})[1 + p % ${WORDS.length}]) || ' and ' || (${words})[1 + (p / 7) % ${WORDS.length}],
            'Notes on ' || (${words})[1 + (p / 3) % ${WORDS.length}] || ' in production. ' || repeat('Lorem ipsum dolor sit amet. ', 1 + p % 4),
            CASE WHEN p % 10 < 6 THEN 'published' WHEN p % 10 < 8 THEN 'draft' ELSE 'archived' END,
            (p * 13) % 5000,
            timestamptz '2024-01-01 00:00:00+00' + ((p::bigint * 15485863) % 63072000) * interval '1 second' + (p % 991) * interval '1 microsecond'
       FROM generate_series(1, ${posts}) AS p`,
    // Two comments on most posts (none on every fifth), by users scattered over the table, after the post.
    `INSERT INTO comments (id, post_id, author_id, body, created_at)
     SELECT (p.id - 1) * 2 + c, p.id, 1 + ((p.id * 2 + c)::bigint * 104729) % ${n},
            'Re ' || (${words})[1 + (p.id + c) % ${WORDS.length}] || ': ' || repeat('Well said. ', 1 + (p.id + c) % 3),
            p.created_at + ((p.id * 2 + c) % 1000) * interval '1 minute'
       FROM posts p, generate_series(1, 2) AS c
      WHERE p.id % 5 <> 0`,
    // Phones for every user with an even id.
    `INSERT INTO phones (id, user_id, number, kind)
     SELECT g / 2, g, '+1-555-' || lpad((g % 10000000)::text, 7, '0'),
            CASE g % 6 WHEN 0 THEN NULL WHEN 2 THEN 'home' ELSE 'mobile' END
       FROM generate_series(2, ${n}, 2) AS g`,
    // Every user holds the role named in users.role; every third user a second one.
    `INSERT INTO user_roles (user_id, role_id) SELECT u.id, r.id FROM users u JOIN roles r ON r.name = u.role`,
    `INSERT INTO user_roles (user_id, role_id)
     SELECT id, CASE WHEN role = 'viewer' THEN 3 ELSE 5 END FROM users WHERE id % 3 = 0`,
    `SELECT setval('users_id_seq', ${n}), setval('posts_id_seq', ${posts}), setval('comments_id_seq', ${posts * 2}), setval('phones_id_seq', GREATEST(${Math.floor(n / 2)}, 1)), setval('roles_id_seq', 5)`,
  ];
}

/** Indexes beyond the demo schema (which already has the PKs, unique keys, FKs' indexes and single-column indexes). */
const EXTRA_INDEXES = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  // The demo schema's trigram index on posts.title serves `similar`; shapes 18 and 26 measure `search`
  // on a posts table without one.
  'DROP INDEX IF EXISTS posts_title_trgm',
  'CREATE INDEX users_name_trgm ON users USING gin (name gin_trgm_ops)',
  'CREATE INDEX users_email_trgm ON users USING gin (email gin_trgm_ops)',
  'CREATE INDEX users_status_created_at_id ON users (status, created_at DESC, id)',
  'CREATE INDEX users_role_created_at ON users (role, created_at)',
  'CREATE INDEX posts_user_id_created_at ON posts (user_id, created_at DESC)',
  // How many months the users' sign-ups span, for `facet[created_at]=month` (docs/query-language.md,
  // Facets and stats): without it the planner expects one bucket per distinct instant.
  "CREATE STATISTICS users_created_at_month ON (date_trunc('month', created_at AT TIME ZONE 'UTC')) FROM users",
  // What the index advice gives for sort[created_at]=desc: deep OFFSET pages (shape 17) page its keys in it alone.
  'CREATE INDEX users_created_at_desc_id ON users (created_at DESC, id)',
  // The equality field, the foreign key, the range field: relation conditions on posts (shapes 14 and 15)
  // test each user, and count, in this index alone.
  'CREATE INDEX posts_status_user_id_views ON posts (status, user_id, views)',
];

async function generate(
  url: string,
  scale: number,
  postsPerUser: number,
  log: (line: string) => void,
  extra: readonly string[],
): Promise<void> {
  const knex = Knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await createSchema(knex);
  } finally {
    await knex.destroy();
  }
  await withClient(url, async (client) => {
    // The data is consistent by construction: skip the per-row foreign-key triggers while loading.
    await client.query('SET session_replication_role = replica');
    await client.query("SET maintenance_work_mem = '512MB'");
    for (const statement of [...generationStatements(scale, postsPerUser), ...extra]) {
      const started = Date.now();
      await client.query(statement);
      log(`  ${statement.trim().split(/\s+/).slice(0, 3).join(' ')} … ${Date.now() - started} ms`);
    }
    await client.query('SET session_replication_role = origin');
    for (const statement of EXTRA_INDEXES) {
      const started = Date.now();
      await client.query(statement);
      log(`  ${statement} … ${Date.now() - started} ms`);
    }
    const started = Date.now();
    await client.query('VACUUM (ANALYZE)');
    log(`  VACUUM (ANALYZE) … ${Date.now() - started} ms`);
  });
}

/**
 * The posts' search document kept by the database in a stored generated column, indexed by GIN:
 * ranking reads it instead of computing each matching post's document again (`--stored-document`).
 */
export const STORED_DOCUMENT: DataVariant = {
  suffix: 'doc',
  statements: [
    `ALTER TABLE posts ADD COLUMN document tsvector GENERATED ALWAYS AS (
       setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B')) STORED`,
    'CREATE INDEX posts_document_column ON posts USING gin (document)',
  ],
};

/** A data set that differs from the regular one (the governance run's long texts): its own database. */
export interface DataVariant {
  /** Ends the database's name, e.g. `gov20k`; a changed variant needs a changed suffix. */
  readonly suffix: string;
  /** Run after the regular data is loaded, before the indexes and VACUUM. */
  readonly statements: readonly string[];
}

/**
 * Creates `kqm_bench_<scale>` (or `<prefix>_<scale>`; `kqm_bench_<scale>_ppu<n>` for another number of posts per user,
 * `kqm_bench_<scale>_<suffix>` for a variant) with its data unless it already holds this scale at
 * this data version.
 */
export async function prepareDatabase(
  adminUrl: string,
  scale: number,
  regenerate: boolean,
  log: (line: string) => void,
  postsPerUser = DEFAULT_POSTS_PER_USER,
  variant?: DataVariant,
  prefix = process.env.BENCH_DATABASE_PREFIX ?? 'kqm_bench',
): Promise<PreparedDatabase> {
  // BENCH_DATABASE_PREFIX (or --database-prefix) keeps the databases of two checkouts benchmarking on one server apart.
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`the bench database prefix must be a lower-case SQL name, not ${prefix}`);
  const regular = postsPerUser === DEFAULT_POSTS_PER_USER ? `${prefix}_${scale}` : `${prefix}_${scale}_ppu${postsPerUser}`;
  const name = variant === undefined ? regular : `${regular}_${variant.suffix}`;
  const url = databaseUrlFor(adminUrl, name);
  const existing = await withClient(adminUrl, async (client) => {
    const result = await client.query<{ comment: string | null }>(
      "SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1",
      [name],
    );
    return result.rows[0];
  });
  let generatedMs = existing === undefined || regenerate ? undefined : readMarker(existing.comment, scale, postsPerUser);
  const reused = generatedMs !== undefined;
  if (!reused) {
    log(`generating ${name} (${scale} users, ${scale * postsPerUser} posts) …`);
    const started = Date.now();
    await withClient(adminUrl, async (client) => {
      if (existing !== undefined) await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    });
    await generate(url, scale, postsPerUser, log, variant?.statements ?? []);
    generatedMs = Date.now() - started;
    await withClient(adminUrl, (client) =>
      client.query(`COMMENT ON DATABASE ${name} IS '${marker(scale, postsPerUser, generatedMs as number)}'`),
    );
    log(`generated ${name} in ${(generatedMs / 1000).toFixed(1)} s`);
  } else {
    log(`reusing ${name} (generated earlier in ${((generatedMs as number) / 1000).toFixed(1)} s)`);
  }
  const { counts, sizeBytes } = await withClient(url, async (client) => {
    const counts: Record<string, number> = {};
    for (const table of ['users', 'posts', 'comments', 'phones', 'roles', 'user_roles']) {
      const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      counts[table] = Number(result.rows[0]?.n);
    }
    const size = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return { counts, sizeBytes: Number(size.rows[0]?.bytes) };
  });
  if (counts.users !== scale) throw new Error(`${name} holds ${counts.users} users, expected ${scale}; run with --regenerate`);
  return { url, name, scale, reused, generatedMs: generatedMs as number, counts, sizeBytes };
}
