import { adminApi } from './api';

/**
 * Clean-up through the admin API, outside the UI under test: whatever a test created is removed
 * even when the test failed half-way, so that the other specs (which count devices and users)
 * see the demo set-up. Each helper is idempotent: 'already gone' is fine.
 */

/** Deletes a device and its history (`?purge=true`), whether it is active or already retired. */
export async function purgeDevice(id: string): Promise<void> {
  const api = await adminApi();
  try {
    const res = await api.delete(`/api/v1/devices/${encodeURIComponent(id)}`, { params: { purge: 'true' } });
    if (![204, 200, 404].includes(res.status())) throw new Error(`purge ${id}: ${res.status()} ${await res.text()}`);
  } finally {
    await api.dispose();
  }
}

/** Deletes the user with this username if there is one. */
export async function deleteUserByUsername(username: string): Promise<void> {
  const api = await adminApi();
  try {
    const res = await api.get('/api/v1/users');
    if (!res.ok()) throw new Error(`list users: ${res.status()} ${await res.text()}`);
    const users = (await res.json()) as Array<{ id: string; username: string }>;
    const user = users.find((u) => u.username === username);
    if (!user) return;
    const del = await api.delete(`/api/v1/users/${encodeURIComponent(user.id)}`);
    if (![204, 200, 404].includes(del.status())) throw new Error(`delete user ${username}: ${del.status()} ${await del.text()}`);
  } finally {
    await api.dispose();
  }
}
