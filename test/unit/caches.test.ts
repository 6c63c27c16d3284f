// The bounded map behind the plugin's caches.

import { expect } from 'chai';
import { LruMap } from '../../plugin/caches';

describe('LruMap', function () {
  it('drops the least recently used entry when full', function () {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).to.equal(1);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c')]).to.deep.equal([1, undefined, 3]);
    expect(map.size).to.equal(2);
  });

  it('keeps nothing with a capacity of 0', function () {
    const map = new LruMap<string, number>(0);
    map.set('a', 1);
    expect(map.get('a')).to.equal(undefined);
  });
});
