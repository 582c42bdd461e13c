#!/usr/bin/env node
// `npm test`: type check, lint, the reference firmware (C++ unit tests + microcontroller size
// check), unit + API tests (vitest), browser tests (Playwright on Debian's Chromium). Runs every
// stage even when one fails, then names the tests that failed and prints one closing line of totals.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-test-reports-'));
const only = process.argv[2]; // optional: typecheck | lint | cycles | firmware | unit | postgres | e2e

/**
 * Runs one command of a stage; its output is kept and printed whole when it ends (stages run side
 * by side, and interleaved lines would be unreadable). Resolves to whether it exited 0.
 */
const run = (label, cmd, args, env = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0', ...env } });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('close', (code) => {
      process.stdout.write(`\n=== ${label}: ${cmd} ${args.join(' ')}\n${Buffer.concat(out).toString()}`);
      resolve(code === 0);
    });
  });

const workspaces = ['packages/shared', 'apps/server', 'apps/web', 'packages/simulator', 'tools/bench/ingest', 'tools/bench/cluster'];
if (!only || only === 'firmware' || only === 'unit' || only === 'postgres' || only === 'e2e') {
  const deps = spawnSync('node', ['tools/ensure-system-deps.mjs'], { cwd: root, stdio: 'inherit' });
  if (deps.status !== 0) process.exit(1);
}

// The reference firmware (firmware/): build the core's host tests and the virtual board (the
// unit stage runs it against a server), run the doctest suite, cross-compile the core for the
// microcontroller and check its size budget.
const doctest = { passed: 0, failed: 0 };
async function firmware() {
  const built = await run('firmware', 'make', ['-C', 'firmware', '-j2']);
  let tested = false;
  if (built) {
    const res = spawnSync('firmware/build/core-tests', [], { cwd: root, encoding: 'utf8' });
    process.stdout.write(`\n=== firmware: firmware/build/core-tests\n${res.stdout ?? ''}${res.stderr ?? ''}`);
    const summary = /\[doctest\] test cases:\s*\d+\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/.exec(res.stdout ?? '');
    if (summary) {
      doctest.passed = Number(summary[1]);
      doctest.failed = Number(summary[2]);
    }
    tested = res.status === 0 && summary !== null;
  }
  const sized = await run('firmware', 'firmware/scripts/size-check.sh', []);
  return built && tested && sized;
}

const vitestJson = path.join(reports, 'vitest.json');
// The server's API suite again on PostgreSQL (docs/operations.md): one database per test server
// on this machine's PostgreSQL (TEST_PG_ADMIN_URL), created and dropped by the tests.
const pgJson = path.join(reports, 'vitest-postgres.json');
const pwJson = path.join(reports, 'playwright.json');

/** Every stage: its name and what runs it. */
const STAGES = {
  typecheck: async () => {
    let ok = true;
    for (const w of workspaces) ok = (await run('typecheck', 'npx', ['tsc', '--noEmit', '-p', w])) && ok;
    return ok;
  },
  lint: () => run('lint', 'npx', ['eslint', '.', '--max-warnings=0']),
  cycles: () => run('cycles', 'node', ['tools/check-cycles.mjs']),
  firmware,
  unit: () => run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]),
  postgres: () => run('postgres', 'npx', ['vitest', 'run', '--config', 'vitest.postgres.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${pgJson}`]),
  e2e: () => run('e2e', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson }),
};

/**
 * Two lanes side by side, each a list run in order, about equally long on this 2-core machine:
 * the two vitest passes in one, the quick checks and then the browser tests in the other. Each
 * suite picks its own free ports and databases, so they do not meet. TEST_LANES=1 runs everything
 * in one lane, in the order below.
 */
const LANES = process.env.TEST_LANES === '1' ? [['typecheck', 'lint', 'cycles', 'firmware', 'unit', 'postgres', 'e2e']] : [['unit', 'postgres'], ['typecheck', 'lint', 'cycles', 'firmware', 'e2e']];

const results = new Map();
const startedAt = Date.now();
await Promise.all(
  LANES.map(async (lane) => {
    for (const name of lane) {
      if (only && only !== name) continue;
      const t0 = Date.now();
      console.log(`--- ${name} started`);
      const ok = await STAGES[name]();
      results.set(name, { ok, seconds: (Date.now() - t0) / 1000 });
      console.log(`--- ${name} ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  }),
);
const stages = Object.keys(STAGES).filter((name) => results.has(name)).map((name) => [name, results.get(name).ok]);

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
const time = (seconds) => (seconds >= 60 ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`);
console.log(`\nStage times: ${[...results].map(([name, r]) => `${name} ${time(r.seconds)}`).join(', ')}; total ${time((Date.now() - startedAt) / 1000)}`);
console.log(`Stages: ${stages.map(([name, ok]) => `${name} ${ok ? 'ok' : 'FAILED'}`).join(', ')}`);
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
