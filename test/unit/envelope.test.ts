// Unit tests of the pagination envelope and its Laravel-style link window.

import { expect } from 'chai';
import { buildEnvelope, pageWindow } from '../../plugin/respond';
import { ENVELOPE_KEYS } from '../support/envelope-keys';

describe('respond: page window', () => {
  it('lists every page when there are fewer than 14', () => {
    expect(pageWindow(1, 13)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('shows the first ten pages near the beginning', () => {
    expect(pageWindow(7, 50)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 49, 50]);
  });

  it('shows the last ten pages near the end', () => {
    expect(pageWindow(44, 50)).to.deep.equal([1, 2, null, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
  });

  it('shows three pages each side in the middle', () => {
    expect(pageWindow(20, 50)).to.deep.equal([1, 2, null, 17, 18, 19, 20, 21, 22, 23, null, 49, 50]);
  });
});

describe('respond: envelope', () => {
  const url = (n: number) => `http://h/api/users?page=${n}`;

  it("has Laravel's keys in order and null from/to past the end", () => {
    const envelope = buildEnvelope([], { page: 9, pageSize: 10, total: 25, path: 'http://h/api/users', pageUrl: url });
    expect(Object.keys(envelope)).to.deep.equal(ENVELOPE_KEYS);
    expect([envelope.from, envelope.to, envelope.last_page, envelope.next_page_url, envelope.prev_page_url]).to.deep.equal([
      null,
      null,
      3,
      null,
      url(8),
    ]);
  });

  it('counts from and to on a middle page and marks the current link', () => {
    const data = Array.from({ length: 10 }, (_, i) => ({ id: i }));
    const envelope = buildEnvelope(data, { page: 2, pageSize: 10, total: 25, path: 'p', pageUrl: url });
    expect([envelope.from, envelope.to]).to.deep.equal([11, 20]);
    expect(envelope.links).to.deep.equal([
      { url: url(1), label: '&laquo; Previous', active: false },
      { url: url(1), label: '1', active: false },
      { url: url(2), label: '2', active: true },
      { url: url(3), label: '3', active: false },
      { url: url(3), label: 'Next &raquo;', active: false },
    ]);
  });
});
