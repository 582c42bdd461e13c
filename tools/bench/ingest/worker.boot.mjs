// Entry of the bench's worker threads: registers tsx's loader (a worker does not inherit the main
// thread's hooks), then runs the TypeScript module named by workerData.entry (relative to here).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(new URL(workerData.entry, import.meta.url).href);
