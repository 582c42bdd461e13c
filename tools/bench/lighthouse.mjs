#!/usr/bin/env node
// `npm run bench:lighthouse`: Lighthouse (desktop) on the signed-in dashboard, against the whole
// system on its demo data, in Debian's Chromium. Prints the accessibility and performance scores
// against their floors (98 and 90, issue 26) and the metrics behind performance; several runs,
// the median reported (2 noisy cores). `--runs N` (default 3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, signInAsOperator, startDemoSystem } from '../demo-system.mjs';

const FLOORS = { accessibility: 98, performance: 90 };
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 3) || 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const system = await startDemoSystem();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-lighthouse-'));
const debugPort = 9300 + Math.floor(Math.random() * 500);
// A persistent context: Lighthouse opens its tab in the same browser profile, so it finds the
// session cookie and the stored profile of the sign-in below.
const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debugPort}`], viewport: { width: 1350, height: 940 } });
try {
  await signInAsOperator(context.pages()[0] ?? (await context.newPage()), system.url);
  const results = [];
  for (let i = 0; i < runs; i++) {
    const { lhr } = await lighthouse(`${system.url}/`, { port: debugPort, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['accessibility', 'performance'] }, desktopConfig);
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
    const run = {
      accessibility: score('accessibility'),
      performance: score('performance'),
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      unusedJsKiB: (lhr.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0) / 1024,
      failedA11y: Object.values(lhr.audits)
        .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id && r.weight > 0) && a.score !== null && a.score < 1)
        .map((a) => a.id),
    };
    results.push(run);
    console.log(`run ${i + 1}: accessibility ${run.accessibility}, performance ${run.performance} (FCP ${run.fcpMs.toFixed(0)} ms, LCP ${run.lcpMs.toFixed(0)} ms, TBT ${run.tbtMs.toFixed(0)} ms, CLS ${run.cls.toFixed(3)}, unused JS ${run.unusedJsKiB.toFixed(0)} KiB)${run.failedA11y.length ? `; accessibility audits not passed: ${run.failedA11y.join(', ')}` : ''}`);
  }
  for (const [key, floor] of Object.entries(FLOORS)) {
    const value = median(results.map((r) => r[key]));
    console.log(`${key}: median ${value} over ${runs} runs, floor ${floor}: ${value >= floor ? 'met' : 'MISSED'}`);
  }
  console.log(`median LCP ${median(results.map((r) => r.lcpMs)).toFixed(0)} ms, TBT ${median(results.map((r) => r.tbtMs)).toFixed(0)} ms, unused JS ${median(results.map((r) => r.unusedJsKiB)).toFixed(0)} KiB`);
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
  await system.stop();
}
