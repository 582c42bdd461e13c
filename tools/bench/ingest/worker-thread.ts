import { Worker, type TransferListItem } from 'node:worker_threads';

/**
 * Starts one of the bench's worker threads: `entry` is a TypeScript module next to this file,
 * run through worker.boot.mjs (which registers tsx's loader in the worker).
 */
export function startWorker(entry: string, data: object, transferList: TransferListItem[] = []): Worker {
  return new Worker(new URL('./worker.boot.mjs', import.meta.url), { workerData: { entry, ...data }, transferList });
}

/** The worker's next message; rejects when the worker fails first. */
export function nextMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: T) => {
      worker.off('error', onError);
      resolve(m);
    };
    const onError = (e: Error) => {
      worker.off('message', onMessage);
      reject(e);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
  });
}

/** Posts `msg` and returns the worker's answer. */
export function ask<T>(worker: Worker, msg: unknown): Promise<T> {
  const answer = nextMessage<T>(worker);
  worker.postMessage(msg);
  return answer;
}
