// The demo server's reading of Accept-Encoding (server/compression.ts, RFC 9110 12.5.3): weights,
// wildcards, identity, and members that cannot be read.

import { expect } from 'chai';
import { acceptedWeights, chooseCoding } from '../../server/compression';

describe('Accept-Encoding (demo server)', function () {
  it('reads codings and their weights, in any case, leaving out members it cannot read', function () {
    expect([...acceptedWeights('gzip;q=0.5, BR, *;q=0')]).to.deep.equal([
      ['gzip', 0.5],
      ['br', 1],
      ['*', 0],
    ]);
    expect([...acceptedWeights('gzip;q=-1, br;q=1.5, deflate;q=0.1234, zstd;q=abc, x;y=1, y;q=0.5;q=1, ;q=1')]).to.deep.equal([]);
    expect([...acceptedWeights('gzip;q=0.2, gzip;q=0.9')], 'the first weight of a coding named twice').to.deep.equal([['gzip', 0.2]]);
    expect([...acceptedWeights(' gzip ; Q=1.0 ')]).to.deep.equal([['gzip', 1]]);
  });

  it('chooses the offered coding weighed highest, or none', function () {
    const cases: readonly (readonly [string | undefined, string | undefined])[] = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip, br', 'br'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['*', 'br'],
      ['*;q=0.3, gzip;q=0.2', 'br'],
      ['*;q=0.3, br;q=0', 'gzip'],
      ['identity;q=0', undefined],
      ['*;q=0', undefined],
      ['br;q=-1', undefined],
      ['identity, gzip;q=0.5', undefined],
      ['identity;q=0.5, gzip', 'gzip'],
      ['*;q=0.5, gzip;q=0.5', 'br'],
      ['deflate', undefined],
    ];
    for (const [header, wanted] of cases) expect(chooseCoding(header), String(header)).to.equal(wanted);
  });
});
