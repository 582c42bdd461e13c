import { describe, expect, it } from 'vitest';
import { acceptsCommand, DEVICE_ID_REGEX, GATE_STATES, GATE_TRAVEL_TARGET, isCommandInFlight, isGateMoving } from './devices';

describe('device rules', () => {
  it('gates take abrir, cerrar, detener; sensors read and restart', () => {
    expect(['abrir', 'cerrar', 'detener', 'read'].map((c) => acceptsCommand('motorized_gate', c))).toEqual([true, true, true, false]);
    expect(['read', 'restart', 'abrir'].map((c) => acceptsCommand('level_sensor', c))).toEqual([true, true, false]);
  });

  it('device ids are narrow enough to be MQTT client ids and topic levels', () => {
    expect(DEVICE_ID_REGEX.test('esp32_nivel_01')).toBe(true);
    for (const bad of ['ab', 'ESP32', 'a/b', 'a+b', 'a#', 'x'.repeat(65), 'esp32 nivel']) expect(DEVICE_ID_REGEX.test(bad)).toBe(false);
  });

  it('only pending and delivered commands are in flight', () => {
    expect(isCommandInFlight('pending')).toBe(true);
    expect(isCommandInFlight('delivered')).toBe(true);
    for (const s of ['succeeded', 'failed', 'timed_out', 'superseded'] as const) expect(isCommandInFlight(s)).toBe(false);
  });
});

describe('gate travel', () => {
  it('abriendo and cerrando are moving, towards abierta and cerrada; the rest are not', () => {
    expect(GATE_STATES.filter((s) => isGateMoving(s))).toEqual(['abriendo', 'cerrando']);
    expect(GATE_TRAVEL_TARGET).toEqual({ abriendo: 'abierta', cerrando: 'cerrada' });
    expect(isGateMoving(null)).toBe(false);
    expect(isGateMoving('ABRIENDO')).toBe(false);
  });
});
