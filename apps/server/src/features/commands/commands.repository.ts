import type { Kysely, Selectable } from 'kysely';
import type { Command, CommandStatus, InterlockOverride } from '@agua/shared';
import { iso } from '../../lib/time';
import type { CommandsTable, Database } from '../../storage/schema';

export interface CommandRecord {
  id: string;
  deviceId: string;
  command: string;
  status: CommandStatus;
  issuedBy: { id: string; username: string; name: string } | null;
  issuedAtMs: number;
  expiresAtMs: number;
  deliveredAtMs: number | null;
  handedOutAtMs: number | null;
  completedAtMs: number | null;
  message: string | null;
  /** The issuer's comment (a `confirm` interlock demands one). */
  comment: string | null;
  approvedBy: Person | null;
  approvedAtMs: number | null;
  /** A two-person command waiting for approval expires then; null for others. */
  approvalExpiresAtMs: number | null;
  /** The failed interlocks it passed (docs/control.md). */
  overrides: InterlockOverride[];
  /** The schedule that issued it; null for a person's command. */
  scheduleId: string | null;
}

type Person = { id: string; username: string; name: string };

const num = (v: number | null) => (v === null ? null : Number(v));

function toRecord(r: Selectable<CommandsTable>): CommandRecord {
  return {
    id: r.id,
    deviceId: r.device_id,
    command: r.command,
    status: r.status as CommandStatus,
    issuedBy: r.issued_by_id ? { id: r.issued_by_id, username: r.issued_by_username ?? '', name: r.issued_by_name ?? '' } : null,
    issuedAtMs: Number(r.issued_at_ms),
    expiresAtMs: Number(r.expires_at_ms),
    deliveredAtMs: num(r.delivered_at_ms),
    handedOutAtMs: num(r.handed_out_at_ms),
    completedAtMs: num(r.completed_at_ms),
    message: r.message,
    comment: r.comment,
    approvedBy: r.approved_by_json ? (JSON.parse(r.approved_by_json) as Person) : null,
    approvedAtMs: num(r.approved_at_ms),
    approvalExpiresAtMs: num(r.approval_expires_at_ms),
    overrides: r.overrides_json ? (JSON.parse(r.overrides_json) as InterlockOverride[]) : [],
    scheduleId: r.schedule_id,
  };
}

/** The API's Command of a stored command. */
export function toCommand(c: CommandRecord): Command {
  return {
    id: c.id,
    deviceId: c.deviceId,
    command: c.command,
    status: c.status,
    issuedBy: c.scheduleId !== null ? { kind: 'schedule', scheduleId: c.scheduleId, name: 'Programación' } : c.issuedBy ? { kind: 'user', ...c.issuedBy } : null,
    issuedAt: iso(c.issuedAtMs),
    deliveredAt: iso(c.deliveredAtMs),
    completedAt: iso(c.completedAtMs),
    message: c.message,
    comment: c.comment,
    approvedBy: c.approvedBy,
    approvedAt: iso(c.approvedAtMs),
    approvalExpiresAt: iso(c.approvalExpiresAtMs),
    overrides: c.overrides,
  };
}

export interface CommandPageQuery {
  deviceId?: string;
  status?: CommandStatus;
  limit: number;
  /** Continue after this (issuedAtMs, id), newest first. */
  after?: { issuedAtMs: number; id: string };
}

/** A transaction a command's insert shares with another write (a schedule's run claimed with it). */
export type CommandsTransaction = Kysely<Database>;

