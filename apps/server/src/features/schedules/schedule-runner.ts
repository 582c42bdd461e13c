import { SCHEDULE_LIMITS, SCHEDULE_REASONS, scheduleSkippedMessage, type ScheduleTrigger } from '@agua/shared';
import type { Kysely } from 'kysely';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import type { Placement } from '../../lib/placement';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import type { ScheduledIssue } from '../commands/commands.service';
import { occurrencesBetween } from './schedule-times';
import { toScheduleRun, type RunRecord, type ScheduleRecord, type SchedulesRepository } from './schedules.repository';

export interface ScheduleRunnerDeps {
  repo: SchedulesRepository;
  bus: EventBus;
  audit: AuditService;
  /** Which gates' schedules this instance runs (the ones whose timers it runs); all when alone. */
  placement: Placement;
  /** Issues through the one command path; `claim` stores the run in the command's transaction. */
  issue(deviceId: string, command: string, scheduleId: string, claim: (db: Kysely<Database>, commandId: string) => Promise<boolean>): Promise<ScheduledIssue>;
  /** Raises the `schedule_skipped` alarm on the gate. */
  raiseSkipped(deviceId: string, schedule: { id: string; priority: 1 | 2 | 3 | 4 }, message: string): Promise<void>;
  /** A schedule's time was dealt with (run, skipped or missed): its next run is another. */
  ran(schedule: ScheduleRecord): void;
  now?: () => number;
}

/**
 * Runs gate schedules (docs/control.md "Schedules"), every second: each run through the command
 * path at most SCHEDULE_LIMITS.catchUpMs late, exactly once whatever the instances and restarts
 * ((schedule, trigger, planned time) is unique, claimed with its command). Times missed while the
 * server was off are recorded `missed` (the last 24 h); a planned close-after is never missed.
 */
export class ScheduleRunner {
  private readonly now: () => number;
  /** Per schedule, the latest planned time known to have a run: nothing at or before it is looked up again. */
  private readonly settled = new Map<string, number>();

  constructor(private readonly d: ScheduleRunnerDeps) {
    this.now = d.now ?? Date.now;
  }

  async tick(): Promise<void> {
    const now = this.now();
    for (const s of await this.d.repo.list()) {
      if (!s.enabled || !this.d.placement.runsTimersOf(s.deviceId)) continue;
      await this.runDue(s, now);
    }
    for (const close of await this.d.repo.pending({ dueBy: now })) {
      if (this.d.placement.runsTimersOf(close.deviceId)) await this.closeAfter(close);
    }
  }

  /** The schedule's own times due since it was last looked at: issued, or missed when too old. */
  private async runDue(s: ScheduleRecord, now: number): Promise<void> {
    const windowStart = Math.max(s.activeSinceMs, now - SCHEDULE_LIMITS.missedLookbackMs, s.suspendedUntilMs ?? 0, this.settled.get(s.id) ?? 0);
    const due = occurrencesBetween(s, windowStart, now);
    if (due.length === 0) return;
    const done = new Set(await this.d.repo.plannedSince(s.id, 'time', due[0]!));
    let acted = false;
    for (const at of due) {
      if (!done.has(at)) {
        if (now - at <= SCHEDULE_LIMITS.catchUpMs) await this.run(s, 'time', at, null);
        else await this.skip(this.newRun(s, 'time', at, s.action), { code: 'MISSED', message: SCHEDULE_REASONS.MISSED }, s, 'missed');
        acted = true;
      }
      this.settled.set(s.id, at);
    }
    if (acted) this.d.ran(s);
  }

  private async closeAfter(close: RunRecord): Promise<void> {
    const s = await this.d.repo.find(close.scheduleId);
    // Deleting a schedule cancels its close-after; one left by a deletion cut short goes unrun.
    if (!s) {
      const gone: RunRecord = { ...close, status: 'cancelled', ranAtMs: this.now(), reason: { code: 'CANCELLED', message: SCHEDULE_REASONS.DELETED } };
      if (await this.d.repo.settlePending(gone)) this.d.bus.emit('schedule.run', toScheduleRun(gone));
      return;
    }
    await this.run(s, 'duration', close.plannedAtMs, close);
  }

  /**
   * One run: the command issued with the run claimed in its transaction (and, for an `abrir` with
   * a duration, its close-after planned there too), or the run skipped with the refusal's words.
   */
  private async run(s: ScheduleRecord, trigger: ScheduleTrigger, at: number, pending: RunRecord | null): Promise<void> {
    const action = trigger === 'duration' ? 'cerrar' : s.action;
    const deviceId = pending?.deviceId ?? s.deviceId;
    const run = pending ?? this.newRun(s, trigger, at, action);
    let closing: RunRecord | null = null;
    const result = await this.d.issue(deviceId, action, s.id, async (db, commandId) => {
      const issued: RunRecord = { ...run, status: 'issued', ranAtMs: this.now(), commandId };
      const claimed = pending ? await this.d.repo.settlePending(issued, db) : await this.d.repo.claim(issued, db);
      if (!claimed) return false;
      Object.assign(run, issued);
      if (trigger === 'time' && s.action === 'abrir' && s.durationMin !== null) {
        closing = { ...this.newRun(s, 'duration', at + s.durationMin * 60_000, 'cerrar'), status: 'pending' };
        await this.d.repo.claim(closing, db);
      }
      return true;
    });
    if (result.sent) {
      this.d.bus.emit('schedule.run', toScheduleRun(run));
      if (closing) this.d.bus.emit('schedule.run', toScheduleRun(closing));
      return;
    }
    if (result.reason) await this.skip(run, result.reason, s, 'skipped', pending !== null);
  }

  /** A run that did not go: stored once (skipped or missed), shown, audited and alarmed on the gate. */
  private async skip(run: RunRecord, reason: { code: string; message: string }, s: ScheduleRecord, status: 'skipped' | 'missed', wasPending = false): Promise<void> {
    const final: RunRecord = { ...run, status, ranAtMs: status === 'skipped' ? this.now() : null, reason };
    const claimed = wasPending ? await this.d.repo.settlePending(final) : await this.d.repo.claim(final);
    if (!claimed) return;
    this.d.bus.emit('schedule.run', toScheduleRun(final));
    await this.d.audit.record({
      action: 'command.refused',
      userId: null,
      username: null,
      target: `device:${run.deviceId}`,
      result: 'denied',
      ip: null,
      details: { command: run.action, code: reason.code, scheduleId: run.scheduleId, trigger: run.trigger, plannedAt: new Date(run.plannedAtMs).toISOString() },
    });
    await this.d.raiseSkipped(run.deviceId, { id: run.scheduleId, priority: s.alarmPriority }, scheduleSkippedMessage(run.scheduleName, reason.message));
  }

  private newRun(s: ScheduleRecord, trigger: ScheduleTrigger, at: number, action: 'abrir' | 'cerrar'): RunRecord {
    return { id: newId('run'), scheduleId: s.id, scheduleName: s.name, deviceId: s.deviceId, action, trigger, plannedAtMs: at, ranAtMs: null, status: 'pending', commandId: null, reason: null };
  }
}
