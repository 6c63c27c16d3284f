// Whether a PostgreSQL server answers at `url`: undefined when it does, else why not. The test runner
// asks it before the suites that need a server, and a suite asks it to fail or skip with the reason.

import { Client } from 'pg';

export async function postgresSilence(url: string): Promise<string | undefined> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}