/** Commands, stored with their lifecycle. */
export class CommandsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new command; `db` a transaction it shares with another write (a schedule's run). */
  async insert(c: CommandRecord, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto('commands')
      .values({
        id: c.id,
        device_id: c.deviceId,
        command: c.command,
        status: c.status,
        issued_by_id: c.issuedBy?.id ?? null,
        issued_by_username: c.issuedBy?.username ?? null,
        issued_by_name: c.issuedBy?.name ?? null,
        issued_at_ms: c.issuedAtMs,
        expires_at_ms: c.expiresAtMs,
        delivered_at_ms: c.deliveredAtMs,
        handed_out_at_ms: c.handedOutAtMs,
        completed_at_ms: c.completedAtMs,
        message: c.message,
        comment: c.comment,
        approved_by_json: c.approvedBy ? JSON.stringify(c.approvedBy) : null,
        approved_at_ms: c.approvedAtMs,
        approval_expires_at_ms: c.approvalExpiresAtMs,
        overrides_json: c.overrides.length > 0 ? JSON.stringify(c.overrides) : null,
        schedule_id: c.scheduleId,
      })
      .execute();
  }

  transaction<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async save(c: CommandRecord): Promise<void> {
    await this.db
      .updateTable('commands')
      .set({
        status: c.status,
        delivered_at_ms: c.deliveredAtMs,
        handed_out_at_ms: c.handedOutAtMs,
        completed_at_ms: c.completedAtMs,
        message: c.message,
        approved_by_json: c.approvedBy ? JSON.stringify(c.approvedBy) : null,
        approved_at_ms: c.approvedAtMs,
      })
      .where('id', '=', c.id)
      .execute();
  }

  /**
   * Moves a command out of `awaiting_approval` if it still is there: the one approval, rejection,
   * expiry or supersession that wins (any instance); false when another got there first.
   */
  async leaveAwaiting(c: CommandRecord): Promise<boolean> {
    const result = await this.db
      .updateTable('commands')
      .set({
        status: c.status,
        completed_at_ms: c.completedAtMs,
        message: c.message,
        approved_by_json: c.approvedBy ? JSON.stringify(c.approvedBy) : null,
        approved_at_ms: c.approvedAtMs,
        expires_at_ms: c.expiresAtMs,
      })
      .where('id', '=', c.id)
      .where('status', '=', 'awaiting_approval')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Two-person commands still waiting: one device's, or those whose approval time ran out by `expiredBy`. */
  async findAwaiting(q: { deviceId?: string; expiredBy?: number }): Promise<CommandRecord[]> {
    let query = this.db.selectFrom('commands').selectAll().where('status', '=', 'awaiting_approval');
    if (q.deviceId !== undefined) query = query.where('device_id', '=', q.deviceId);
    if (q.expiredBy !== undefined) query = query.where('approval_expires_at_ms', '<=', q.expiredBy);
    return (await query.orderBy('issued_at_ms').execute()).map(toRecord);
  }

  async findById(id: string): Promise<CommandRecord | null> {
    const row = await this.db.selectFrom('commands').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Commands still waiting for their device (pending or delivered). */
  /** Commands not yet final: every device's, or one device's. */
  async findInFlight(deviceId?: string): Promise<CommandRecord[]> {
    let query = this.db.selectFrom('commands').selectAll().where('status', 'in', ['pending', 'delivered']);
    if (deviceId !== undefined) query = query.where('device_id', '=', deviceId);
    return (await query.execute()).map(toRecord);
  }

  /** Every command to these devices issued in [fromMs, toMs), oldest first (a report's period). */
  async issuedBetween(deviceIds: readonly string[], fromMs: number, toMs: number): Promise<CommandRecord[]> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('commands')
      .selectAll()
      .where('device_id', 'in', [...deviceIds])
      .where('issued_at_ms', '>=', fromMs)
      .where('issued_at_ms', '<', toMs)
      .orderBy('issued_at_ms')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async page(q: CommandPageQuery): Promise<CommandRecord[]> {
    let query = this.db.selectFrom('commands').selectAll();
    if (q.deviceId) query = query.where('device_id', '=', q.deviceId);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.after) {
      const { issuedAtMs, id } = q.after;
      query = query.where((eb) =>
        eb.or([eb('issued_at_ms', '<', issuedAtMs), eb.and([eb('issued_at_ms', '=', issuedAtMs), eb('id', '<', id)])]),
      );
    }
    const rows = await query.orderBy('issued_at_ms', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map(toRecord);
  }

  async deleteByDevice(deviceId: string): Promise<void> {
    await this.db.deleteFrom('commands').where('device_id', '=', deviceId).execute();
  }

  /** How many commands are stored with each status (the metrics' level). */
  async countByStatus(): Promise<Array<{ status: CommandStatus; count: number }>> {
    const rows = await this.db.selectFrom('commands').select((eb) => ['status', eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
    return rows.map((r) => ({ status: r.status as CommandStatus, count: Number(r.n) }));
  }
}
