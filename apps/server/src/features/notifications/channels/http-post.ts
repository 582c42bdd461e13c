import http from 'node:http';
import https from 'node:https';
import { DeadlineError, DestinationRefusedError, PermanentDeliveryError } from './channel';
import { guardedLookup, literalHostAllowed, type DestinationPolicy } from './destinations';

/**
 * POSTs bodies for one channel, under its destination policy, each attempt within a deadline.
 * node:http rather than fetch: a fraction of the CPU per request, which counts in an alarm flood.
 */
export class HttpPoster {
  /**
   * Kept-alive connections: a flood to one receiver reuses a few sockets instead of a handshake
   * per alarm. Each poster has agents of its own, so that a socket vetted under one policy (a
   * webhook on loopback) never carries a request of another (a push).
   */
  private readonly agents: Record<'http:' | 'https:', http.Agent>;

  constructor(
    private readonly policy: DestinationPolicy,
    private readonly deadlineMs: number,
  ) {
    const lookup = guardedLookup(policy);
    this.agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 32, lookup }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 32, lookup }) };
  }

  /**
   * Resolves with the status once the whole answer has come (its body is discarded). The
   * deadline covers all of it — name lookup, connect, TLS, sending, the answer to its last byte —
   * so a receiver that drips its answer costs a slot for the deadline, never more.
   */
  post(target: string, headers: Record<string, string>, body: string | Buffer): Promise<number> {
    const url = new URL(target);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new PermanentDeliveryError('esquema de URL no admitido'));
    // A literal address never goes through the agent's lookup: it is judged here.
    if (literalHostAllowed(url, this.policy) === false) return Promise.reject(new DestinationRefusedError());
    const agent = this.agents[url.protocol];
    return new Promise((resolve, reject) => {
      const req = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        res.resume();
        res.once('end', () => {
          clearTimeout(deadline);
          resolve(res.statusCode ?? 0);
        });
        res.once('error', (err) => {
          clearTimeout(deadline);
          reject(err);
        });
      });
      // Rejected here, whatever the request and its answer then emit as they are torn down.
      const deadline = setTimeout(() => {
        reject(new DeadlineError());
        req.destroy();
      }, this.deadlineMs);
      req.once('error', (err) => {
        clearTimeout(deadline);
        reject(err);
      });
      req.end(body);
    });
  }

  close(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }
}
