import {
  ALARM_PRIORITY_LABELS,
  type AlarmPriority,
  type DeliveryState,
  type NotificationChannel,
  type NotificationEvent,
  type WebhookFormat,
} from '@agua/shared';

/** Spanish names for the notification screen (UI-only texts). */

export const WEBHOOK_FORMAT_LABELS: Readonly<Record<WebhookFormat, string>> = { generic: 'Genérico', slack: 'Slack', telegram: 'Telegram' };

export const DELIVERY_EVENT_LABELS: Readonly<Record<NotificationEvent, string>> = {
  raised: 'Alarma',
  cleared: 'Normalizada',
  escalated: 'Escalada',
  test: 'Prueba',
  report: 'Informe',
};

export const CHANNEL_LABELS: Readonly<Record<NotificationChannel, string>> = { email: 'Correo', push: 'Push', webhook: 'Webhook' };

export const DELIVERY_STATE_LABELS = {
  pending: { label: 'Pendiente', tone: 'warn' },
  sent: { label: 'Enviada', tone: 'ok' },
  failed: { label: 'Fallida', tone: 'crit' },
} as const satisfies Record<DeliveryState, { label: string; tone: 'warn' | 'ok' | 'crit' }>;

/** The delivery log's state filter; '' is every state. */
export const DELIVERY_STATE_FILTERS: ReadonlyArray<{ value: DeliveryState | ''; label: string }> = [
  { value: '', label: 'Todos' },
  { value: 'pending', label: 'Pendientes' },
  { value: 'sent', label: 'Enviadas' },
  { value: 'failed', label: 'Fallidas' },
];

export const PRIORITIES: readonly AlarmPriority[] = [1, 2, 3, 4];

/**
 * Which alarms a lowest priority lets through, in words: 1 'Solo Crítica', 2 'Crítica y Alta',
 * 3 'Crítica, Alta y Media', 4 'Todas'.
 */
export function priorityReachLabel(minPriority: number): string {
  if (minPriority >= 4) return 'Todas';
  if (minPriority <= 1) return `Solo ${ALARM_PRIORITY_LABELS[1]}`;
  const names = PRIORITIES.filter((p) => p <= minPriority).map((p) => ALARM_PRIORITY_LABELS[p]);
  return `${names.slice(0, -1).join(', ')} y ${names[names.length - 1]}`;
}

/** A select's option for a priority: 'Alta (Crítica y Alta)'. */
export function priorityOptionLabel(priority: AlarmPriority): string {
  return `${ALARM_PRIORITY_LABELS[priority]} (${priorityReachLabel(priority)})`;
}
