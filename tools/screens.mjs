#!/usr/bin/env node
// `npm run screens`: the screenshots in docs/screens/ (and the two the web app manifest shows in
// apps/web/public/screenshots/), taken anew from the running system so that they stay current.
// Starts the whole system on its demo data (fixed simulator seed, free ports, a temporary data
// folder), lets the simulated devices build a minute of history, then photographs the dashboard,
// the alarms screen, the overflow events, the reports and the control-room view at 1440 and 390 px,
// light and dark, in Debian's Chromium. The demo wet well gets two past spills first (a late batch
// from its board, one annotated), so that 'Desbordamientos' shows events, and two report
// definitions with yesterday's daily report generated, so that 'Informes' shows them.
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
  ['reports', '/reports'],
  ['wall', '/wall'],
];
const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['390', { width: 390, height: 844 }],
];
const SETTLE_MS = Number(process.env.SCREENS_SETTLE_MS ?? 60_000);

const WELL = 'esp32_nivel_01';
const MIN = 60_000;

/** Levels every 30 s from `fromMs`: `minutes` at `peak` over the demo well's 9 m crest, a ramp either side, then 10 min under it. */
function spill(fromMs, minutes, peak) {
  const levels = [8.6, 8.8, 9.0, ...Array.from({ length: minutes * 2 }, (_, i) => 9 + (peak - 9) * Math.sin((Math.PI * (i + 1)) / (minutes * 2 + 1))), ...Array.from({ length: 20 }, () => 8.7)];
  return levels.map((value, i) => ({ deviceId: WELL, type: 'level_sensor', data: { value: Math.round(value * 1000) / 1000, unit: 'm' }, ts: new Date(fromMs + i * 30_000).toISOString() }));
}

/** Two spills of the demo well, three days and one day ago (sent late, as a board's buffer would), the older annotated by the operator. */
async function plantOverflows(url) {
  const day = 24 * 60 * MIN;
  const res = await fetch(`${url}/api/v1/telemetry`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': `demo-key-${WELL}` },
    body: JSON.stringify([...spill(Date.now() - 3 * day, 40, 9.38), ...spill(Date.now() - day, 15, 9.12)]),
  });
  if (res.status !== 202) throw new Error(`planting the overflows: ${res.status} ${await res.text()}`);
  const login = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'operator', password: 'operator123' }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  let oldest;
  for (let tries = 0; tries < 50 && !oldest; tries += 1) {
    const list = await (await fetch(`${url}/api/v1/overflow-events?deviceId=${WELL}`, { headers: { cookie } })).json();
    oldest = list.items?.length === 2 ? list.items[1] : undefined;
    if (!oldest) await new Promise((r) => setTimeout(r, 200));
  }
  if (!oldest) throw new Error('the planted overflows were not recorded');
  const notifiedAt = new Date(Date.parse(oldest.startedAt) + 90 * MIN).toISOString();
  await fetch(`${url}/api/v1/overflow-events/${oldest.id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json', cookie },
    body: JSON.stringify({ cause: 'Tormenta: 38 mm en una hora', notes: 'Bombas al máximo; aliviadero revisado sin daños.', notifiedAt }),
  });
}

/** Two report definitions (an admin's) and yesterday's daily report generated, so that 'Informes' shows them. */
async function plantReports(url) {
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin123', masterPassword: 'maestra2024' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const post = async (pathname, body) => {
    const res = await fetch(`${url}${pathname}`, { method: 'POST', headers: { 'Content-Type': 'application/json', cookie }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`planting the reports: ${pathname} ${res.status} ${await res.text()}`);
    return res.json();
  };
  const daily = await post('/api/v1/reports', { name: 'Parte diario', kind: 'daily', deviceIds: null, formats: ['xlsx', 'pdf'], recipients: ['jefe.turno@aguas.example'], schedule: { time: '07:00' } });
  await post('/api/v1/reports', { name: 'Desbordamientos del mes', kind: 'overflows', deviceIds: [WELL], formats: ['pdf'], recipients: [], schedule: { time: '08:00', dayOfMonth: 1 } });
  await post(`/api/v1/reports/${daily.id}/runs`, {});
}

const system = await startDemoSystem();
const { url } = system;
let browser;
try {
  await plantOverflows(url);
  await plantReports(url);
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
