// A host that mounts koa-query-modifiers with its cursor secret from CURSOR_SECRET (several,
// comma-separated, while rotating: the first seals), as docs/configuration.md ("Cursor secret")
// describes. The plugin's warnings are kept and served at /host/warnings for the test to read. It
// is served by serve-host.cts.
import Koa from 'koa';
import { queryModifiers } from 'koa-query-modifiers';
import { openDatabase } from './database.cjs';
import { Account, Member } from './models.cjs';
import { serveHost, type Host } from './serve-host.cjs';

const warnings: string[] = [];

function cursorSecret(): string | string[] | undefined {
  const value = process.env.CURSOR_SECRET;
  if (value === undefined || value === '') return undefined;
  const secrets = value.split(',');
  return secrets.length === 1 ? value : secrets;
}

async function main(): Promise<Host> {
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

  return { app, knex };
}

serveHost(main);
