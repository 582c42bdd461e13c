#!/usr/bin/env node
// `npm test`: type check, lint, the reference firmware (C++ unit tests + microcontroller size
// check), unit + API tests (vitest, on SQLite and again on PostgreSQL), browser tests (Playwright on
// Debian's Chromium). Runs every stage even when one fails, then prints each stage's time, names the
// tests that failed and prints one closing line of totals.
//
// The test passes (browser tests, the vitest passes) run in TEST_LANES lanes, two by default: the
// browser tests in one (they mostly wait on real time and on Chromium), the two vitest passes one
// after the other in the other, and the checks (type check, lint, cycles, firmware) in whichever
// lane frees first. Measured on a clean clone of this 2-core machine, idle otherwise: 12 min 47 s
// of stages with two lanes, every test passing, against 14 min 13 s in one lane (BENCHMARKS.md
// "npm test"). TEST_LANES=1 runs the passes one after another and then the checks two at a time
// (single-threaded, no server). A lane takes the next stage from the queue as soon as it is free.
// Each test picks its own free ports and its own databases, so the passes do not meet. A stage's
// output is buffered and printed whole when it ends, so parallel stages stay readable.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-test-reports-'));
// Optional: the stages to run, e.g. `node tools/test.mjs unit e2e`
// (typecheck | lint | cycles | firmware | unit | postgres | e2e); all of them when none is named.
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);
const lanes = Math.max(1, Number(process.env.TEST_LANES ?? 2));
const started = Date.now();

/** One stage's output, kept until the stage ends (or streamed when it runs alone). */
class StageLog {
  chunks = [];
  constructor(stream) {
    this.stream = stream;
  }
  write(text) {
    if (this.stream) process.stdout.write(text);
    else this.chunks.push(text);
  }
  flush() {
    if (!this.stream) process.stdout.write(this.chunks.join(''));
    this.chunks = [];
  }
}

/** Runs a command with its output into `log`; resolves to {ok, stdout}. */
const exec = (log, cmd, args, env = {}) =>
  new Promise((resolve) => {
    log.write(`\n--- ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      log.write(String(d));
    });
    child.stderr.on('data', (d) => log.write(String(d)));
    child.on('error', (err) => {
      log.write(`${err.message}\n`);
      resolve({ ok: false, stdout });
    });
    child.on('close', (code) => resolve({ ok: code === 0, stdout }));
  });

const workspaces = ['packages/shared', 'apps/server', 'apps/web', 'packages/simulator', 'tools/bench/ingest', 'tools/bench/cluster'];
const vitestJson = path.join(reports, 'vitest.json');
const pgJson = path.join(reports, 'vitest-postgres.json');
const pwJson = path.join(reports, 'playwright.json');
const doctest = { passed: 0, failed: 0 };

// The firmware's host build (core tests + virtual board) is shared: the unit stage runs the virtual
// board against a server, so it waits for this build rather than racing it in the same directory.
// Whichever stage asks first starts it; its output is kept for the firmware stage.
const firmwareBuildLog = new StageLog(false);
let firmwareBuild;
const buildFirmware = () => (firmwareBuild ??= exec(firmwareBuildLog, 'make', ['-C', 'firmware', '-j2']).then((r) => r.ok));

// The reference firmware (firmware/): run the doctest suite on the host, cross-compile the core for
// the microcontroller and check its size budget.
const firmware = async (log) => {
  const built = await buildFirmware();
  for (const chunk of firmwareBuildLog.chunks) log.write(chunk);
  let tested = false;
  if (built) {
    const res = await exec(log, 'firmware/build/core-tests', []);
    const summary = /\[doctest\] test cases:\s*\d+\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed/.exec(res.stdout);
    if (summary) {
      doctest.passed = Number(summary[1]);
      doctest.failed = Number(summary[2]);
    }
    tested = res.ok && summary !== null;
  }
  const sized = (await exec(log, 'firmware/scripts/size-check.sh', [])).ok;
  return built && tested && sized;
};

const vitest = (json, extra = []) => (log) =>
  exec(log, 'npx', ['vitest', 'run', ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`]).then((r) => r.ok);

// The browser tests and the vitest passes first (the long ones, mostly waiting on servers), then
// the checks, two at a time (see runGroup).
const stages = [
  ['e2e', (log) => exec(log, 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson }).then((r) => r.ok)],
  // The server's API suite again on PostgreSQL (docs/operations.md): one database per test server
  // on this machine's PostgreSQL (TEST_PG_ADMIN_URL), created and dropped by the tests.
  ['postgres', vitest(pgJson, ['--config', 'vitest.postgres.config.ts'])],
  ['unit', async (log) => {
    // The virtual-board test runs `make` in firmware/ too: two makes in one build directory at once
    // would write the same objects, so the firmware's build comes first and its make is a no-op.
    if (wanted('firmware')) await buildFirmware();
    return vitest(vitestJson)(log);
  }],
  ['typecheck', async (log) => {
    let ok = true;
    for (const w of workspaces) ok = (await exec(log, 'npx', ['tsc', '--noEmit', '-p', w])).ok && ok;
    return ok;
  }],
  ['lint', (log) => exec(log, 'npx', ['eslint', '.', '--max-warnings=0']).then((r) => r.ok)],
  ['cycles', (log) => exec(log, 'node', ['tools/check-cycles.mjs']).then((r) => r.ok)],
  ['firmware', firmware],
].filter(([name]) => wanted(name));

