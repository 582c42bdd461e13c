import type { APIResponse, Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { purgeDevice } from './support/cleanup';
import { controlPanel, deviceRow } from './support/devices';
import { expectToast } from './support/toast';
import { expectToastBehindModal } from './support/toast-modal';

/** Posts one level reading as the device, with its key. */
function postReading(page: Page, deviceId: string, apiKey: string, value: number): Promise<APIResponse> {
  return page.request.post('/api/v1/telemetry', {
    headers: { 'X-API-Key': apiKey },
    data: { deviceId, type: 'level_sensor', data: { value } },
  });
}

/** The key shown in the API-key dialog, checked against its HTTP and MQTT snippets. */
async function readIssuedKey(page: Page, deviceId: string, title: string): Promise<string> {
  const dialog = page.getByTestId('api-key-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: title, exact: true })).toBeVisible();
  await expect(dialog).toContainText(deviceId);
  await expect(dialog.getByText('Esta clave no se volverá a mostrar.', { exact: true })).toBeVisible();
  const keyBox = dialog.getByTestId('api-key');
  await expect(keyBox).toHaveText(/^\S{16,}$/);
  const apiKey = ((await keyBox.textContent()) ?? '').trim();

  // HTTP (the default tab): constants and a curl line carrying this key.
  const http = dialog.getByRole('tabpanel');
  await expect(dialog.getByRole('tab', { name: 'HTTP', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(http.locator('pre')).toContainText(`const char* DEVICE_ID   = "${deviceId}";`);
  await expect(http.locator('pre')).toContainText(`const char* API_KEY     = "${apiKey}";`);
  await expect(http.locator('pre')).toContainText('/api/v1/telemetry');
  await expect(http.locator('pre')).toContainText(`-H "X-API-Key: ${apiKey}"`);

  // MQTT: client id and username = device id, password = key, the embedded broker's port.
  await dialog.getByRole('tab', { name: 'MQTT', exact: true }).click();
  const mqtt = dialog.getByRole('tabpanel');
  await expect(mqtt.locator('pre')).toContainText(`const char* MQTT_PASSWORD  = "${apiKey}";`);
  await expect(mqtt.locator('pre')).toContainText(`const char* MQTT_CLIENT_ID = "${deviceId}";`);
  await expect(mqtt.locator('pre')).toContainText(`agua/v1/${deviceId}/telemetry`);
  await expect(mqtt.locator('pre')).toContainText(`const uint16_t MQTT_PORT   = ${process.env.E2E_MQTT_PORT};`);
  return apiKey;
}

async function closeKeyDialog(page: Page) {
  const dialog = page.getByTestId('api-key-dialog');
  await dialog.getByRole('button', { name: 'He guardado la clave', exact: true }).click();
  await expect(dialog).toBeHidden();
}

async function fillNewDevice(dialog: Locator, d: { id: string; name: string; location: string }) {
  await dialog.getByLabel('Identificador (ID)', { exact: true }).fill(d.id);
  await dialog.getByLabel('Nombre', { exact: true }).fill(d.name);
  await dialog.getByLabel('Ubicación', { exact: true }).fill(d.location);
  await dialog.getByLabel('Tipo', { exact: true }).selectOption({ label: 'Sensor de Nivel' });
  await dialog.getByLabel('Tipo de agua', { exact: true }).selectOption({ label: 'Agua Limpia' });
  await dialog.getByLabel('Nivel máximo', { exact: true }).fill('5');
}

test.describe('Administración de dispositivos', () => {
  const stamp = Date.now();
  const device = { id: `sensor_e2e_${stamp}`, name: `Sensor E2E ${stamp}`, location: 'Depósito de pruebas E2E' };

  // Whatever happens, the other specs must see only the demo devices (they count them).
  test.afterEach(async () => {
    await purgeDevice(device.id);
  });

  test('el admin da de alta un sensor, recibe su clave, lo ve en línea, rota la clave y lo elimina', async ({ page }) => {
    test.setTimeout(90_000);
    await signIn(page, 'admin');
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dispositivos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Control de Dispositivos de Agua' })).toBeVisible();
    await expect(deviceRow(page, device.id)).toHaveCount(0);

    // 'Nuevo Dispositivo'
    await page.getByRole('button', { name: 'Nuevo Dispositivo', exact: true }).click();
    const form = page.getByTestId('new-device-dialog');
    await expect(form.getByRole('heading', { name: 'Nuevo Dispositivo', exact: true })).toBeVisible();
    await fillNewDevice(form, device);
    await form.getByRole('button', { name: 'Crear dispositivo', exact: true }).click();
    await expect(form).toBeHidden();

    // The key, shown once, with the firmware snippets.
    await expectToastBehindModal(page, 'Dispositivo creado', `${device.name} (${device.id}) está registrado. Guarde su clave API.`);
    const firstKey = await readIssuedKey(page, device.id, 'Dispositivo creado');
    await closeKeyDialog(page);

    // Listed and selected; offline until it is heard.
    const row = deviceRow(page, device.id);
    await expect(row).toContainText(device.name);
    await expect(row).toContainText(device.location);
    await expect(row.getByText('Desconectado', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`[?&]id=${device.id}$`));
    const panel = controlPanel(page);
    await expect(panel).toContainText(device.name);
    await expect(panel).toContainText('Sensor de Nivel');
    await expect(panel).toContainText('Agua Limpia');

    // A reading with that key: 4.6 m of 5 m is above 85 %, so critical.
    const first = await postReading(page, device.id, firstKey, 4.6);
    expect(first.status(), await first.text()).toBe(202);
    expect(((await first.json()) as { accepted: number }).accepted).toBe(1);
    await expect(row.getByText('En Línea', { exact: true })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByTestId(`reading-${device.id}`)).toHaveText(/^4,60?\s*m$/);
    await expect(row.getByText('Crítico', { exact: true })).toBeVisible();

    // 'Rotar clave': the old key stops working at once, the new one works.
    await panel.getByRole('button', { name: 'Rotar clave', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('¿Rotar la clave API?');
    await confirm.getByRole('button', { name: 'Rotar clave', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expectToastBehindModal(page, 'Clave rotada', `La clave anterior de ${device.name} ya no funciona.`);
    const secondKey = await readIssuedKey(page, device.id, 'Nueva clave API');
    expect(secondKey).not.toBe(firstKey);
    await closeKeyDialog(page);

    const withOld = await postReading(page, device.id, firstKey, 4.5);
    expect(withOld.status(), await withOld.text()).toBe(401);
    const withNew = await postReading(page, device.id, secondKey, 4.6);
    expect(withNew.status(), await withNew.text()).toBe(202);
    await expect(row.getByText('En Línea', { exact: true })).toBeVisible();

    // 'Eliminar' asks for the id to be typed.
    await panel.getByRole('button', { name: 'Eliminar', exact: true }).click();
    const del = page.getByTestId('delete-device-dialog');
    await expect(del).toBeVisible();
    const submit = del.getByRole('button', { name: 'Eliminar dispositivo', exact: true });
    await expect(submit).toBeDisabled();
    await del.getByLabel('Confirmación', { exact: true }).fill(device.id.slice(0, -1));
    await expect(submit).toBeDisabled();
    await del.getByLabel('Confirmación', { exact: true }).fill(device.id);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(del).toBeHidden();
    await expectToast(page, 'Dispositivo eliminado', `${device.name} se ha retirado; su historial se conserva y puede exportarse.`);

    await expect(deviceRow(page, device.id)).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]id=/);
    await expect(page.getByRole('main').getByText('Selecciona un dispositivo para controlarlo', { exact: true })).toBeVisible();
    // Retired: its key is dead too.
    const afterDelete = await postReading(page, device.id, secondKey, 4.6);
    expect(afterDelete.status(), await afterDelete.text()).toBe(401);
  });
});
