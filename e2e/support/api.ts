import { expect, request, type APIRequestContext } from '@playwright/test';
import { ACCOUNTS } from './auth';

export const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

/**
 * An API client signed in as the demo admin, outside any page: for set-up and clean-up that must
 * not depend on the UI under test (e.g. re-enabling a device after a failed toggle test).
 */
export async function adminApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const { username, password, masterPassword } = ACCOUNTS.admin;
  const res = await api.post('/api/v1/auth/login', { data: { username, password, masterPassword } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

/** An API client signed in as one of the demo accounts (the master password only for the admin). */
export async function apiAs(role: keyof typeof ACCOUNTS): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const { username, password, masterPassword } = ACCOUNTS[role];
  const res = await api.post('/api/v1/auth/login', { data: { username, password, ...(masterPassword ? { masterPassword } : {}) } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

export interface DeviceSummary {
  id: string;
  status: 'online' | 'offline';
  enabled: boolean;
  reading: { value: unknown } | null;
}

export async function getDevice(api: APIRequestContext, id: string): Promise<DeviceSummary> {
  const res = await api.get('/api/v1/devices');
  expect(res.ok()).toBe(true);
  const devices = (await res.json()) as DeviceSummary[];
  const device = devices.find((d) => d.id === id);
  if (!device) throw new Error(`device ${id} not found`);
  return device;
}

/** Makes sure a device is administratively enabled (idempotent). */
export async function ensureEnabled(id: string): Promise<void> {
  const api = await adminApi();
  try {
    const device = await getDevice(api, id);
    if (!device.enabled) {
      const res = await api.patch(`/api/v1/devices/${id}`, { data: { enabled: true } });
      expect(res.ok(), await res.text()).toBe(true);
    }
  } finally {
    await api.dispose();
  }
}

/** Registers a device through the API as the demo admin (set-up of a test); returns its key. */
export async function createDevice(data: Record<string, unknown>): Promise<string> {
  const api = await adminApi();
  try {
    const res = await api.post('/api/v1/devices', { data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { apiKey: string }).apiKey;
  } finally {
    await api.dispose();
  }
}
