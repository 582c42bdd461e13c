import { describe, expect, it } from 'vitest';
import { AddressAllowlist } from './address-allowlist';

describe('AddressAllowlist', () => {
  it('matches addresses and CIDRs of both families; IPv4-mapped IPv6 as IPv4', () => {
    const list = AddressAllowlist.parse(' 10.0.0.0/8, 192.168.1.7 ,2001:db8::/32, ::ffff:172.16.0.0/108');
    for (const ok of ['10.1.2.3', '::ffff:10.9.9.9', '192.168.1.7', '2001:db8::1', '172.16.5.5']) expect(list.allows(ok), ok).toBe(true);
    for (const no of ['11.0.0.1', '192.168.1.8', '2001:db9::1', '127.0.0.1', '::1', 'not-an-ip', '']) expect(list.allows(no), no).toBe(false);
  });

  it('names a bad entry', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0', 'example.com', '2001:db8::/129', '1.2.3.4/x']) {
      expect(() => AddressAllowlist.parse(`127.0.0.1, ${bad}`)).toThrow(bad);
    }
  });
});
