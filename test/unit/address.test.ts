// Where the demo server listens (server/address.ts): PORT and HOST, and the origin it prints.

import { expect } from 'chai';
import { displayOrigin, readHost, readPort } from '../../server/address';

describe('demo server address: PORT and HOST', function () {
  it('binds 127.0.0.1 by default, the HOST given otherwise', function () {
    expect(readHost(undefined)).to.equal('127.0.0.1');
    expect(readHost('  ')).to.equal('127.0.0.1');
    expect(readHost('0.0.0.0')).to.equal('0.0.0.0');
    expect(readHost('::')).to.equal('::');
  });

  it('reads PORT as 3000 by default and refuses what is not a port', function () {
    expect(readPort(undefined)).to.equal(3000);
    expect(readPort('0')).to.equal(0);
    expect(() => readPort('http')).to.throw(/PORT must be an integer 0-65535/);
  });

  it('prints every interface as localhost and an IPv6 address in brackets', function () {
    expect(displayOrigin('127.0.0.1', 3000)).to.equal('http://127.0.0.1:3000');
    expect(displayOrigin('0.0.0.0', 80)).to.equal('http://localhost:80');
    expect(displayOrigin('::1', 3000)).to.equal('http://[::1]:3000');
  });
});
