import {
  ALARM_ACK_MANY_MAX,
  OPEN_ALARM_STATES,
  isAlarmOpen,
  mayShelveAlarm,
  type Alarm,
  type AlarmKind,
  type AlarmState,
  type ShelveCriticalAccess,
} from '@agua/shared';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { iso, type MsRange } from '../../lib/time';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord } from '../users/users.repository';
import type { AlarmEngine } from './alarm-engine';
import { toAlarm, type AlarmQuery, type AlarmRecord, type AlarmsRepository, type AlarmTransition, type Person } from './alarms.repository';

interface Actor {
  user: UserRecord;
  ip: string;
}

const personOf = (user: UserRecord): Person => ({ id: user.id, username: user.username, name: user.name });

const TEN_MINUTES_MS = 10 * 60_000;
/** ISA-18.2: more than 10 alarms in 10 minutes is a flood; 3 raises of one rule within a minute is chattering. */
const FLOOD_OVER = 10;
const CHATTER_COUNT = 3;
const CHATTER_WINDOW_MS = 60_000;
const STANDING_MS = 24 * 3600_000;
const EXPORT_BATCH = 500;

interface RuleCount {
  deviceId: string;
  ruleId: string;
  kind: AlarmKind;
  count: number;
}

/** The ISA-18.2 figures over the alarms raised in a range (docs/alarms.md "API", /alarms/stats). */
export interface AlarmStats {
  from: string;
  to: string;
  total: number;
  perTenMinutes: { max: number; mean: number };
  floods: number;
  top: RuleCount[];
  chattering: RuleCount[];
  standing: number;
  meanTimeToAckS: number | null;
}

/** What people do with alarms — look, acknowledge, shelve — with the audit trail of each act. */
export class AlarmsService {
  constructor(
    private readonly engine: AlarmEngine,
    private readonly repo: AlarmsRepository,
    private readonly audit: AuditService,
    /** Who may shelve a Crítica alarm (ALARM_SHELVE_CRITICAL). */
    private readonly shelveCritical: ShelveCriticalAccess = 'write',
  ) {}

  /** Alarms of these devices raised in a range, oldest first (the reports). */
  raisedBetween(deviceIds: readonly string[], fromMs: number, toMs: number): Promise<AlarmRecord[]> {
    return this.repo.raisedBetween(deviceIds, fromMs, toMs);
  }

  /** Open alarms: highest priority first, then newest. */
  open(): Alarm[] {
    return this.engine
      .open()
      .sort((a, b) => a.priority - b.priority || b.raisedAtMs - a.raisedAtMs || (a.id < b.id ? 1 : -1))
      .map(toAlarm);
  }

  /** A page of alarms, newest first (open ones as the engine holds them now). */
  async page(q: AlarmQuery): Promise<AlarmRecord[]> {
    return (await this.repo.page(q)).map((a) => this.engine.openById(a.id) ?? a);
  }

  async get(id: string): Promise<{ alarm: AlarmRecord; transitions: AlarmTransition[] } | null> {
    const alarm = this.engine.openById(id) ?? (await this.repo.findById(id));
    return alarm ? { alarm, transitions: await this.repo.transitionsOf(id) } : null;
  }

  /**
   * The ISA-18.2 figures over the alarms raised in [from, to). The work grows with the alarms in
   * the range, never with its span: only the 10-minute windows that hold alarms are counted (a
   * Map), and the mean divides by the number of windows in the range, computed. A slot per window
   * made `from=0001-01-01&to=9999-12-31` allocate 500 million slots and kill the process.
   */
  async stats(range: { fromMs: number; toMs: number }, nowMs = Date.now(), deviceIds?: readonly string[]): Promise<AlarmStats> {
    const windows = Math.ceil((range.toMs - range.fromMs) / TEN_MINUTES_MS);
    const perWindow = new Map<number, number>();
    const byRule = new Map<string, { rule: Omit<RuleCount, 'count'>; times: number[] }>();
    let total = 0;
    let acked = 0;
    let ackSeconds = 0;
    // Only these devices' alarms (a site's, docs/sites.md); none at all when the list is empty.
    const batches = deviceIds?.length === 0 ? [] : this.batches({ fromMs: range.fromMs, toMs: range.toMs, ...(deviceIds ? { deviceIds } : {}) });
    for await (const batch of batches) {
      for (const a of batch) {
        total++;
        const window = Math.floor((a.raisedAtMs - range.fromMs) / TEN_MINUTES_MS);
        perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
        const entry = byRule.get(a.ruleId) ?? { rule: { deviceId: a.deviceId, ruleId: a.ruleId, kind: a.kind }, times: [] };
        entry.times.push(a.raisedAtMs);
        byRule.set(a.ruleId, entry);
        if (a.ackedAtMs !== null) {
          acked++;
          ackSeconds += (a.ackedAtMs - a.raisedAtMs) / 1000;
        }
      }
    }
    let max = 0;
    let floods = 0;
    for (const n of perWindow.values()) {
      if (n > max) max = n;
      if (n > FLOOD_OVER) floods++;
    }
    const counted = [...byRule.values()].map(({ rule, times }) => ({ ...rule, count: times.length, times: times.sort((x, y) => x - y) }));
    const chattering = counted
      .map(({ times, ...rule }) => ({ ...rule, count: mostWithin(times, CHATTER_WINDOW_MS) }))
      .filter((r) => r.count >= CHATTER_COUNT)
      .sort((a, b) => b.count - a.count);
    const top = counted
      .map(({ times: _t, ...rule }) => rule)
      .sort((a, b) => b.count - a.count || a.ruleId.localeCompare(b.ruleId))
      .slice(0, 10);
    const standing = this.engine.open().filter((a) => isAlarmOpen(a.state) && nowMs - a.raisedAtMs > STANDING_MS && (!deviceIds || deviceIds.includes(a.deviceId))).length;
    return {
      from: iso(range.fromMs),
      to: iso(range.toMs),
      total,
      perTenMinutes: { max, mean: total / windows },
      floods,
      top,
      chattering,
      standing,
      meanTimeToAckS: acked === 0 ? null : ackSeconds / acked,
    };
  }

