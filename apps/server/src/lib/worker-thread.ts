import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from its entry next to the caller: `<name>.ts` when running from the
 * sources (through lib/ts-worker.mjs), `<name>.mjs` next to the bundle when built
 * (tools/build-server.mjs bundles each worker entry under that name).
 */
export function startWorker(callerUrl: string, name: string, workerData: Record<string, unknown>, options: WorkerOptions = {}): Worker {
  if (callerUrl.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, callerUrl).href;
    return new Worker(new URL('./ts-worker.mjs', import.meta.url), { ...options, workerData: { ...workerData, entry } });
  }
  return new Worker(new URL(`./${name}.mjs`, callerUrl), { ...options, workerData });
}
