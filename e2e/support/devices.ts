import { expect, type Locator, type Page } from '@playwright/test';

/** Waits used where the in-process simulator is involved (readings every 3 s, gate travel ~5 s). */
export const SIM_TIMEOUT = 20_000;

export const DEVICES = {
  nivel01: { id: 'esp32_nivel_01', name: 'Sensor Nivel Agua Residual' },
  nivel02: { id: 'esp32_nivel_02', name: 'Sensor Nivel Agua Limpia' },
  compuerta01: { id: 'esp32_compuerta_01', name: 'Compuerta Canal A' },
  compuerta02: { id: 'esp32_compuerta_02', name: 'Compuerta Tanque Limpio' },
} as const;

export function deviceCard(page: Page, id: string) {
  return page.getByTestId(`device-card-${id}`);
}

export function deviceRow(page: Page, id: string) {
  return page.getByTestId(`device-row-${id}`);
}

/** The 'Panel de Control' of the device selected on /devices. */
export function controlPanel(page: Page) {
  return page.locator('[aria-labelledby="control-panel-title"]');
}

/** A level value as the dashboard prints it: '3,42 m' (es-ES), tolerant of spacing. */
export const LEVEL_TEXT = /^-?\d+(?:[.,]\d+)?\s*m$/;

/** Waits for the live link, so that what follows sees live updates. */
export async function expectLive(page: Page) {
  await expect(page.getByTestId('live-status')).toHaveText('Sistema Activo', { timeout: SIM_TIMEOUT });
}

/** Goes to /devices and selects a device from the list. */
export async function selectDevice(page: Page, device: { id: string; name: string }): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dispositivos' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Control de Dispositivos de Agua' })).toBeVisible();
  await deviceRow(page, device.id).getByRole('link', { name: device.name }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]id=${device.id}$`));
  const panel = controlPanel(page);
  await expect(panel).toContainText(device.name);
  return panel;
}

/**
 * The device's card (`prefix` + id: `device-card-`, `wall-device-`) comes before every card that
 * has no active Crítica alarm: abnormal first. Other devices with an active Crítica alarm (a
 * simulated tank past its high-high mark) may share the lead, in the server's order.
 */
export async function expectLeadsWithCritical(page: Page, prefix: string, id: string) {
  await expect
    .poll(async () => {
      const cards = await page.locator(`[data-testid^="${prefix}"]`).evaluateAll((els) =>
        els.map((el) => ({ id: el.getAttribute('data-testid'), critical: el.querySelector('[data-testid^="device-alarms-"] [data-priority="1"]') !== null })),
      );
      const index = cards.findIndex((c) => c.id === `${prefix}${id}`);
      return index >= 0 && cards.slice(0, index + 1).every((c) => c.critical);
    })
    .toBe(true);
}
