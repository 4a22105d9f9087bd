import { describe, expect, it } from 'vitest';
import { addressClass, allowedBy, hostPortOf, localName, reachByName, reachOfAddresses, readAllowSites, type AllowSite } from '../../src/core/batch/reach';

describe('addressClass', () => {
  const cases: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'], ['127.255.1.2', 'loopback'], ['::1', 'loopback'], ['[::1]', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'], ['10.255.255.255', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'],
    ['fc00::1', 'private'], ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['febf::1', 'link-local'],
    ['169.254.169.254', 'metadata'], ['fd00:ec2::254', 'metadata'], ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'], ['::', 'unspecified'],
    ['100.64.0.1', 'shared (CGNAT)'], ['100.127.255.255', 'shared (CGNAT)'],
    ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'], ['240.0.0.1', 'reserved'], ['254.1.2.3', 'reserved'], ['2001:db8::1', 'reserved'],
    // IPv6 forms that carry an IPv4 address are what that address is
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:169.254.169.254', 'metadata'], ['::ffff:a9fe:a9fe', 'metadata'],
    ['::127.0.0.1', 'loopback'], ['::7f00:1', 'loopback'], ['::ffff:0:10.0.0.1', 'private'], ['64:ff9b::127.0.0.1', 'loopback'], ['2002:7f00:1::', 'loopback'],
    ['::ffff:8.8.8.8', 'public'],
    ['8.8.8.8', 'public'], ['1.1.1.1', 'public'], ['172.32.0.1', 'public'], ['172.15.255.255', 'public'], ['192.169.0.1', 'public'],
    ['100.63.255.255', 'public'], ['100.128.0.1', 'public'], ['169.253.1.1', 'public'], ['223.255.255.255', 'public'],
    ['2606:4700:4700::1111', 'public'], ['2a00:1450:4001:80b::200e', 'public'], ['[2606:4700::1]', 'public'],
    ['example.com', 'not an IP address'], ['1.2.3.256', 'not an IP address'], ['1::2::3', 'not an IP address'], ['1:2:3:4:5:6:7:8:9', 'not an IP address'], ['', 'not an IP address'],
  ];
  it.each(cases)('%s is %s', (address, want) => {
    expect(addressClass(address)).toBe(want);
  });
});

describe('localName', () => {
  it('refuses the names of this machine by name, and no other name', () => {
    for (const h of ['', 'localhost', 'LOCALHOST', 'localhost.', 'app.localhost', 'a.b.localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']) expect(localName(h), h).toBe(true);
    for (const h of ['localhost.example.com', 'mylocalhost', 'example.com', '127.0.0.1']) expect(localName(h), h).toBe(false);
  });
});

describe('the allow list', () => {
  const read = (...e: string[]): AllowSite[] => {
    const r = readAllowSites(e);
    if (!r.ok) throw new Error(r.problem);
    return r.value;
  };

  it('reads hosts, addresses and ports, comma-separated or repeated', () => {
    expect(read('intranet.example, 10.0.0.5:8080', '[::1]:3000')).toEqual([
      { site: 'intranet.example', port: null }, { site: '10.0.0.5', port: 8080 }, { site: '[::1]', port: 3000 },
    ]);
    expect(read('')).toEqual([]);
  });

  it('refuses what is not a host or host:port', () => {
    for (const e of ['http://x.example/', 'x.example:0', 'x.example:70000', 'a b', 'user@x.example', 'x.example/path', 'x.example:80:80']) {
      const r = readAllowSites([e]);
      expect(r.ok, e).toBe(false);
    }
    expect(readAllowSites(['x.example:99999'])).toMatchObject({ ok: false, problem: expect.stringContaining('"x.example:99999" is not a host or host:port') });
  });

  it('matches a host by its site, and by port when the entry has one', () => {
    const allow = read('intranet.example', '127.0.0.1:4000', '[::1]');
    expect(allowedBy('intranet.example', 443, allow)).toBe(true);
    expect(allowedBy('wiki.intranet.example', 80, allow)).toBe(true);
    expect(allowedBy('intranet.example.evil', 80, allow)).toBe(false);
    expect(allowedBy('127.0.0.1', 4000, allow)).toBe(true);
    expect(allowedBy('127.0.0.1', 4001, allow)).toBe(false);
    expect(allowedBy('localhost', 4000, allow)).toBe(false);
    expect(allowedBy('::1', 1, allow)).toBe(true);
    expect(allowedBy('[::1]', 1, allow)).toBe(true);
  });
});

describe('a request\'s check', () => {
  const rules = { allow: [{ site: '127.0.0.1', port: 4000 }, { site: 'intranet.example', port: null }], passes: new Set(['127.0.0.1:9999', 'api.example:443']) };

  it('lets the worker\'s endpoints and allowed hosts through before any lookup', () => {
    expect(reachByName('127.0.0.1', 9999, rules)).toEqual({ verdict: 'allowed' });
    expect(reachByName('API.example', 443, rules)).toEqual({ verdict: 'allowed' });
    expect(reachByName('127.0.0.1', 4000, rules)).toEqual({ verdict: 'allowed' });
    expect(reachByName('db.intranet.example', 5432, rules)).toEqual({ verdict: 'allowed' });
  });

  it('refuses the names of this machine unless allowed, and resolves the rest', () => {
    expect(reachByName('localhost', 4000, rules)).toMatchObject({ verdict: 'refused', reason: expect.stringMatching(/^localhost names this machine; /) });
    expect(reachByName('', 80, rules)).toMatchObject({ verdict: 'refused', reason: expect.stringMatching(/^the empty host names this machine/) });
    expect(reachByName('127.0.0.1', 9998, rules)).toEqual({ verdict: 'resolve' });
    expect(reachByName('api.example', 80, rules)).toEqual({ verdict: 'resolve' });
    expect(reachByName('shop.example', 443, rules)).toEqual({ verdict: 'resolve' });
  });

  it('refuses a host when any of its addresses is not public', () => {
    expect(reachOfAddresses('shop.example', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])).toBeNull();
    expect(reachOfAddresses('rebind.example', ['93.184.215.14', '127.0.0.1'])).toBe('rebind.example resolves to 127.0.0.1, which is a loopback address; this worker\'s browser reaches only public addresses, its model endpoint and its --allow-site hosts');
    expect(reachOfAddresses('169.254.169.254', ['169.254.169.254'])).toMatch(/^169\.254\.169\.254 is a metadata address; /);
    expect(reachOfAddresses('x.example', ['100.64.1.1'])).toMatch(/which is a shared \(CGNAT\) address/);
    expect(reachOfAddresses('x.example', ['0.0.0.0'])).toMatch(/which is an unspecified address/);
    expect(reachOfAddresses('x.example', [])).toBe('x.example resolves to no address');
  });

  it('compares endpoints by host and port, default ports spelled out', () => {
    expect(hostPortOf('https://API.example/v1')).toBe('api.example:443');
    expect(hostPortOf('http://127.0.0.1:8000/v1')).toBe('127.0.0.1:8000');
    expect(hostPortOf('http://[::1]/v1')).toBe('::1:80');
    expect(hostPortOf('ftp://x.example/')).toBeNull();
  });
});
