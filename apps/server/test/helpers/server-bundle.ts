// The built server (tools/build-server.mjs), for tests that run it as a child process. The test
// passes build it once before any test (server-bundle.global-setup.ts), so each child starts
// in about a third of the time and CPU that compiling the sources through `npx tsx` took, and
// runs the same files `npm start` runs.
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const SERVER_DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));
export const SERVER_BUNDLE = `${SERVER_DIST_DIR}server.mjs`;

/** The command that starts the built server: `node --enable-source-maps apps/server/dist/server.mjs`. */
export function serverCommand(): [string, string[]] {
  return [process.execPath, ['--enable-source-maps', SERVER_BUNDLE]];
}
