import type net from 'node:net';

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
