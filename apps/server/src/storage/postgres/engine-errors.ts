import pg from 'pg';
import { markEngineFailure } from '../storage-health';

type Callback = (err: unknown, ...rest: unknown[]) => void;
type Method = (...args: unknown[]) => unknown;

/**
 * A method of node-postgres whose failures are marked as the storage engine's, in each of the
 * forms it reports them: a callback as last argument, a returned promise. (A Submittable's
 * failures reach its own handleError: copy-in.ts marks those.)
 */
function marking(method: Method): Method {
  return function (this: unknown, ...args: unknown[]) {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, ...rest: unknown[]) => (callback as Callback)(err ? markEngineFailure(err) : err, ...rest);
    }
    const result = method.apply(this, args);
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(markEngineFailure(err))) : result;
  };
}

/**
 * The pool's clients: a pg.Client whose connect and query failures are marked as the storage
 * engine's, so that only they can mark the storage down (storage-health.ts).
 */
export class EngineClient extends pg.Client {}
for (const name of ['connect', 'query'] as const) {
  const proto = EngineClient.prototype as unknown as Record<string, Method>;
  proto[name] = marking(proto[name]!);
}

/** Marks the failures of the pool's own connect (a wait for a free client that times out) as the engine's too. */
export function markPoolFailures(pool: pg.Pool): void {
  const target = pool as unknown as Record<string, Method>;
  target.connect = marking(target.connect!.bind(pool));
}
