#!/usr/bin/env node
// `npm test`: type check, lint, the reference firmware (C++ unit tests + microcontroller size
// check), unit + API tests (vitest), browser tests (Playwright on Debian's Chromium). Runs every
// stage even when one fails, then names the tests that failed and prints one closing line of totals.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-test-reports-'));
const only = process.argv[2]; // optional: typecheck | lint | cycles | firmware | unit | postgres | e2e

const run = (label, cmd, args, env = {}) => {
  if (only && only !== label) return true;
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
};

const workspaces = ['packages/shared', 'apps/server', 'apps/web', 'packages/simulator', 'tools/bench/ingest', 'tools/bench/cluster'];
const stages = [];
if (!only || only === 'firmware' || only === 'unit' || only === 'postgres' || only === 'e2e') {
  const deps = spawnSync('node', ['tools/ensure-system-deps.mjs'], { cwd: root, stdio: 'inherit' });
  if (deps.status !== 0) process.exit(1);
}
stages.push(['typecheck', workspaces.every((w) => run('typecheck', 'npx', ['tsc', '--noEmit', '-p', w]))]);
stages.push(['lint', run('lint', 'npx', ['eslint', '.', '--max-warnings=0'])]);
stages.push(['cycles', run('cycles', 'node', ['tools/check-cycles.mjs'])]);

// The reference firmware (firmware/): build the core's host tests and the virtual board (the
// unit stage runs it against a server), run the doctest suite, cross-compile the core for the
// microcontroller and check its size budget.
const doctest = { passed: 0, failed: 0 };
const firmware = () => {
  if (only && only !== 'firmware') return true;
  const built = run('firmware', 'make', ['-C', 'firmware', '-j2']);
  let tested = false;
  if (built) {
    console.log('\n=== firmware: firmware/build/core-tests');
    const res = spawnSync('firmware/build/core-tests', [], { cwd: root, encoding: 'utf8' });
    process.stdout.write(res.stdout ?? '');
    process.stderr.write(res.stderr ?? '');
    const summary = /\[doctest\] test cases:\s*\d+\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/.exec(res.stdout ?? '');
    if (summary) {
      doctest.passed = Number(summary[1]);
      doctest.failed = Number(summary[2]);
    }
    tested = res.status === 0 && summary !== null;
  }
  const sized = run('firmware', 'firmware/scripts/size-check.sh', []);
  return built && tested && sized;
};
stages.push(['firmware', firmware()]);
const vitestJson = path.join(reports, 'vitest.json');
stages.push(['unit', run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`])]);
// The server's API suite again on PostgreSQL (SCALE.md): one database per test server on this
// machine's PostgreSQL (TEST_PG_ADMIN_URL), created and dropped by the tests.
const pgJson = path.join(reports, 'vitest-postgres.json');
stages.push(['postgres', run('postgres', 'npx', ['vitest', 'run', '--config', 'vitest.postgres.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${pgJson}`])]);
const pwJson = path.join(reports, 'playwright.json');
stages.push(['e2e', run('e2e', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson })]);

let passed = doctest.passed;
let failed = doctest.failed;
// Named at the very end, because CI keeps only the tail of what a run printed.
const failures = [];
for (const [stage, file] of [['unit', vitestJson], ['postgres', pgJson]]) {
  if (!fs.existsSync(file)) continue;
  const v = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  for (const f of v.testResults ?? []) {
    const where = path.relative(process.cwd(), f.name);
    for (const t of f.assertionResults ?? []) {
      if (t.status === 'failed') failures.push(`${stage}: ${where} › ${t.fullName ?? t.title}\n    ${firstLine(t.failureMessages?.[0])}`);
    }
    if (f.status === 'failed' && (f.assertionResults ?? []).every((t) => t.status !== 'failed')) {
      failures.push(`${stage}: ${where}\n    ${firstLine(f.message)}`);
    }
  }
}
if (fs.existsSync(pwJson)) {
  const p = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
  passed += p.stats?.expected ?? 0;
  failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0);
  collectPlaywrightFailures(p.suites ?? [], failures);
}
if (failures.length > 0) console.log(`\nFailed tests:\n${failures.map((f) => `  ${f}`).join('\n')}`);
const failedStages = stages.filter(([, ok]) => !ok).map(([name]) => name);
console.log(`\nStages: ${stages.map(([name, ok]) => `${name} ${ok ? 'ok' : 'FAILED'}`).join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedStages.length === 0 ? 0 : 1);

function firstLine(message) {
  return stripVTControlCharacters(String(message ?? '')).split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '';
}

function collectPlaywrightFailures(suites, out) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results?.find((r) => r.error)?.error?.message;
          out.push(`e2e: ${spec.file}:${spec.line} › ${spec.title} (${test.status})\n    ${firstLine(error)}`);
        }
      }
    }
    collectPlaywrightFailures(suite.suites ?? [], out);
  }
}
