// The admin UI's value pickers in a real browser: a filter row on a field of the record itself lists
// the field's most frequent values with their counts (from `facet[...]`), and a between row shows the
// field's range (from `stats[...]`), both as the API itself answers them.

import { expect } from 'chai';
import { useAdminBrowser } from './admin-harness';

interface Facets {
  facets: Record<string, { value: unknown; count: number }[]>;
  stats: Record<string, { min: unknown; max: unknown }>;
}

describe('admin UI: value pickers from facets and stats (browser)', function () {
  this.timeout(120000);
  const h = useAdminBrowser();

  async function api(query: string): Promise<Facets> {
    const response = await fetch(`${h.origin}/api/users?${query}&per-page=1&total=none`);
    expect(response.status).to.equal(200);
    return (await response.json()) as Facets;
  }

  it("lists a field's most frequent values with their counts", async function () {
    await h.admin.open();
    const filter = await h.admin.addRow('root-filter', 'Add filter');
    await filter.getByLabel('Field', { exact: true }).selectOption('role');
    const value = filter.getByLabel('Value', { exact: true });
    const listId = await value.getAttribute('list');
    expect(listId).to.be.a('string');
    const options = h.page.locator(`datalist[id="${listId ?? ''}"] option`);
    const expected = (await api('facet[role]&facet_limit=20')).facets.role ?? [];
    expect(expected.length).to.be.greaterThan(1);
    await options.nth(expected.length - 1).waitFor({ state: 'attached' });
    const shown: (string | null)[][] = [];
    for (const option of await options.all()) shown.push([await option.getAttribute('value'), await option.getAttribute('label')]);
    expect(shown).to.deep.equal(expected.map((v) => [String(v.value), `${String(v.value)} (${v.count})`]));
  });

  it("shows a range's min and max beside its bounds", async function () {
    await h.admin.open();
    const between = await h.admin.addRow('root-between', 'Add between');
    await between.getByLabel('Field', { exact: true }).selectOption('score');
    const { min, max } = (await api('stats[score]')).stats.score ?? { min: null, max: null };
    expect(await between.getByText(/^Range: /).textContent({ timeout: 20000 })).to.equal(`Range: ${String(min)} … ${String(max)}`);
  });
});
