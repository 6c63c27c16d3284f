// The admin UI's search box (docs/query-language.md, "Ranked search: match and similar") in a real
// browser: shown for a collection whose model declares a search document (posts), not for one that
// declares none (users); what is typed becomes `match=`, the records come best first, and a pasted
// URL's `match` fills the box.

import { expect } from 'chai';
import { useAdminBrowser } from './admin-harness';

describe('admin UI: the search box (browser)', function () {
  this.timeout(120000);
  const h = useAdminBrowser();

  it('searches posts with match, best first, and offers no box where match is not available', async function () {
    await h.admin.open();
    expect(await h.page.locator('#match').count()).to.equal(0);
    await h.page.getByLabel('Collection').selectOption('posts');
    const box = h.page.getByLabel('Search', { exact: true });
    await box.fill('espresso or measure');
    expect(await h.admin.requestUrl()).to.equal(`${h.origin}/api/posts?match=espresso+or+measure`);
    await h.admin.run();
    const ids = (await h.admin.column('id')).map(Number);
    const expected = (await (await fetch(`${h.origin}/api/posts?match=espresso%20or%20measure&fields=id`)).json()) as { id: number }[];
    expect(ids).to.deep.equal(expected.map((r) => r.id));
    expect(ids[0]).to.equal(384);
  });

  it('fills the box from a pasted URL and gives the same URL back', async function () {
    await h.admin.open('#posts?match=home+espresso&per-page=5');
    expect(await h.page.getByLabel('Search', { exact: true }).inputValue()).to.equal('home espresso');
    expect(await h.admin.requestUrl()).to.equal(`${h.origin}/api/posts?match=home+espresso&per-page=5`);
  });
});
