import { describe, expect, it } from 'vitest';
import { DELIVERY_STATES, NOTIFICATION_CHANNELS, NOTIFICATION_EVENTS, WEBHOOK_FORMATS } from '@agua/shared';
import {
  CHANNEL_LABELS,
  DELIVERY_EVENT_LABELS,
  DELIVERY_STATE_FILTERS,
  DELIVERY_STATE_LABELS,
  WEBHOOK_FORMAT_LABELS,
  priorityOptionLabel,
  priorityReachLabel,
} from './notification-labels';

describe('priorityReachLabel', () => {
  it.each([
    [1, 'Solo Crítica'],
    [2, 'Crítica y Alta'],
    [3, 'Crítica, Alta y Media'],
    [4, 'Todas'],
  ] as const)('%i → %s', (priority, label) => {
    expect(priorityReachLabel(priority)).toBe(label);
  });

  it('names the priority first in a select option', () => {
    expect(priorityOptionLabel(2)).toBe('Alta (Crítica y Alta)');
  });
});

describe('labels', () => {
  it('cover every value shared defines', () => {
    expect(WEBHOOK_FORMATS.map((f) => WEBHOOK_FORMAT_LABELS[f])).toEqual(['Genérico', 'Slack', 'Telegram']);
    expect(NOTIFICATION_EVENTS.map((e) => DELIVERY_EVENT_LABELS[e])).toEqual(['Alarma', 'Normalizada', 'Escalada', 'Prueba', 'Informe']);
    expect(NOTIFICATION_CHANNELS.map((c) => CHANNEL_LABELS[c])).toEqual(['Correo', 'Push', 'Webhook']);
    expect(DELIVERY_STATES.map((s) => DELIVERY_STATE_LABELS[s].label)).toEqual(['Pendiente', 'Enviada', 'Fallida']);
    expect(DELIVERY_STATE_FILTERS.map((f) => f.value)).toEqual(['', ...DELIVERY_STATES]);
  });
});
