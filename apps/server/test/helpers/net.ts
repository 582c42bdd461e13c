import net from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the OS picks it), for a server a test starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Waits until something listens on 127.0.0.1:`port`: the server a test started (`what`) is ready.
 * Fails at once if `exited` says it is gone, and after `timeoutMs`; `output` then explains.
 */
export async function waitForPort(port: number, what: string, opts: { exited: () => boolean; output: () => string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    if (opts.exited()) throw new Error(`${what} exited: ${opts.output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port}: ${opts.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