if (stages.some(([name]) => ['firmware', 'unit', 'postgres', 'e2e'].includes(name))) {
  const deps = spawnSync('node', ['tools/ensure-system-deps.mjs'], { cwd: root, stdio: 'inherit' });
  if (deps.status !== 0) process.exit(1);
}

const results = new Map(); // name -> { ok, ms }
/**
 * Runs a group of stages in `count` lanes, each taking the next stage of the group's queue. The
 * checks (type check, lint, cycles, firmware) are single-threaded processes that start no server:
 * two of them side by side on two cores take the time of the longer one, so with one lane for the
 * test passes they still run two at a time, after them.
 */
const runGroup = (group, count) => {
  const queue = [...group];
  const alone = group.length === 1 || count === 1;
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await runStage(next, alone);
  };
  return Promise.all(Array.from({ length: Math.min(count, group.length) }, lane));
};
const runStage = async ([name, body], alone) => {
  const log = new StageLog(alone);
  const t0 = Date.now();
  console.log(`=== ${name}: started at ${seconds(t0 - started)}`);
  let ok = false;
  try {
    ok = await body(log);
  } catch (err) {
    log.write(`${err?.stack ?? err}\n`);
  }
  const ms = Date.now() - t0;
  results.set(name, { ok, ms });
  console.log(`\n=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds(ms)}`);
  log.flush();
  console.log(`=== ${name}: end of output`);
};
const CHECKS = ['typecheck', 'lint', 'cycles', 'firmware'];
const testPasses = stages.filter(([name]) => !CHECKS.includes(name));
const checks = stages.filter(([name]) => CHECKS.includes(name));
if (lanes > 1) {
  // The browser tests come first in the queue: the longest stage takes a lane of its own at once.
  await runGroup([...testPasses, ...checks], lanes);
} else {
  await runGroup(testPasses, 1);
  await runGroup(checks, 2);
}

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
// In the order the stages were declared, as before.
const ordered = ['typecheck', 'lint', 'cycles', 'firmware', 'unit', 'postgres', 'e2e'].filter((n) => results.has(n));
console.log(`\nTimes: ${ordered.map((n) => `${n} ${seconds(results.get(n).ms)}`).join(', ')}; total ${seconds(Date.now() - started)} (${lanes === 1 ? 'test passes in 1 lane, then checks two at a time' : `${lanes} lanes`})`);
console.log(`Stages: ${ordered.map((n) => `${n} ${results.get(n).ok ? 'ok' : 'FAILED'}`).join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ordered.every((n) => results.get(n).ok) ? 0 : 1);

function seconds(ms) {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

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