  /**
   * The alarms of an export, newest first, in batches: 404 DEVICE_NOT_FOUND for an unknown device,
   * 404 NO_DATA when the range holds none (the export conventions of docs/api.md).
   */
  async planExport(range: MsRange, deviceIds: string[] | undefined, knows: (id: string) => boolean): Promise<AsyncIterable<AlarmRecord[]>> {
    for (const id of deviceIds ?? []) if (!knows(id)) throw notFound('DEVICE_NOT_FOUND');
    const q = { ...(range.fromMs !== undefined ? { fromMs: range.fromMs } : {}), ...(range.toMs !== undefined ? { toMs: range.toMs } : {}), ...(deviceIds ? { deviceIds } : {}) };
    if ((await this.repo.page({ ...q, limit: 1 })).length === 0) throw notFound('NO_DATA');
    return this.batches(q);
  }

  /** Alarms matching a query, newest first, EXPORT_BATCH at a time. */
  private async *batches(q: Omit<AlarmQuery, 'limit' | 'after'>): AsyncIterable<AlarmRecord[]> {
    let after: AlarmQuery['after'];
    for (;;) {
      const page = await this.page({ ...q, limit: EXPORT_BATCH, ...(after ? { after } : {}) });
      if (page.length > 0) yield page;
      if (page.length < EXPORT_BATCH) return;
      const last = page[page.length - 1]!;
      after = { raisedAtMs: last.raisedAtMs, id: last.id };
    }
  }

  async ack(id: string, comment: string | null, actor: Actor): Promise<Alarm> {
    const alarm = await this.engine.act({ op: 'ack', id, by: personOf(actor.user), comment });
    await this.record('alarm.acked', alarm, actor, { comment });
    return toAlarm(alarm);
  }

  /** Acknowledges each alarm that can be; the others are skipped (unknown, or not waiting for an ack). */
  async ackMany(ids: string[], comment: string | null, actor: Actor): Promise<{ acked: string[]; skipped: string[] }> {
    const acked: string[] = [];
    const skipped: string[] = [];
    for (const id of new Set(ids.slice(0, ALARM_ACK_MANY_MAX))) {
      try {
        await this.ack(id, comment, actor);
        acked.push(id);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        skipped.push(id);
      }
    }
    return { acked, skipped };
  }

  async shelve(id: string, minutes: number, comment: string, actor: Actor): Promise<Alarm> {
    await this.assertMayShelve(id, minutes, comment, actor);
    const alarm = await this.engine.act({ op: 'shelve', id, by: personOf(actor.user), minutes, comment });
    await this.record('alarm.shelved', alarm, actor, { minutes, comment });
    return toAlarm(alarm);
  }

  /**
   * Refuses (403 SHELVE_CRITICAL_FORBIDDEN, audited as denied) a user whom ALARM_SHELVE_CRITICAL
   * keeps from shelving this alarm. Judged on the open alarm as this instance holds it (every
   * instance keeps a replica); an unknown or closed one goes on to the engine's own answer.
   */
  private async assertMayShelve(id: string, minutes: number, comment: string, actor: Actor): Promise<void> {
    const alarm = this.engine.openById(id);
    if (!alarm || mayShelveAlarm(actor.user, alarm.priority, this.shelveCritical)) return;
    const code = 'SHELVE_CRITICAL_FORBIDDEN';
    await this.audit.record({
      action: 'alarm.shelved',
      userId: actor.user.id,
      username: actor.user.username,
      target: `alarm:${alarm.id}`,
      result: 'denied',
      ip: actor.ip,
      details: { code, deviceId: alarm.deviceId, kind: alarm.kind, priority: alarm.priority, state: alarm.state, minutes, comment },
    });
    throw forbidden(code);
  }

  async unshelve(id: string, actor: Actor): Promise<Alarm> {
    const alarm = await this.engine.act({ op: 'unshelve', id, by: personOf(actor.user) });
    await this.record('alarm.unshelved', alarm, actor);
    return toAlarm(alarm);
  }

  private record(action: 'alarm.acked' | 'alarm.shelved' | 'alarm.unshelved', alarm: AlarmRecord, actor: Actor, extra: Record<string, unknown> = {}) {
    return this.audit.record({
      action,
      userId: actor.user.id,
      username: actor.user.username,
      target: `alarm:${alarm.id}`,
      result: 'ok',
      ip: actor.ip,
      details: { deviceId: alarm.deviceId, kind: alarm.kind, state: alarm.state, ...extra },
    });
  }
}

/** `state` of a query: `open` is the four open states. */
export function statesOf(state: string | undefined): readonly AlarmState[] | undefined {
  if (state === undefined) return undefined;
  return state === 'open' ? OPEN_ALARM_STATES : [state as AlarmState];
}

/** The most sorted instants that fall within any window of that length. */
function mostWithin(sorted: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! > windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}
