import { ALARM_PRIORITY_LABELS, type AlarmPriority } from '../alarms/alarm-rules';
import type { NotificationEvent } from './notification-policy';

/** What a notification says, the same on every channel (docs/alarms.md "Content"). */
export interface NotificationContent {
  event: NotificationEvent;
  /** 'Crítica · Nivel muy alto: 4,60 m (92 % de 5,00 m)' */
  title: string;
  /** The lines under it: where, when, what to do. */
  lines: string[];
  /** `/alarms` on PUBLIC_URL, or null when it is not set. */
  link: string | null;
  priority: AlarmPriority | null;
  alarmId: string | null;
  deviceId: string | null;
  /** A report's e-mail: the run whose files it carries (docs/reports.md). */
  reportRunId?: string;
}

export interface AlarmFacts {
  alarmId: string;
  priority: AlarmPriority;
  message: string;
  deviceId: string;
  deviceName: string;
  location: string;
  atMs: number;
}

const EVENT_PREFIX: Record<Exclude<NotificationEvent, 'test' | 'report'>, string> = { raised: '', cleared: 'Normalizada: ', escalated: 'Sin reconocer: ' };

// Built once: a formatter costs far more to make than to use (an alarm flood formats thousands).
const DATE_TIME = new Intl.DateTimeFormat('es-ES', { dateStyle: 'short', timeStyle: 'medium', timeZone: 'UTC' });
const timeOf = (ms: number) => `${DATE_TIME.format(new Date(ms))} UTC`;

/** The content of an alarm's notification: raised, normalized or escalated. */
export function alarmNotification(event: Exclude<NotificationEvent, 'test' | 'report'>, a: AlarmFacts, link: string | null): NotificationContent {
  const lines = [`${a.deviceName} (${a.deviceId}) · ${a.location}`, timeOf(a.atMs)];
  if (event !== 'cleared') lines.push(link ? `Reconózcala en ${link}` : 'Reconózcala en la pantalla Alarmas');
  return {
    event,
    title: `${EVENT_PREFIX[event]}${ALARM_PRIORITY_LABELS[a.priority]} · ${a.message}`,
    lines,
    link,
    priority: a.priority,
    alarmId: a.alarmId,
    deviceId: a.deviceId,
  };
}

/** The content of an 'Enviar prueba'. */
export function testNotification(link: string | null, atMs: number): NotificationContent {
  return {
    event: 'test',
    title: 'Prueba de notificación · Panel de Control de Agua',
    lines: ['Si lee esto, el canal funciona.', timeOf(atMs)],
    link,
    priority: null,
    alarmId: null,
    deviceId: null,
  };
}

/** Plain text: the title, then the lines. */
export function notificationText(c: NotificationContent): string {
  return [c.title, ...c.lines].join('\n');
}
