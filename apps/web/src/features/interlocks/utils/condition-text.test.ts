import { describe, expect, it } from 'vitest';
import { conditionText } from './condition-text';
import { readRefusal } from './command-refusal';
import { ApiError } from '@/lib/api-client';

const names: Record<string, string> = { t: 'Sensor Nivel Agua Limpia', g: 'Compuerta Canal A' };
const name = (id: string) => names[id] ?? id;

describe('conditions in words', () => {
  it('says each kind as it must hold', () => {
    expect(conditionText({ kind: 'level', deviceId: 't', op: '<', valueM: 4.25 }, name)).toMatch(/^Sensor Nivel Agua Limpia: nivel < 4[,.]25 m$/);
    expect(conditionText({ kind: 'level', deviceId: 't', op: '>=', pct: 10, maxAgeS: 60 }, name)).toBe('Sensor Nivel Agua Limpia: nivel ≥ 10 % del nivel máximo (lectura de hace 60 s como mucho)');
    expect(conditionText({ kind: 'alarm', deviceId: 't', active: false }, name)).toBe('Sensor Nivel Agua Limpia: sin alarma activa');
    expect(conditionText({ kind: 'alarm', deviceId: 't', active: false, alarmKind: 'level_high', priorityAtMost: 2 }, name)).toBe(
      'Sensor Nivel Agua Limpia: sin alarma «Nivel alto» activa de prioridad Alta o más urgente',
    );
    expect(conditionText({ kind: 'alarm', deviceId: 't', active: false, priorityAtMost: 1 }, name)).toBe('Sensor Nivel Agua Limpia: sin alarma activa de prioridad Crítica');
    expect(conditionText({ kind: 'gate_state', deviceId: 'g', in: ['cerrada', 'abierta'] }, name)).toBe('Compuerta Canal A: Cerrada o Abierta');
    expect(conditionText({ kind: 'online', deviceId: 'x' }, name)).toBe('x: en línea');
  });
});

describe("a command's refusal in its dialog", () => {
  const reasons = [{ interlockId: 'i', name: 'n', mode: 'block', deviceId: 't', kind: 'level', message: 'Bloqueado: Sensor en nivel alto (4,62 m ≥ 4,25 m)' }];

  it('lists the reasons of INTERLOCKED above the buttons', () => {
    const r = readRefusal(new ApiError(409, 'INTERLOCKED', 'Comando bloqueado por un enclavamiento.', { reasons }));
    expect(r).toMatchObject({ field: null, message: 'Comando bloqueado por un enclavamiento.', forbidden: false });
    expect(r.reasons.map((x) => x.message)).toEqual([reasons[0]!.message]);
  });

  it('puts a demand the check had not shown at its field', () => {
    expect(readRefusal(new ApiError(422, 'COMMENT_REQUIRED', 'Este comando requiere un comentario.', { reasons }))).toMatchObject({ field: 'comment', demands: { comment: true } });
    expect(readRefusal(new ApiError(422, 'REAUTH_FAILED', 'Contraseña incorrecta.'))).toMatchObject({ field: 'password', message: 'Contraseña incorrecta.', reasons: [] });
    expect(readRefusal(new ApiError(429, 'TOO_MANY_ATTEMPTS', 'Demasiados intentos fallidos.'))).toMatchObject({ field: null, demands: { password: true } });
  });

  it("offers 'Tomar control manual' when the gate follows a schedule", () => {
    const r = readRefusal(new ApiError(409, 'SCHEDULE_ACTIVE', 'La compuerta sigue la programación «Abrir 06:00» (cierre a las 07:30).', { scheduleId: 's', name: 'Abrir 06:00', closeAt: 'x' }));
    expect(r).toMatchObject({ scheduleActive: true, field: null, forbidden: false });
    expect(readRefusal(new ApiError(409, 'COMMAND_IN_PROGRESS', 'Ya hay un comando en curso para este dispositivo.')).scheduleActive).toBe(false);
  });

  it('tells a role without write apart', () => {
    expect(readRefusal(new ApiError(403, 'FORBIDDEN', 'No tienes permisos para esta acción.')).forbidden).toBe(true);
    expect(readRefusal(new Error('x'))).toMatchObject({ message: 'x', field: null });
  });
});
