import type { Permissives } from '@agua/shared';
import { api } from '@/lib/api-client';

/** GET /devices/{id}/permissives?command=…: what the command would meet now (the server judges again when it is sent). */
export function getPermissives(deviceId: string, command: string, signal?: AbortSignal): Promise<Permissives> {
  return api.get<Permissives>(`/devices/${encodeURIComponent(deviceId)}/permissives`, { command }, signal);
}
