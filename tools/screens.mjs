#!/usr/bin/env node
// `npm run screens`: the screenshots in docs/screens/ (and the two the web app manifest shows in
// apps/web/public/screenshots/), taken anew from the running system so that they stay current.
// Starts the whole system on its demo data (fixed simulator seed, free ports, a temporary data
// folder), lets the simulated devices build a minute of history, then photographs the dashboard,
// the alarms screen, the overflow events, the reports and the control-room view at 1440 and 390 px,
// light and dark, in Debian's Chromium. The demo wet well gets two past spills first (a late batch
// from its board, one annotated), so that 'Desbordamientos' shows events, and two report
// definitions with yesterday's daily report generated, so that 'Informes' shows them. Then the
// interlocks (docs/control.md): after those, four interlocks on the demo gates (one bypassed) and
// a two-person command waiting, photographed as the admin's 'Enclavamientos' (with the bypass
// banner and 'Aprobación pendiente'), the operator's device panel (a blocked 'Abrir' and why) and
// the command's dialog.
// `node tools/screens.mjs interlocks` takes the interlock screenshots alone.
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
const ONLY_INTERLOCKS = process.argv.includes('interlocks');

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

/** A session's cookie, for the set-up calls. */
async function sessionCookie(url, credentials) {
  const login = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(credentials) });
  if (login.status !== 200) throw new Error(`signing in as ${credentials.username}: ${login.status}`);
  return (login.headers.get('set-cookie') ?? '').split(';')[0];
}
const ADMIN = { username: 'admin', password: 'admin123', masterPassword: 'maestra2024' };

/**
 * Interlocks on the demo gate Compuerta Canal A: 'Abrir' blocked while the clean-water tank is over
 * 1 m (it always is), 'Cerrar' with a comment and a second person's approval while the wet well is
 * over 3 m; one on the other gate bypassed for two hours; the admin's 'Cerrar' waiting for approval.
 */
async function plantInterlocks(url) {
  const cookie = await sessionCookie(url, ADMIN);
  const send = async (method, pathname, body) => {
    const res = await fetch(`${url}${pathname}`, { method, headers: { 'Content-Type': 'application/json', cookie }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`planting the interlocks: ${pathname} ${res.status} ${await res.text()}`);
    return res.json();
  };
  const gate = 'esp32_compuerta_01';
  await send('POST', '/api/v1/interlocks', { deviceId: gate, command: 'abrir', name: 'Tanque de agua limpia con sitio', mode: 'block', conditions: [{ kind: 'level', deviceId: 'esp32_nivel_02', op: '<', valueM: 1 }] });
  await send('POST', '/api/v1/interlocks', {
    deviceId: gate,
    command: 'cerrar',
    name: 'Pozo de aguas residuales por debajo de 3 m',
    mode: 'two_person',
    conditions: [{ kind: 'level', deviceId: WELL, op: '<', valueM: 3 }, { kind: 'alarm', deviceId: WELL, priorityAtMost: 2, active: false }],
  });
  await send('POST', '/api/v1/interlocks', { deviceId: gate, command: 'cerrar', name: 'Motivo del cierre', mode: 'confirm', conditions: [{ kind: 'gate_state', deviceId: gate, in: ['abierta'] }] });
  const other = await send('POST', '/api/v1/interlocks', {
    deviceId: 'esp32_compuerta_02',
    command: 'abrir',
    name: 'Compuerta Canal A en línea',
    mode: 'block',
    conditions: [{ kind: 'online', deviceId: gate }, { kind: 'level', deviceId: 'esp32_nivel_02', op: '<=', pct: 85, maxAgeS: 60 }],
  });
  await send('POST', `/api/v1/interlocks/${other.id}/bypass`, { minutes: 120, comment: 'Mantenimiento del sensor del tanque limpio' });
  await send('POST', `/api/v1/devices/${gate}/commands`, { command: 'cerrar', comment: 'Cierre preventivo por lluvia prevista' });
}

/** The interlock screenshots: the admin's screen, the operator's device panel and the command's dialog. */
async function photographInterlocks(browser, url) {
  for (const theme of ['light', 'dark']) {
    for (const [sizeName, viewport] of SIZES) {
      const admin = await browser.newContext({ viewport, colorScheme: theme, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
      const page = await admin.newPage();
      await page.goto(`${url}/login`);
      await page.getByPlaceholder('Usuario', { exact: true }).fill(ADMIN.username);
      await page.getByPlaceholder('Contraseña', { exact: true }).fill(ADMIN.password);
      await page.getByPlaceholder('Contraseña Maestra', { exact: true }).fill(ADMIN.masterPassword);
      await page.getByRole('button', { name: 'Acceder al Sistema' }).click();
      await page.waitForURL(`${url}/`);
      await page.goto(`${url}/interlocks`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForTimeout(4_000);
      await shoot(page, 'interlocks', sizeName, theme);
      await admin.close();

      const operator = await browser.newContext({ viewport, colorScheme: theme, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
      const op = await operator.newPage();
      await signInAsOperator(op, url);
      await op.goto(`${url}/devices?id=esp32_compuerta_01`);
      await op.getByRole('heading', { level: 1 }).waitFor();
      await op.waitForTimeout(4_000);
      // The panel's commands in the middle: the blocked 'Abrir' with its reason, 'Cerrar' with its demands.
      await op.locator('[aria-labelledby="control-panel-title"]').getByRole('heading', { name: 'Comandos', exact: true }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await op.waitForTimeout(300);
      await shoot(op, 'gate-interlocked', sizeName, theme);
      await op.locator('[aria-labelledby="control-panel-title"]').getByRole('button', { name: 'Cerrar', exact: true }).click();
      await op.getByRole('alertdialog').waitFor();
      await op.waitForTimeout(500);
      await shoot(op, 'command-dialog', sizeName, theme);
      await operator.close();
    }
  }
}

async function shoot(page, name, sizeName, theme) {
  const file = path.join(out, `${name}-${sizeName}-${theme}.png`);
  await page.screenshot({ path: file });
  console.log(`screens: ${path.relative(root, file)}`);
}

const system = await startDemoSystem();
const { url } = system;
let browser;
try {
  if (!ONLY_INTERLOCKS) {
    await plantOverflows(url);
    await plantReports(url);
  }
  console.log(`screens: the system answers on ${url}; letting the devices run ${SETTLE_MS / 1000} s`);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(manifestShots, { recursive: true });
  for (const theme of ONLY_INTERLOCKS ? [] : ['light', 'dark']) {
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
  await plantInterlocks(url);
  await photographInterlocks(browser, url);
} finally {
  await browser?.close();
  await system.stop();
}
