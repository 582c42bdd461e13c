import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema';

export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.address_refused',
  'auth.session_revoked',
  'auth.totp_enabled',
  'auth.totp_disabled',
  'auth.recovery_code_used',
  'command.issued',
  'command.refused',
  'command.completed',
  'command.approved',
  'command.rejected',
  'command.expired',
  'interlock.created',
  'interlock.updated',
  'interlock.deleted',
  'interlock.bypassed',
  'interlock.bypass_ended',
  'schedule.created',
  'schedule.updated',
  'schedule.deleted',
  'schedule.manual_takeover',
  'device.created',
  'device.updated',
  'device.enabled',
  'device.disabled',
  'device.key_rotated',
  'device.deleted',
  'device.geometry_changed',
  'device.site_changed',
  'site.created',
  'site.updated',
  'site.deleted',
  'synoptic.saved',
  'overflow.updated',
  'report.created',
  'report.updated',
  'report.deleted',
  'alarm.rule_updated',
  'alarm.acked',
  'alarm.shelved',
  'alarm.unshelved',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'escalation.updated',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.password_reset',
  'user.password_changed',
  'user.totp_reset',
  'settings.updated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditResult = 'ok' | 'denied' | 'failed';

export interface AuditEntry {
  action: AuditAction;
  userId: string | null;
  username: string | null;
  target: string | null;
  result: AuditResult;
  ip: string | null;
  details?: Record<string, unknown> | null;
}

export interface AuditEventRecord extends AuditEntry {
  id: number;
  atMs: number;
}

export interface AuditQuery {
  fromMs?: number;
  toMs?: number;
  userId?: string;
  deviceId?: string;
  action?: string;
  limit: number;
  /** Id of the last event of the previous page (events are returned newest first). */
  beforeId?: number;
}

/** The append-only audit trail (the table refuses UPDATE and DELETE). */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async append(entry: AuditEntry, atMs: number): Promise<void> {
    await this.db
      .insertInto('audit_events')
      .values({
        at_ms: atMs,
        action: entry.action,
        user_id: entry.userId,
        username: entry.username,
        target: entry.target,
        result: entry.result,
        ip: entry.ip,
        details_json: entry.details ? JSON.stringify(entry.details) : null,
      })
      .execute();
  }

  async page(q: AuditQuery): Promise<AuditEventRecord[]> {
    let query = this.db.selectFrom('audit_events').selectAll();
    if (q.fromMs !== undefined) query = query.where('at_ms', '>=', q.fromMs);
    if (q.toMs !== undefined) query = query.where('at_ms', '<', q.toMs);
    if (q.userId) query = query.where('user_id', '=', q.userId);
    if (q.deviceId) query = query.where('target', '=', `device:${q.deviceId}`);
    if (q.action) query = query.where('action', '=', q.action);
    if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
    const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      atMs: Number(r.at_ms),
      action: r.action as AuditAction,
      userId: r.user_id,
      username: r.username,
      target: r.target,
      result: r.result as AuditResult,
      ip: r.ip,
      details: r.details_json ? (JSON.parse(r.details_json) as Record<string, unknown>) : null,
    }));
  }
}
