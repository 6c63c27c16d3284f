// Owns loading the demo rows into the database: once, only into an empty users table, in one
// transaction, with multi-row inserts.
import type { Knex } from 'knex';
import { DEFAULT_SEED, DEFAULT_USER_COUNT, generateSeedData } from './seed-data';

/** What `seedDemo` did. */
export interface SeedResult {
  readonly seeded: boolean;
  readonly users: number;
  readonly posts: number;
  readonly comments: number;
  readonly phones: number;
  readonly userRoles: number;
  readonly milliseconds: number;
}

export interface SeedOptions {
  readonly seed?: number;
  readonly userCount?: number;
}

// PostgreSQL allows 65535 bindings per statement; 500 rows of up to 11 columns stay far below.
const CHUNK_ROWS = 500;

async function insertChunked(trx: Knex.Transaction, table: string, rows: readonly object[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    await trx(table).insert(rows.slice(start, start + CHUNK_ROWS));
  }
}

// Rows are inserted with explicit ids (stable across runs), so each serial sequence must be moved past them.
async function resetSequence(trx: Knex.Transaction, table: string): Promise<void> {
  await trx.raw("select setval(pg_get_serial_sequence(?, 'id'), coalesce((select max(id) from ??), 0) + 1, false)", [table, table]);
}

async function insertRoles(
  trx: Knex.Transaction,
  names: ReadonlyArray<{ name: string; description: string }>,
): Promise<Map<string, number>> {
  // roles has no foreign key to users, so it may survive an emptied users table: keep existing rows.
  await trx('roles').insert(names).onConflict('name').ignore();
  const rows: Array<{ id: number; name: string }> = await trx('roles').select('id', 'name');
  return new Map(rows.map((row) => [row.name, row.id]));
}

/**
 * Fills the demo tables when `users` is empty; otherwise changes nothing.
 * Example: `await seedDemo(knex)` → `{ seeded: true, users: 300, posts: …, … }`, then `{ seeded: false, … }`.
 */
export async function seedDemo(knex: Knex, options: SeedOptions = {}): Promise<SeedResult> {
  const started = performance.now();
  const data = generateSeedData(options.seed ?? DEFAULT_SEED, options.userCount ?? DEFAULT_USER_COUNT);
  const seeded = await knex.transaction(async (trx) => {
    const existing: unknown = await trx('users').select('id').first();
    if (existing !== undefined) return false;
    await insertChunked(trx, 'users', data.users);
    await insertChunked(trx, 'posts', data.posts);
    await insertChunked(trx, 'comments', data.comments);
    await insertChunked(trx, 'phones', data.phones);
    const roleIds = await insertRoles(trx, data.roles);
    const links = data.userRoles.map((link) => {
      const roleId = roleIds.get(link.role_name);
      if (roleId === undefined) throw new Error(`seed: role "${link.role_name}" missing`);
      return { user_id: link.user_id, role_id: roleId };
    });
    await insertChunked(trx, 'user_roles', links);
    for (const table of ['users', 'posts', 'comments', 'phones']) await resetSequence(trx, table);
    return true;
  });
  const counts = seeded
    ? {
        users: data.users.length,
        posts: data.posts.length,
        comments: data.comments.length,
        phones: data.phones.length,
        userRoles: data.userRoles.length,
      }
    : { users: 0, posts: 0, comments: 0, phones: 0, userRoles: 0 };
  return { seeded, ...counts, milliseconds: Math.round(performance.now() - started) };
}
