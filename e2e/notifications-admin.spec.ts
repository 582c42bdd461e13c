import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi } from './support/api';
import { menuLinks, signIn } from './support/auth';
import { expectToast } from './support/toast';

/** The escalation policy every other test expects (the server's default). */
const DEFAULT_ESCALATION = { maxPriority: 2, afterMin: 10, repeatMin: null, userIds: [], webhookIds: [] };
// Nothing listens on the discard port: every attempt fails at once, and the delivery is retried.
const DEAD_URL = 'http://127.0.0.1:9/nada';

async function expectAccessDenied(page: Page) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Acceso Denegado', exact: true })).toBeVisible();
  await expect(main.getByText('No tienes permisos para acceder a esta sección.', { exact: true })).toBeVisible();
}

/** Resets the escalation and deletes the webhooks this test created, whatever state it left. */
async function cleanUp(namePrefix: string): Promise<void> {
  const api = await adminApi();
  try {
    const reset = await api.put('/api/v1/notifications/escalation', { data: DEFAULT_ESCALATION });
    expect(reset.status(), await reset.text()).toBe(200);
    const list = (await (await api.get('/api/v1/webhooks')).json()) as Array<{ id: string; name: string }>;
    for (const w of list.filter((x) => x.name.startsWith(namePrefix))) {
      const del = await api.delete(`/api/v1/webhooks/${encodeURIComponent(w.id)}`);
      expect([204, 404]).toContain(del.status());
    }
  } finally {
    await api.dispose();
  }
}

