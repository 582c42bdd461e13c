import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './server-bundle';

/**
 * Before a test pass: builds the server bundle and its worker threads' bundles (esbuild, ~1 s).
 * Child-process tests run it, and in-process servers start their worker threads from it
 * (AGUA_WORKERS_DIR, set in the vitest configs): loading a bundled worker costs about a third
 * of compiling its sources through tsx in every server a test starts.
 */
export function setup(): void {
  const built = spawnSync(process.execPath, ['tools/build-server.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the server bundle did not build (node tools/build-server.mjs)');
}
