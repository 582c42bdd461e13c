import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { adminApi } from './support/api';
import { expectLive } from './support/devices';
import { expectToastBehindModal } from './support/toast-modal';
import { ownTank, reportLevel } from './support/own-tank';

// A tank of its own: the simulator's readings of a demo tank would clear the alarm under the test.
// A new id per test, so no test sees another's device.
const TANK = ownTank('e2e_tanque_alarma', 'Tanque Alarma E2E');

test.describe('Alarmas', () => {
  test('un nivel muy alto enciende el aviso de la cabecera; en Alarmas se reconoce con un comentario', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    await reportLevel(page.request, TANK, 4.9);

    // Live, without reloading: the banner names the worst priority, the card shows its alarms.
    const banner = page.getByTestId('alarm-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('data-priority', '1');
    await expect(banner).toHaveAccessibleName(/sin reconocer · Crítica/);
    await expect(page.getByTestId(`device-alarms-${TANK.id}`)).toContainText('2 alarmas activas');

    await banner.click();
    await expect(page).toHaveURL(/\/alarms$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Alarmas', exact: true })).toBeVisible();
    const row = page.getByTestId('open-alarms').getByRole('listitem').filter({ hasText: `${TANK.name} · Nivel muy alto` });
    await expect(row).toHaveAttribute('data-state', 'unack');
    await expect(row).toContainText('Nivel muy alto: 4,90 m (98 % de 5,00 m)');
    await expect(row).toContainText('Activa sin reconocer');

    await row.getByRole('button', { name: 'Reconocer' }).click();
    const dialog = page.getByTestId('ack-dialog');
    await dialog.getByLabel('Comentario (opcional)').fill('Revisado por el turno');
    await dialog.getByRole('button', { name: 'Reconocer' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute('data-state', 'ack');
    await expect(row).toContainText('Activa reconocida');
    await expect(row).toContainText('reconocida por Juan Pérez');

    // The history tab lists it with who acknowledged it and the comment; its filters narrow it.
    await page.getByRole('tab', { name: 'Historial' }).click();
    const history = page.getByTestId('alarm-history');
    await expect(history).toContainText('Juan Pérez — Revisado por el turno');
    await page.getByLabel('Dispositivo').selectOption(TANK.id);
    await expect(history.getByRole('row')).toHaveCount(3); // the header, 'Nivel muy alto' and 'Nivel alto'
    await page.getByLabel('Prioridad').selectOption({ label: 'Crítica' });
    await expect(history.getByRole('row')).toHaveCount(2);
    await expect(history).toContainText('Nivel muy alto');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar Excel' }).click();
    expect((await download).suggestedFilename()).toBe('Historial_Alarmas.xlsx');
  });

  test('el administrador ajusta una regla del dispositivo; un valor imposible se explica en la misma regla', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto(`/devices?id=${TANK.id}`);
    await page.getByRole('button', { name: 'Reglas de alarma' }).click();
    const rule = page.getByTestId('alarm-rules-dialog').getByTestId('alarm-rule-level_high_high');

    await rule.getByLabel('Banda muerta (%)').fill('60');
    await rule.getByRole('button', { name: 'Guardar' }).click();
    await expect(rule.getByRole('alert')).toHaveText('La banda muerta debe ser menor que 50 %.');
    await expect(rule.getByLabel('Banda muerta (%)')).toHaveAttribute('aria-invalid', 'true');

    await rule.getByLabel('Banda muerta (%)').fill('5');
    await rule.getByLabel('Punto de ajuste (%)').fill('90');
    await rule.getByRole('button', { name: 'Guardar' }).click();
    await expectToastBehindModal(page, 'Regla guardada', 'Nivel muy alto');
    await expect(rule.getByRole('alert')).toHaveCount(0);

    const api = await adminApi();
    try {
      const rules = (await (await api.get(`/api/v1/devices/${TANK.id}/alarm-rules`)).json()) as Array<{ kind: string; setpointPct?: number; deadbandPct: number }>;
      expect(rules.find((r) => r.kind === 'level_high_high')).toMatchObject({ setpointPct: 90, deadbandPct: 5 });
    } finally {
      await api.dispose();
    }

    // The same setpoint in metres (absolute): the % is dropped.
    await rule.getByLabel('Punto de ajuste en').selectOption('m');
    await rule.getByLabel('Punto de ajuste (m)').fill('4.6');
    await rule.getByRole('button', { name: 'Guardar' }).click();
    await expectToastBehindModal(page, 'Regla guardada', 'Nivel muy alto');
    const api2 = await adminApi();
    try {
      const rules = (await (await api2.get(`/api/v1/devices/${TANK.id}/alarm-rules`)).json()) as Array<{ kind: string; setpointPct?: number | null; setpointM?: number | null }>;
      expect(rules.find((r) => r.kind === 'level_high_high')).toMatchObject({ setpointPct: null, setpointM: 4.6 });
    } finally {
      await api2.dispose();
    }
    // The water kinds are listed too.
    await expect(page.getByTestId('alarm-rule-time_to_overflow')).toContainText('Desborde próximo');
    await expect(page.getByTestId('alarm-rule-time_to_overflow').getByLabel('Desborde en menos de (min)')).toHaveValue('60');
    await expect(page.getByTestId('alarm-rule-level_above_crest')).toContainText('Nivel sobre vertedero');
  });
});