test.describe('Notificaciones (administración)', () => {
  const name = `Webhook E2E ${Date.now().toString(36)}`;
  test.afterEach(async () => {
    await cleanUp(name);
  });

  test('el admin crea un webhook, ve su secreto una vez, lo prueba, lo usa en la escalada y lo elimina', async ({ page }) => {
    test.setTimeout(90_000);
    await signIn(page, 'admin');
    await menuLinks(page).filter({ hasText: /^Notificaciones$/ }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Notificaciones', exact: true })).toBeVisible();

    // 'Nuevo webhook': the Telegram chat is asked for only with the Telegram format.
    const webhooks = page.getByTestId('webhooks-card');
    await webhooks.getByRole('button', { name: 'Nuevo webhook', exact: true }).click();
    const dialog = page.getByTestId('new-webhook-dialog');
    await expect(dialog.getByRole('heading', { name: 'Nuevo webhook' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Crear webhook' }).click();
    await expect(dialog.getByText('El nombre es obligatorio.')).toBeVisible();
    await dialog.getByLabel('Nombre', { exact: true }).fill(name);
    await dialog.getByLabel('URL', { exact: true }).fill('hooks.example.com');
    await expect(dialog.getByLabel('Chat de Telegram')).toHaveCount(0);
    await dialog.getByLabel('Formato', { exact: true }).selectOption({ label: 'Telegram' });
    await expect(dialog.getByLabel('Chat de Telegram')).toBeVisible();
    await dialog.getByLabel('Formato', { exact: true }).selectOption({ label: 'Genérico' });
    await expect(dialog.getByLabel('Chat de Telegram')).toHaveCount(0);
    await expect(dialog.getByLabel('Prioridad mínima')).toHaveValue('2');
    await dialog.getByRole('button', { name: 'Crear webhook' }).click();
    await expect(dialog.getByLabel('URL', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('URL', { exact: true }).fill(DEAD_URL);
    await dialog.getByRole('button', { name: 'Crear webhook' }).click();

    // The secret, once, in a monospace box, with what it signs.
    await expect(dialog.getByText('Guarde este secreto: no se volverá a mostrar.')).toBeVisible();
    const secretBox = dialog.getByTestId('webhook-secret');
    const secret = ((await secretBox.textContent()) ?? '').trim();
    expect(secret.length).toBeGreaterThan(20);
    await expect(secretBox).toHaveCSS('font-family', /mono/i);
    await expect(dialog.getByRole('button', { name: 'Copiar secreto' })).toBeVisible();
    await expect(dialog).toContainText('X-Agua-Signature');
    await dialog.getByRole('button', { name: 'He guardado el secreto' }).click();
    await expect(dialog).toBeHidden();

    const row = webhooks.getByRole('listitem').filter({ hasText: name });
    await expect(row).toBeVisible();
    await expect(row).toContainText(DEAD_URL);
    await expect(row).toContainText('Genérico');
    await expect(row).toContainText('Crítica y Alta');
    await expect(row).toContainText('Activo');
    await expect(page.getByText(secret)).toHaveCount(0);
    const listed = (await (await page.request.get('/api/v1/webhooks')).json()) as Array<{ id: string; name: string }>;
    const webhookId = listed.find((w) => w.name === name)?.id;
    expect(webhookId).toBeTruthy();

    // Off and on again.
    await row.getByRole('button', { name: 'Desactivar' }).click();
    await expectToast(page, 'Webhook desactivado');
    await expect(row).toContainText('Desactivado');
    await row.getByRole('button', { name: 'Activar' }).click();
    await expectToast(page, 'Webhook activado');
    await expect(row).toContainText('Activo');

    // 'Enviar prueba' → a row of the delivery log, retried (the URL cannot answer).
    await row.getByRole('button', { name: 'Enviar prueba' }).click();
    await expectToast(page, 'Prueba enviada');
    const log = page.getByTestId('delivery-log');
    // The test's own row: the simulated tanks may raise an alarm meanwhile, and the new webhook is told of it too.
    const delivery = log.getByTestId('delivery-row').filter({ visible: true }).filter({ hasText: name }).filter({ hasText: 'Prueba' });
    await expect(delivery).toHaveCount(1, { timeout: 15_000 });
    await expect(delivery).toContainText('Webhook');
    await expect(delivery).toHaveAttribute('data-state', /^(pending|failed)$/);
    await expect(delivery).toContainText(/Pendiente|Fallida/);
    await expect.poll(async () => Number(await delivery.getAttribute('data-attempts')), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await expect(delivery).not.toContainText('—'); // a failed attempt leaves its error
    // The state filter asks the server: a pending or failed delivery is not among 'Enviadas'.
    await log.getByLabel('Estado').selectOption({ label: 'Enviadas' });
    await expect(log.getByTestId('delivery-row').filter({ hasText: name })).toHaveCount(0);
    await log.getByLabel('Estado').selectOption({ label: 'Todos' });
    await expect(delivery).toHaveCount(1);

    // 'Escalada': minutes are checked in the browser; then the policy names the webhook.
    const escalation = page.getByTestId('escalation-card');
    await escalation.getByLabel('Minutos sin reconocer').fill('0');
    await escalation.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(escalation.getByText('Los minutos sin reconocer deben ser un número entero entre 1 y 1440.')).toBeVisible();
    await expect(escalation.getByLabel('Minutos sin reconocer')).toBeFocused();
    await escalation.getByLabel('Minutos sin reconocer').fill('15');
    await escalation.getByLabel('Repetir cada (minutos)').fill('30');
    await escalation.getByLabel('Prioridad hasta').selectOption({ label: 'Crítica' });
    await escalation.getByRole('checkbox', { name }).check();
    await escalation.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expectToast(page, 'Escalada guardada');
    const saved = await (await page.request.get('/api/v1/notifications/escalation')).json();
    expect(saved).toEqual({ maxPriority: 1, afterMin: 15, repeatMin: 30, userIds: [], webhookIds: [webhookId] });

    // 'Enviar correo de prueba': without SMTP the server says so, in Spanish.
    const mine = (await (await page.request.get('/api/v1/notifications/me')).json()) as { channels: { email: boolean } };
    await escalation.getByRole('button', { name: 'Enviar correo de prueba' }).click();
    if (mine.channels.email) await expectToast(page, 'Correo de prueba enviado');
    else await expectToast(page, 'No se pudo enviar el correo de prueba', 'Ese canal no está configurado en el servidor.');

    // Delete, after a confirmation.
    await row.getByRole('button', { name: 'Eliminar' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading', { name: '¿Eliminar webhook?' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await expectToast(page, 'Webhook eliminado');
    await expect(row).toHaveCount(0);

    const reset = await page.request.put('/api/v1/notifications/escalation', { data: DEFAULT_ESCALATION });
    expect(reset.status()).toBe(200);
  });

  test('el operador no ve Notificaciones en el menú y en /notifications ve Acceso Denegado', async ({ page }) => {
    await signIn(page, 'operator');
    await expect(menuLinks(page).filter({ hasText: /^Notificaciones$/ })).toHaveCount(0);
    await page.goto('/notifications');
    await expectAccessDenied(page);
    await expect(page.getByRole('heading', { name: 'Notificaciones', exact: true })).toHaveCount(0);
    const res = await page.request.get('/api/v1/webhooks');
    expect(res.status()).toBe(403);
  });
});
