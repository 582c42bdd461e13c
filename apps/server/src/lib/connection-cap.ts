import type net from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Caps the open connections one address may hold on a listener, so that one host cannot take
 * every file descriptor (and with them health checks and every other client). Addresses that
 * speak for many clients — trusted reverse proxies, load balancers — can be exempted.
 */
export class ConnectionCap {
  private readonly open = new Map<string, number>();

  /** `max` = 0 means no cap. */
  constructor(
    private readonly max: number,
    private readonly exempt: (address: string) => boolean = () => false,
  ) {}

  /** Counts a new connection until it closes; false (and nothing counted) when over the cap. */
  admit(socket: net.Socket): boolean {
    const address = socket.remoteAddress;
    if (this.max === 0 || address === undefined || this.exempt(address)) return true;
    const count = this.open.get(address) ?? 0;
    if (count >= this.max) return false;
    this.open.set(address, count + 1);
    socket.once('close', () => {
      const left = (this.open.get(address) ?? 1) - 1;
      if (left > 0) this.open.set(address, left);
      else this.open.delete(address);
    });
    return true;
  }
}

/**
 * A listener's cap from the configuration: `MAX_CONNECTIONS_PER_ADDRESS`, with the proxies and
 * balancers of `TRUST_PROXY` exempt (they speak for many clients).
 */
export function connectionCapFor(config: { maxConnectionsPerAddress: number; trustProxy: string[] }): ConnectionCap {
  const trusted = config.trustProxy.length > 0 ? proxyAddr.compile(config.trustProxy) : null;
  return new ConnectionCap(config.maxConnectionsPerAddress, (address) => trusted?.(address, 0) ?? false);
}
