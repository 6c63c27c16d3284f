// A multi-tenant host that mounts koa-query-modifiers three times over the same models: `/api` with
// a label-based `scope` hook written as a concise arrow that returns the query (tenant by the
// X-Tenant slug), `/shared` with an async `scopeModel` hook, a public cacheControl and `vary`, and
// `/timed` without hooks, with Server-Timing. `POST /host/grow` adds members to the other tenant;
// `GET /host/statements` says how many statements ran since it was last asked.
// HOOKS_HOST_MODE=public-without-vary starts `/shared` without `vary`, which must fail.
// It is served by serve-host.cts.
import Koa from 'koa';
import { queryModifiers, type ModelQuery } from 'koa-query-modifiers';
import { growOtherTenant, openDatabase } from './database.cjs';
import { Member, Role, Tenant } from './models.cjs';
import { serveHost, type Host } from './serve-host.cjs';

/** The tenants whose slug the request names: a lookup the planner cannot size in advance. */
const tenantOf = (ctx: Koa.Context) => Tenant.query().select('tenants.id').where('tenants.slug', ctx.get('X-Tenant'));

async function main(): Promise<Host> {
  const knex = await openDatabase();
  const collections = { roles: Role, members: Member };
  const api = await queryModifiers({
    knex,
    prefix: '/api',
    collections,
    pagination: { estimateAbove: 2, estimateTtlSeconds: 0 },
    scope: (ctx, label, query: ModelQuery) =>
      label === 'members' || label.endsWith('.users') ? query.whereIn('members.tenant_id', tenantOf(ctx)) : undefined,
  });
  const shared = await queryModifiers({
    knex,
    prefix: '/shared',
    collections,
    cacheControl: 'public, max-age=60',
    ...(process.env.HOOKS_HOST_MODE === 'public-without-vary' ? {} : { vary: ['X-Tenant'] }),
    scopeModel: async (ctx, model, query) => {
      await new Promise((resolveSoon) => setTimeout(resolveSoon, 1));
      return model === Member ? query.whereIn('members.tenant_id', tenantOf(ctx)) : query;
    },
  });
  const timed = await queryModifiers({ knex, prefix: '/timed', collections, serverTiming: true });

  // The host counts the statements its database runs, as a host's query log does.
  let statements = 0;
  knex.on('query', () => {
    statements += 1;
  });

  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path === '/host/grow') {
      await growOtherTenant(knex, Number(ctx.query.count ?? 1000));
      ctx.status = 204;
    } else if (ctx.path === '/host/statements') {
      ctx.body = { statements };
      statements = 0;
    } else {
      await next();
    }
  });
  for (const router of [api, shared, timed]) app.use(router.routes()).use(router.allowedMethods());

  return { app, knex };
}

serveHost(main);
