import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from its entry next to the caller: `<name>.ts` when running from the
 * sources (through lib/ts-worker.mjs), `<name>.mjs` next to the bundle when built
 * (tools/build-server.mjs bundles each worker entry under that name). AGUA_WORKERS_DIR names a
 * folder of bundled workers to use instead of the sources: the test passes build the bundle
 * first and set it, because every test server starts its threads, and a bundled thread starts in
 * about a third of the time of one compiled through tsx (docs/testing.md).
 */
export function startWorker(callerUrl: string, name: string, workerData: Record<string, unknown>, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.mjs`, callerUrl), { ...options, workerData });
  const bundled = process.env.AGUA_WORKERS_DIR;
  if (bundled) return new Worker(pathToFileURL(path.join(bundled, `${name}.mjs`)), { ...options, workerData });
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), { ...options, workerData: { ...workerData, entry } });
}
