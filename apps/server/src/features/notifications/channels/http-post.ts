import http from 'node:http';
import https from 'node:https';
import { ATTEMPT_TIMEOUT_MS } from './channel';

// Kept-alive connections: a flood to one receiver reuses a few sockets instead of a handshake per alarm.
const agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 32 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 32 }) };

export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * POSTs a body and resolves with the status once the answer has come (its body is discarded).
 * node:http rather than fetch: a fraction of the CPU per request, which counts in an alarm flood.
 */
export function httpPost(target: string, headers: Record<string, string>, body: string | Buffer): Promise<number> {
  const url = new URL(target);
  const agent = url.protocol === 'https:' ? agents['https:'] : url.protocol === 'http:' ? agents['http:'] : null;
  if (!agent) return Promise.reject(new Error(`no se puede enviar a ${url.protocol}`));
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.setTimeout(ATTEMPT_TIMEOUT_MS, () => req.destroy(new TimeoutError(`sin respuesta en ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
    req.once('error', reject);
    req.end(body);
  });
}
