import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { startE2eCluster, type E2eCluster } from './support/cluster';
import { deviceCard, DEVICES, expectLive, SIM_TIMEOUT } from './support/devices';
import { expectToast } from './support/toast';

const GATE = DEVICES.compuerta01;

let cluster: E2eCluster;

test.describe('Varias instancias: una sola planta para el navegador', () => {
  test.setTimeout(120_000);
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startE2eCluster();
  });
  test.afterAll(async () => cluster?.stop());

  test('el operador en la instancia B ve en vivo los equipos conectados a A y abre su compuerta', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: cluster.b, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
    const page = await context.newPage();
    await signIn(page, 'operator');
    await expectLive(page);

    // The simulated devices talk to A; their readings reach this page on B.
    const level = page.getByTestId(`reading-${DEVICES.nivel01.id}`);
    await expect(level).toHaveText(/\d/, { timeout: SIM_TIMEOUT });
    const before = await level.textContent();
    await expect(level).not.toHaveText(before ?? '', { timeout: SIM_TIMEOUT });

    // The gate holds its MQTT session on A; the command is issued on B.
    const card = deviceCard(page, GATE.id);
    await expect(card.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    const state = page.getByTestId(`reading-${GATE.id}`);
    await expect(state).toHaveText(/^(Abierta|Cerrada)$/, { timeout: SIM_TIMEOUT });
    const action = (await state.textContent())?.trim() === 'Abierta' ? { label: 'Cerrar', command: 'cerrar', moving: 'Cerrando…', final: 'Cerrada' } : { label: 'Abrir', command: 'abrir', moving: 'Abriendo…', final: 'Abierta' };
    await card.getByRole('button', { name: action.label, exact: true }).click();
    const moving = expect(state).toHaveText(action.moving, { timeout: SIM_TIMEOUT });
    await page.getByRole('alertdialog').getByRole('button', { name: `${action.label} compuerta`, exact: true }).click();
    await expectToast(page, 'Comando Enviado', `Comando "${action.command}" enviado exitosamente`);
    await moving;
    await expect(state).toHaveText(action.final, { timeout: SIM_TIMEOUT });
    await context.close();
  });
});
