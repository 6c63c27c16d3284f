// The admin UI when the server is busy: a heavy request refused with 503 SERVER_BUSY is shown as a
// plain message with the seconds of its Retry-After, not as a problem body, and no control is marked.

import { expect } from 'chai';
import type { Context } from 'koa';
import { useAdminBrowser } from './admin-harness';
import { serveDemo } from '../support/demo-server';

const SORT_BY_COUNT = 'users?fields=id&count[posts]&sort[posts_count]=desc&per-page=5';

describe('admin UI: a busy server (browser)', function () {
  this.timeout(120000);
  let held: () => void = () => undefined;
  let release: () => void = () => undefined;
  // The host's hook holds a marked request while it reads its expansion: its turn in the heavy lane
  // is held until the test lets it go.
  const scope = async (ctx: Context, label: string): Promise<void> => {
    if (ctx.get('x-hold') === '' || label !== 'users.roles') return;
    held();
    await new Promise<void>((resolve) => (release = resolve));
  };
  const h = useAdminBrowser({
    serve: (server) => serveDemo(server.knex, { explain: true, plugin: { scope, limits: { heavyConcurrency: 1, heavyQueueMs: 2500 } } }),
  });

  it('says the server is busy and when to try again', async function () {
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = fetch(`${h.origin}/api/${SORT_BY_COUNT}&expand[roles]`, { headers: { 'x-hold': '1' } });
    await holding;
    try {
      await h.admin.open(`#${SORT_BY_COUNT}`);
      await h.admin.run();
      const message = h.page.locator('#general-error');
      expect(await message.innerText()).to.equal('The server is busy, try again in 3 s.');
      expect(await h.page.locator('[aria-invalid="true"]').count()).to.equal(0);
    } finally {
      release();
    }
    expect((await holder).status).to.equal(200);
    await h.admin.run();
    expect(await h.admin.column('id')).to.have.length(5);
  });
});
