import type { Kysely, Selectable } from 'kysely';
import type { Command, CommandStatus } from '@agua/shared';
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
}

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
  };
}

/** The API's Command of a stored command. */
export function toCommand(c: CommandRecord): Command {
  return {
    id: c.id,
    deviceId: c.deviceId,
    command: c.command,
    status: c.status,
    issuedBy: c.issuedBy,
    issuedAt: iso(c.issuedAtMs),
    deliveredAt: iso(c.deliveredAtMs),
    completedAt: iso(c.completedAtMs),
    message: c.message,
  };
}

export interface CommandPageQuery {
  deviceId?: string;
  limit: number;
  /** Continue after this (issuedAtMs, id), newest first. */
  after?: { issuedAtMs: number; id: string };
}

/** Commands, stored with their lifecycle. */
export class CommandsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(c: CommandRecord): Promise<void> {
    await this.db
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
      })
      .execute();
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
      })
      .where('id', '=', c.id)
      .execute();
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
