// Runs a worker thread's TypeScript entry straight from the sources (tests, `tsx` in development):
// Node does not hand a parent's tsx loader to its workers. The built server starts its bundled
// worker files directly and never loads this.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
