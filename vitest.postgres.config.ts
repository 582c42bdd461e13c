import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './apps/server/test/helpers/slow-first-sequencer.ts';

// The server's API suite again, on PostgreSQL (docs/operations.md: "every test that holds on SQLite holds
// on PostgreSQL"): each test server gets a database of its own on this machine's PostgreSQL.
// Tests about SQLite itself (its writer thread, its files, its disk-full handling, its backup
// command) are named *.sqlite.test.ts and run only in the main pass; tests about PostgreSQL itself
// (test/postgres/, on a cluster they start) run there too, once.
export default defineConfig({
  test: {
    include: ['apps/server/test/**/*.test.ts'],
    exclude: ['**/*.sqlite.test.ts', 'apps/server/test/postgres/**', 'apps/server/test/cluster/**', '**/node_modules/**'],
    env: { TEST_DATABASE: 'postgres', AGUA_WORKERS_DIR: fileURLToPath(new URL('./apps/server/dist/', import.meta.url)) },
    // The server bundle (docs/testing.md), then the orphan-database sweep.
    globalSetup: ['apps/server/test/helpers/server-bundle.global-setup.ts', 'apps/server/test/helpers/postgres-global-setup.ts'],
    pool: 'forks',
    // Each worker process imports the server's modules once and runs file after file on them,
    // instead of importing them again for every file (that import was a third of the pass).
    // Tests share no module state: each starts its own server (docs/testing.md).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three workers on two cores: the tests mostly wait on their servers (docs/testing.md).
    maxWorkers: 3,
    // The files that wait for real time start first, so that none is left running alone at the end.
    sequence: { sequencer: SlowFirstSequencer },
  },
});
