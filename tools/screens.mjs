#!/usr/bin/env node
// `npm run screens`: the screenshots in docs/screens/ (and the two the web app manifest shows in
// apps/web/public/screenshots/), taken anew from the running system so that they stay current.
// Starts the whole system on its demo data (fixed simulator seed, free ports, a temporary data
// folder), lets the simulated devices build a minute of history, then photographs the dashboard,
// the alarms and overflow screens and the control-room view at 1440 and 390 px, light and dark, in Debian's
// Chromium.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, root, signInAsOperator, startDemoSystem } from './demo-system.mjs';

const out = path.join(root, 'docs/screens');
const manifestShots = path.join(root, 'apps/web/public/screenshots');
const SCREENS = [
  ['dashboard', '/'],
  ['alarms', '/alarms'],
  ['overflows', '/overflows'],
  ['wall', '/wall'],
];
const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['390', { width: 390, height: 844 }],
];
const SETTLE_MS = Number(process.env.SCREENS_SETTLE_MS ?? 60_000);

const system = await startDemoSystem();
const { url } = system;
let browser;
try {
  console.log(`screens: the system answers on ${url}; letting the devices run ${SETTLE_MS / 1000} s`);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(manifestShots, { recursive: true });
  for (const theme of ['light', 'dark']) {
    for (const [sizeName, viewport] of SIZES) {
      const context = await browser.newContext({ viewport, colorScheme: theme, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
      const page = await context.newPage();
      await signInAsOperator(page, url);
      for (const [name, route] of SCREENS) {
        await page.goto(`${url}${route}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForTimeout(1_500);
        const file = path.join(out, `${name}-${sizeName}-${theme}.png`);
        await page.screenshot({ path: file });
        console.log(`screens: ${path.relative(root, file)}`);
        if (name === 'dashboard' && theme === 'light') fs.copyFileSync(file, path.join(manifestShots, `dashboard-${sizeName === '1440' ? 'wide' : 'narrow'}.png`));
      }
      await context.close();
    }
  }
} finally {
  await browser?.close();
  await system.stop();
}
