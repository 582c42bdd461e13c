import { expect, type APIRequestContext, type Locator } from '@playwright/test';
import { adminApi } from './api';
import { SIM_TIMEOUT } from './devices';

/** An interlock as the API answers it (docs/control.md). */
export interface InterlockBody {
  id: string;
  deviceId: string;
  command: string;
  name: string;
  mode: 'block' | 'confirm' | 'reauth' | 'two_person';
  enabled: boolean;
  version: number;
  bypass: { until: string; by: { name: string }; comment: string } | null;
}

async function asAdmin<T>(run: (api: APIRequestContext) => Promise<T>): Promise<T> {
  const api = await adminApi();
  try {
    return await run(api);
  } finally {
    await api.dispose();
  }
}

/** Defines an interlock through the API as the demo admin (set-up of a test). */
export function createInterlock(data: Record<string, unknown>): Promise<InterlockBody> {
  return asAdmin(async (api) => {
    const res = await api.post('/api/v1/interlocks', { data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as InterlockBody;
  });
}

export function bypassInterlock(id: string, minutes: number, comment: string): Promise<InterlockBody> {
  return asAdmin(async (api) => {
    const res = await api.post(`/api/v1/interlocks/${id}/bypass`, { data: { minutes, comment } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as InterlockBody;
  });
}

export function endBypass(id: string): Promise<void> {
  return asAdmin(async (api) => {
    const res = await api.delete(`/api/v1/interlocks/${id}/bypass`);
    expect(res.status(), await res.text()).toBe(200);
  });
}

export function listInterlocks(): Promise<InterlockBody[]> {
  return asAdmin(async (api) => (await (await api.get('/api/v1/interlocks')).json()) as InterlockBody[]);
}

/**
 * Clean-up: every interlock goes and every two-person command still waiting is rejected, so that
 * the other journeys (which command the demo gate) find it free. Idempotent.
 */
export async function clearInterlocks(): Promise<void> {
  await asAdmin(async (api) => {
    const waiting = (await (await api.get('/api/v1/commands', { params: { status: 'awaiting_approval', limit: 200 } })).json()) as { items: Array<{ id: string }> };
    for (const c of waiting.items) await api.post(`/api/v1/commands/${c.id}/reject`, { data: { comment: 'Limpieza de la prueba' } });
    for (const i of (await (await api.get('/api/v1/interlocks')).json()) as InterlockBody[]) {
      const res = await api.delete(`/api/v1/interlocks/${i.id}`);
      if (![204, 404].includes(res.status())) throw new Error(`delete interlock ${i.id}: ${res.status()} ${await res.text()}`);
    }
  });
}

interface GateBody {
  status: 'online' | 'offline';
  config: { state: string | null };
  lastCommand: { id: string; command: string; status: string; comment: string | null; approvedBy: { username: string } | null } | null;
}

export function getGate(id: string): Promise<GateBody> {
  return asAdmin(async (api) => {
    const devices = (await (await api.get('/api/v1/devices')).json()) as Array<GateBody & { id: string }>;
    const gate = devices.find((d) => d.id === id);
    if (!gate) throw new Error(`device ${id} not found`);
    return gate;
  });
}

/**
 * Waits until the simulated gate is online, at rest and without a command on its way (a test
 * before may have moved it); returns the command that moves it from where it is.
 */
export async function restingGate(id: string): Promise<{ action: 'abrir' | 'cerrar'; label: 'Abrir' | 'Cerrar' }> {
  let gate: GateBody | undefined;
  await expect
    .poll(
      async () => {
        gate = await getGate(id);
        const moving = gate.lastCommand !== null && ['pending', 'delivered'].includes(gate.lastCommand.status);
        return gate.status === 'online' && !moving && (gate.config.state === 'abierta' || gate.config.state === 'cerrada');
      },
      { timeout: SIM_TIMEOUT },
    )
    .toBe(true);
  return gate!.config.state === 'abierta' ? { action: 'cerrar', label: 'Cerrar' } : { action: 'abrir', label: 'Abrir' };
}

/** The notes under a device's command buttons (permit-notes.tsx). */
export function permitNotes(scope: Locator, deviceId: string, command: string): Locator {
  return scope.getByTestId(`permit-${deviceId}-${command}`);
}
