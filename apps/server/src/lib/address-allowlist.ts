import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where people may sign in from (ALLOWED_NETWORKS, docs/security.md): addresses or CIDRs, IPv4
 * and IPv6; an IPv4-mapped IPv6 address (::ffff:10.0.0.5) counts as its IPv4.
 */
export class AddressAllowlist {
  private constructor(private readonly ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>) {}

  /** Parses the list; a bad entry throws naming it. */
  static parse(raw: string): AddressAllowlist {
    const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
    for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
      try {
        // Only the usual spellings: ipaddr.js alone would take '10.0.0' for 10.0.0.0.
        if (net.isIP(entry.split('/')[0]!) === 0) throw new Error('invalid');
        if (entry.includes('/')) {
          const [addr, bits] = ipaddr.parseCIDR(entry);
          ranges.push([normalise(addr), addr.kind() === 'ipv6' && normalise(addr).kind() === 'ipv4' ? bits - 96 : bits]);
        } else {
          const addr = normalise(ipaddr.parse(entry));
          ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
        }
      } catch {
        throw new Error(`"${entry}" is not an address or a CIDR (10.0.0.0/8, 2001:db8::/32)`);
      }
    }
    return new AddressAllowlist(ranges);
  }

  allows(address: string): boolean {
    if (net.isIP(address) === 0) return false;
    const addr = normalise(ipaddr.parse(address));
    return this.ranges.some(([net, bits]) => net.kind() === addr.kind() && (addr as ipaddr.IPv4).match(net as ipaddr.IPv4, bits));
  }
}

function normalise(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}
