import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './test';
import { createDevice } from './api';
import { purgeDevice } from './cleanup';

export interface OwnTank {
  id: string;
  name: string;
  apiKey: string;
}

/**
 * A level sensor of the tests' own (maxLevel 5 m), made before each test of the file or block that
 * calls this — a new id each time, so no test sees another's — and purged after it. Alarm tests
 * need one: the simulator's readings of a demo tank would clear the alarm under test.
 */
export function ownTank(idPrefix: string, name: string): OwnTank {
  const tank: OwnTank = { id: '', name, apiKey: '' };
  test.beforeEach(async () => {
    tank.id = `${idPrefix}_${Date.now().toString(36)}`;
    tank.apiKey = await createDevice({ id: tank.id, name: tank.name, location: 'Prueba', type: 'level_sensor', config: { maxLevel: 5 } });
  });
  test.afterEach(async () => {
    await purgeDevice(tank.id);
  });
  return tank;
}

/** The tank reports a level in metres, as its board would; the server takes it (202). */
export async function reportLevel(request: APIRequestContext, tank: OwnTank, value: number): Promise<void> {
  const res = await request.post('/api/v1/telemetry', { headers: { 'X-API-Key': tank.apiKey }, data: { deviceId: tank.id, type: 'level_sensor', data: { value, unit: 'm' } } });
  expect(res.status(), await res.text()).toBe(202);
}
