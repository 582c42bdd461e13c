import dns, { type LookupAddress } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { DestinationRefusedError } from './channel';

/**
 * Where a channel may send (docs/security.md "Outbound requests"):
 * - `public`: public unicast addresses only — push endpoints are public push services, and a
 *   viewer chooses them;
 * - `no-link-local`: anything but link-local, cloud-metadata, multicast, broadcast and
 *   unspecified addresses — webhooks, which admins may point at a receiver on the plant network
 *   (and push with PUSH_ALLOW_PRIVATE, for tests with a local push service).
 */
export type DestinationPolicy = 'public' | 'no-link-local';

/** Webhooks: an admin's receivers, the plant network included. */
export const WEBHOOK_POLICY: DestinationPolicy = 'no-link-local';

/** Push: public push services, unless local endpoints are allowed (PUSH_ALLOW_PRIVATE, tests only). */
export const pushPolicy = (allowPrivate: boolean): DestinationPolicy => (allowPrivate ? 'no-link-local' : 'public');

/**
 * IPv6 forms that carry an IPv4 address inside (NAT64, 6to4, Teredo, IPv4-translated): refused
 * under both policies rather than judged by the address inside, which a gateway may reach.
 */
const EMBEDDING_RANGES = new Set(['rfc6052', '6to4', 'teredo', 'rfc6145']);
/** ipaddr.js calls these 'unicast'; the deprecated IPv4-compatible form (::a.b.c.d) embeds one too. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** Cloud metadata services outside link-local: Alibaba's, and AWS's IPv6 one (unique local). */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);
const NO_LINK_LOCAL_REFUSED = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', ...EMBEDDING_RANGES]);

/** Whether a channel under `policy` may connect to this IP address (anything that is not one: no). */
export function addressAllowed(address: string, policy: DestinationPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (EMBEDDING_RANGES.has(range) || (range === 'unicast' && ip instanceof ipaddr.IPv6 && ip.match(IPV4_COMPATIBLE))) return false;
  if (policy === 'public') return range === 'unicast';
  return !NO_LINK_LOCAL_REFUSED.has(range) && !METADATA_ADDRESSES.has(ip.toString());
}

/**
 * The verdict on a URL's host when it is an IP address, or null for a name (judged by what it
 * resolves to). The WHATWG URL parser has already turned every IPv4 notation — one decimal
 * number, octal, hex, fewer than four parts, a trailing dot — into dotted decimal, and IPv6 into
 * its compressed form in brackets, so `net.isIP` recognises every literal.
 */
export function literalHostAllowed(url: URL, policy: DestinationPolicy): boolean | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(host) ? addressAllowed(host, policy) : null;
}

/** How long a check at creation waits for DNS before leaving the verdict to the attempts. */
const RESOLVE_WAIT_MS = 2_000;

/**
 * The check when a destination is saved (a subscription, a webhook): a literal address by
 * itself, a name by every address it resolves to now. A name that does not resolve now is let
 * through — every attempt checks again, at connect time (`guardedLookup`).
 */
export async function destinationAllowed(url: URL, policy: DestinationPolicy): Promise<boolean> {
  const literal = literalHostAllowed(url, policy);
  if (literal !== null) return literal;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    dns.promises.lookup(url.hostname, { all: true }).catch(() => null),
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), RESOLVE_WAIT_MS))),
  ]).finally(() => clearTimeout(timer));
  return addresses === null || addresses.every((a) => addressAllowed(a.address, policy));
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` of a channel's sockets: every address a name resolves to is checked when the
 * connection is made, on every attempt — a name that resolves to 127.0.0.1 today is refused
 * today, whatever it resolved to when it was saved. One refused address refuses the name (no
 * choosing among them). A literal address never comes here: `literalHostAllowed` judges it.
 */
export function guardedLookup(policy: DestinationPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => !addressAllowed(a.address, policy))) return callback(new DestinationRefusedError(), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
