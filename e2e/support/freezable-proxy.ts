import net from 'node:net';

/**
 * A TCP proxy in front of the test server whose links can be frozen: nothing more is delivered in
 * either direction, yet no connection closes — the half-dead link of a flaky plant network, which
 * no TCP close announces. New connections made while frozen hang too.
 */
export interface FreezableProxy {
  url: string;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(targetPort: number): Promise<FreezableProxy> {
  const sockets = new Set<net.Socket>();
  /** What arrived while frozen, per destination, delivered in order on thaw. */
  const held = new Map<net.Socket, Buffer[]>();
  let frozen = false;
  const forward = (from: net.Socket, to: net.Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (frozen) held.set(to, [...(held.get(to) ?? []), chunk]);
      else to.write(chunk);
    });
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => {
        sockets.delete(s);
        held.delete(s);
      });
    }
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const [to, chunks] of held) for (const chunk of chunks) to.write(chunk);
      held.clear();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
