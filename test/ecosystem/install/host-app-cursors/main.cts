// A host that mounts koa-query-modifiers with its cursor secret from CURSOR_SECRET (several,
// comma-separated, while rotating: the first seals), as docs/configuration.md ("Cursor secret")
// describes. The plugin's warnings are kept and served at /host/warnings for the test to read. It
// listens on an ephemeral port, prints {"port": N} and stops on SIGTERM.
import http from 'node:http';
import Koa from 'koa';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Account, Member } from './models.cjs';

const warnings: string[] = [];

function cursorSecret(): string | string[] | undefined {
  const value = process.env.CURSOR_SECRET;
  if (value === undefined || value === '') return undefined;
  const secrets = value.split(',');
  return secrets.length === 1 ? value : secrets;
}

async function main() {
  const knex = await openDatabase();
  const secret = cursorSecret();
  const router = await queryModifiers({
    knex,
    collections: { members: Member, accounts: Account },
    ...(secret === undefined ? {} : { cursorSecret: secret }),
    logger: {
      error: (message: string, error?: unknown) => process.stderr.write(`${message} ${String(error)}\n`),
      warn: (message: string) => warnings.push(message),
    },
  });

  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.path !== '/host/warnings') return next();
    ctx.body = warnings;
  });
  app.use(router.routes()).use(router.allowedMethods());

  const server = http.createServer(app.callback());
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      knex.destroy().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`host failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
