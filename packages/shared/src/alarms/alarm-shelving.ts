import { can, type Role } from '../auth/permissions';

/**
 * Who may shelve an alarm of priority 1 ('Crítica'), a server setting (ALARM_SHELVE_CRITICAL):
 * `write` — anyone who may act on alarms (the default); `admin` — administrators only. A shelved
 * Crítica alarm neither sounds nor notifies while its condition may still hold, so a utility may
 * want that decision kept to a few people.
 */
export const SHELVE_CRITICAL_ACCESS = ['write', 'admin'] as const;
export type ShelveCriticalAccess = (typeof SHELVE_CRITICAL_ACCESS)[number];

/** The priority the setting guards: 1, 'Crítica'. */
export const CRITICAL_ALARM_PRIORITY = 1;

/**
 * Whether a user may shelve an alarm of this priority under the setting; the one rule for the
 * server's refusal (403 SHELVE_CRITICAL_FORBIDDEN) and the web app's 'Suspender' button.
 */
export function mayShelveAlarm(user: { role: Role } | null | undefined, priority: number, access: ShelveCriticalAccess): boolean {
  if (!can(user, 'write')) return false;
  return priority !== CRITICAL_ALARM_PRIORITY || access === 'write' || user?.role === 'admin';
}
