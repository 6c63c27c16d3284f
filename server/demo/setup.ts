// Owns the one call that readies a database for the demo app: schema and indexes first, then the seed.
// The plugin introspects tables when the app is created, so this must run before `createApp`.
import type { Knex } from 'knex';
import { createIndexes } from './indexes';
import { createSchema } from './schema';
import { seedDemo, type SeedOptions, type SeedResult } from './seed';

/**
 * Creates the demo tables and their indexes if missing and seeds them if `users` is empty.
 * Example: `await prepareDemoDatabase(knex); const app = await createApp({ knex });`.
 */
export async function prepareDemoDatabase(knex: Knex, options: SeedOptions = {}): Promise<SeedResult> {
  await createSchema(knex);
  await createIndexes(knex);
  return seedDemo(knex, options);
}
