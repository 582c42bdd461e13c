import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { createDevice } from './support/api';
import { purgeDevice } from './support/cleanup';
import { deviceCard, expectLive } from './support/devices';

const GATE = { id: 'e2e_compuerta_atascada', name: 'Compuerta Atascada E2E' };

test.describe('Falla de recorrido de una compuerta', () => {
  test.afterEach(async () => {
    await purgeDevice(GATE.id);
  });

  test('una compuerta que empieza a moverse y no llega se ve en Falla en el panel, sin recargar', async ({ page }) => {
    const apiKey = await createDevice({ id: GATE.id, name: GATE.name, location: 'Prueba', type: 'motorized_gate', config: { travelTimeoutS: 2 } });

    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, GATE.id);
    await expect(card).toContainText(GATE.name);

    // The gate reports itself opening (moved by hand in the field) and then nothing more.
    const sent = await page.request.post('/api/v1/telemetry', {
      headers: { 'X-API-Key': apiKey },
      data: { deviceId: GATE.id, type: 'motorized_gate', data: { value: 'abriendo' } },
    });
    expect(sent.status()).toBe(202);
    const reading = page.getByTestId(`reading-${GATE.id}`);
    await expect(reading).toContainText('Abriendo');
    // Its travel timeout (2 s) passes: the server reports the fault and the card shows it.
    await expect(reading).toContainText('Falla', { timeout: 6_000 });
  });
});
