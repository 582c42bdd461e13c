import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './apps/server/test/helpers/slow-first-sequencer.ts';

export default defineConfig({
  // The web app's own alias (apps/web/vite.config.ts), for its unit tests.
  resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
      'tools/*/src/**/*.test.ts',
    ],
    // The server bundle, built once for the pass: child-process tests run it, and test servers start
    // their worker threads from it (docs/testing.md).
    globalSetup: ['apps/server/test/helpers/server-bundle.global-setup.ts'],
    env: { AGUA_WORKERS_DIR: fileURLToPath(new URL('./apps/server/dist/', import.meta.url)) },
    pool: 'forks',
    // Each worker process imports the server's modules once and runs file after file on them,
    // instead of importing them again for every file (that import was a third of the pass).
    // Tests share no module state: each starts its own server (docs/testing.md).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server tests start real servers and mostly wait on them (timers, sockets): three workers on two
    // cores took 279 s against 333 s with two for the same pass (docs/testing.md).
    maxWorkers: 3,
    // The files that wait for real time start first, so that none is left running alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
  },
});
