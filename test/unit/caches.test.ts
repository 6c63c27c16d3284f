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

  describe('bounded by bytes', function () {
    const weigh = (key: string, value: number): number => key.length + value;

    it('drops least recently used entries until the weights fit, counting each once', function () {
      const map = new LruMap<string, number>({ maxBytes: 10 }, weigh);
      map.set('a', 2);
      map.set('b', 2);
      map.set('c', 2);
      expect(map.bytes).to.equal(9);
      expect(map.get('a')).to.equal(2);
      map.set('d', 3);
      // b was the least recently used: dropped; a, c and d weigh 3 + 3 + 4.
      expect([map.get('a'), map.get('b'), map.get('c'), map.get('d')]).to.deep.equal([2, undefined, 2, 3]);
      expect([map.size, map.bytes]).to.deep.equal([3, 10]);
      map.set('a', 0);
      map.delete('c');
      expect([map.size, map.bytes]).to.deep.equal([2, 5]);
    });

    it('keeps no entry heavier than the whole budget, and drops nothing for it', function () {
      const map = new LruMap<string, number>({ maxBytes: 10 }, weigh);
      map.set('a', 5);
      map.set('big', 20);
      expect([map.get('a'), map.get('big'), map.bytes]).to.deep.equal([5, undefined, 6]);
    });

    it('applies an entry count too when both are given', function () {
      const map = new LruMap<string, number>({ maxBytes: 1000, maxEntries: 2 }, weigh);
      for (const key of ['a', 'b', 'c']) map.set(key, 1);
      expect([map.get('a'), map.size, map.bytes]).to.deep.equal([undefined, 2, 4]);
    });
  });
});
