import {
  eventAlarmMessage,
  isAlarmOpen,
  isNewerReading,
  isLevelSetpointKind,
  LEVEL_SETPOINT_KINDS,
  levelAlarmMessage,
  levelConditionHolds,
  levelThresholdsOf,
  nextAlarmState,
  riseAlarmMessage,
  riseRatePerMin,
  ALARM_RULE_LIMITS,
  type AlarmEvent,
  type Alarm,
  type AlarmRule,
  type Command,
  type Device,
  type Reading,
} from '@agua/shared';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, conflict, notFound } from '../../lib/errors';
import { StorageUnavailableError } from '../../storage/storage-health';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import { toReading } from '../devices/device.mapper';
import type { DeviceRecord, StoredReading } from '../devices/devices.repository';
import type { DevicesService } from '../devices/devices.service';
import { SOLO, type Placement } from '../../lib/placement';
import type { AlarmRulesService } from './alarm-rules.service';
import { fromAlarm, toAlarm, type AlarmChange, type AlarmRecord, type AlarmsRepository, type Person } from './alarms.repository';

/** A rule's condition: what the latest input says, and what the alarm follows (after the delays). */
interface Condition {
  /** The condition as the inputs say, with hysteresis but before the on/off delays. */
  target: boolean;
  /** The condition the alarm follows. */
  active: boolean;
  timer?: NodeJS.Timeout;
  value: number | string | null;
  /** The message of the latest input, written only when an alarm needs it (formatting costs). */
  describe: () => string;
}

interface Context {
  value: number | string | null;
  describe: () => string;
}

/** Level readings kept per device for the rate of rise (the longest window allowed). */
const MAX_LEVEL_SAMPLES = 2_000;

/** Work waiting for the next batch, and how to tell its caller. */
interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Where alarm changes are stored: a batch in one transaction (the storage's writer thread). */
export interface AlarmChangeStore {
  writeAll(changes: AlarmChange[]): Promise<void>;
}

/** A reading about to be stored, as the engine needs it. */
export type StageableReading = StoredReading & { deviceId: string; newestInMessage?: boolean };

const NOTHING_STAGED = { changes: [] as AlarmChange[], committed: () => undefined, failed: () => undefined };

/** Adds to each change, before it is stored, what it tells people (the notifications). */
export type AlarmNoticePlanner = (changes: AlarmChange[]) => void;

/** What a person does to an alarm; with several instances it runs where the alarm's device is decided for. */
export type AlarmAct =
  | { op: 'ack'; id: string; by: Person; comment: string | null }
  | { op: 'shelve'; id: string; by: Person; minutes: number; comment: string }
  | { op: 'unshelve'; id: string; by: Person };

/** Several instances: an act on an alarm goes to the instance that decides for its device (ADR 013). */
export interface AlarmRouter {
  /** The live instance that holds the device, when it is another one. */
  holderOf(deviceId: string): string | null;
  actOn(instance: string, act: AlarmAct): Promise<Alarm>;
}

/** Alarm changes per transaction, about: a flood's batches stay short (each change may carry several notifications). */
const MAX_CHANGES_PER_TRANSACTION = 100;

/** After a failed write the engine reloads from the storage and evaluates again after this long. */
const RECOVER_AFTER_MS = 5_000;

/** A shelving that ends while another instance runs its device's timers is looked at again this often (the device may move here). */
const SHELVE_RECHECK_MS = 5_000;

/**
 * The alarm engine (ALARMS.md): evaluates every current reading, every change of a device's
 * online state and every failed command against the device's rules, and moves alarms through
 * the ISA-18.2 states — by conditions, by people (acknowledge, shelve) and by time (delays,
 * shelving expiry). Inputs run one at a time, in arrival order, in memory; what arrived together
 * is stored in one transaction (alarm rows with their transition rows) and only then announced
 * as `alarm.updated` and answered — an fsync per batch, not per transition, so a flood of alarms
 * does not hold up the readings. If that transaction fails, every caller of the batch gets the
 * error and the engine reloads its memory from the storage. At start it loads the open alarms and
 * evaluates every device again from its stored current reading and online state, so that nothing
 * is raised twice and nothing is lost across a restart.
 */
export class AlarmEngine {
  /** The engine's working state: a rule's open alarm, ahead of the storage while a batch is being written. */
  private readonly openByRule = new Map<string, AlarmRecord>();
  /** Open alarms as stored: what readers see, so nothing is shown before it is committed. */
  private readonly storedOpen = new Map<string, AlarmRecord>();
  private readonly conditions = new Map<string, Condition>();
  private readonly levels = new Map<string, Array<{ tsMs: number; value: number }>>();
  private readonly shelveTimers = new Map<string, NodeJS.Timeout>();
  private readonly lastStatus = new Map<string, Device['status']>();
  /** The newest reading time evaluated per device, ahead of the devices' current reading while a commit is under way. */
  private readonly evaluatedTs = new Map<string, number>();
  private readonly offs: Array<() => void> = [];
  private pending: Job[] = [];
  private staged: AlarmChange[] = [];
  /** A drain is scheduled or running: later work joins its next batch. */
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private recoverTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Open alarms are loaded: readings may be evaluated (before, the start-up evaluation covers them). */
  private started = false;
  private planNotices: AlarmNoticePlanner = () => undefined;

  constructor(
    private readonly repo: AlarmsRepository,
    private readonly store: AlarmChangeStore,
    private readonly rules: AlarmRulesService,
    private readonly devices: DevicesService,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
    /**
     * Several instances: a device's alarms are evaluated, and their timers run, on the instance
     * that decides for the device; the others keep a replica from its announcements (`adoptRemote`).
     */
    private readonly placement: Placement = SOLO,
    /** Several instances: where an act on an alarm of a device held elsewhere goes; none when alone. */
    private readonly router: AlarmRouter | null = null,
  ) {}

  /**
   * Notifications are planned with each batch, so they are stored in its transaction. A setter:
   * the notifications feature plugs itself into the engine it reads from (the engine does not
   * know notifications exist), so it can only do so once the engine is built.
   */
  useNoticePlanner(planner: AlarmNoticePlanner): void {
    this.planNotices = planner;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.loadOpen();
    this.started = true;
    const quietly = (p: Promise<unknown>) => void p.catch(() => undefined);
    this.offs.push(
      this.bus.on('device.updated', (device) => quietly(this.submit(() => this.onDevice(device)))),
      this.bus.on('device.removed', ({ id }) => quietly(this.submit(() => this.suppressDevice(id)))),
      this.bus.on('command.updated', (command) => quietly(this.submit(() => this.onCommand(command)))),
      this.bus.on('alarm_rule.updated', ({ deviceId, rule }) => quietly(this.submit(() => this.ruleChanged(deviceId, rule)))),
    );
    await this.reevaluateAll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.started = false;
    for (const off of this.offs.splice(0)) off();
    this.clearTimers();
    clearTimeout(this.recoverTimer);
    await this.drained;
  }

  /** Open alarms from the storage; an active one's condition held when it was stored, a returned one's did not. */
  private async loadOpen(): Promise<void> {
    this.clearTimers();
    this.openByRule.clear();
    this.storedOpen.clear();
    this.conditions.clear();
    for (const alarm of await this.repo.listOpen()) {
      this.openByRule.set(alarm.ruleId, alarm);
      this.storedOpen.set(alarm.id, alarm);
      const held = alarm.state === 'unack' || alarm.state === 'ack' || (alarm.state === 'shelved' && alarm.clearedAtMs === null);
      this.conditions.set(alarm.ruleId, { target: held, active: held, value: alarm.value, describe: () => alarm.message });
      if (alarm.state === 'shelved') this.scheduleUnshelve(alarm);
    }
  }

  private async reevaluateAll(): Promise<void> {
    this.lastStatus.clear();
    await Promise.all(this.devices.list().map((device) => this.submit(() => this.reevaluate(device.id))));
  }

  private clearTimers(): void {
    for (const c of this.conditions.values()) clearTimeout(c.timer);
    for (const t of this.shelveTimers.values()) clearTimeout(t);
    this.shelveTimers.clear();
  }

  /** The open alarms (`unack`, `ack`, `rtn_unack`, `shelved`) as stored. */
  open(): AlarmRecord[] {
    return [...this.storedOpen.values()];
  }

  /** An open alarm as stored (with the peak seen since), else null. */
  openById(id: string): AlarmRecord | null {
    return this.storedOpen.get(id) ?? null;
  }

  /** An open alarm in the working state (it may not be stored yet). */
  private working(id: string): AlarmRecord | null {
    for (const a of this.openByRule.values()) if (a.id === id) return a;
    return null;
  }

  /**
   * Evaluates readings about to be stored (TelemetryService, before its commit) and returns the
   * alarm changes they cause, to be written in the same transaction: a reading and its alarm are
   * stored together or not at all. The newest reading of each message or batch is evaluated when
   * it moves its device's current reading forward (as the writer decides; a duplicate repeats a
   * reading already evaluated), in arrival order. Announced once committed; a failed commit reloads the engine from the storage.
   */
  stageReadings(items: StageableReading[]): { changes: AlarmChange[]; committed: () => void; failed: (err: unknown) => void } {
    if (!this.started || this.stopped) return NOTHING_STAGED;
    // Engine work stages changes only inside a drain's synchronous part: nothing is staged now.
    const before = this.staged.length;
    for (const r of items) {
      if (!r.newestInMessage || !isNewerReading(this.evaluatedTsOf(r.deviceId), r.tsMs)) continue;
      this.evaluatedTs.set(r.deviceId, r.tsMs);
      this.onReading(r.deviceId, toReading(r));
    }
    const changes = this.staged.splice(before);
    if (changes.length > 0) this.planNotices(changes);
    return {
      changes,
      committed: () => this.announce(changes),
      failed: (err) => {
        if (changes.length === 0) return;
        this.log.error({ err, changes: changes.length }, 'readings and their alarm changes were not stored; reloading alarms from the storage');
        void this.recover();
      },
    };
  }

  /**
   * A device is being purged: its open alarms end as suppressed (announced, so screens drop them),
   * then every alarm of it is deleted — a new device with the same id starts with none.
   */
  async purgeDevice(deviceId: string): Promise<void> {
    await this.submit(() => this.suppressDevice(deviceId, true));
    await this.repo.deleteByDevice(deviceId);
  }

  /** A rule was edited: disabled → its open alarm is suppressed; otherwise evaluated again. */
  private ruleChanged(deviceId: string, rule: AlarmRule): void {
    if (!this.placement.runsTimersOf(deviceId)) return;
    if (!rule.enabled) {
      const open = this.openByRule.get(rule.id);
      if (open) this.transition(open, 'suppress', null, null);
      this.resetCondition(rule.id);
      return;
    }
    this.reevaluate(deviceId);
  }

  /**
   * An act on an alarm: here, or on the instance that decides for its device — one place moves a
   * device's alarms, so an acknowledgement never races the owner's own transitions. `routed`: this
   * call came from another instance.
   */
  act(act: AlarmAct, routed = false): Promise<AlarmRecord> {
    const deviceId = this.storedOpen.get(act.id)?.deviceId ?? this.working(act.id)?.deviceId;
    const holder = routed || deviceId === undefined ? null : (this.router?.holderOf(deviceId) ?? null);
    if (holder !== null) return this.router!.actOn(holder, act).then(fromAlarm);
    if (act.op === 'ack') return this.ack(act.id, act.by, act.comment);
    if (act.op === 'shelve') return this.shelve(act.id, act.by, act.minutes, act.comment);
    return this.unshelve(act.id, act.by);
  }

  /** A person acknowledges an alarm (write permission is checked by the route). */
  private async ack(id: string, by: Person, comment: string | null): Promise<AlarmRecord> {
    await this.assertKnown(id, 'ALARM_NOT_ACKABLE');
    return this.submit(() => {
      const alarm = this.working(id);
      if (!alarm || !nextAlarmState(alarm.state, 'ack')) throw conflict('ALARM_NOT_ACKABLE');
      return this.transition(alarm, 'ack', by, comment, { ackedAtMs: Date.now(), ackedBy: by, ackComment: comment });
    });
  }

  /** Shelves an open alarm until `minutes` from now. */
  private async shelve(id: string, by: Person, minutes: number, comment: string): Promise<AlarmRecord> {
    await this.assertKnown(id, 'ALARM_NOT_SHELVABLE');
    return this.submit(() => {
      const alarm = this.working(id);
      if (!alarm || !nextAlarmState(alarm.state, 'shelve')) throw conflict('ALARM_NOT_SHELVABLE');
      const until = Date.now() + minutes * 60_000;
      const shelved = this.transition(alarm, 'shelve', by, comment, { shelvedUntilMs: until, shelvedBy: by, shelveComment: comment });
      this.scheduleUnshelve(shelved);
      return shelved;
    });
  }

  /** Ends shelving now: the alarm returns to what its condition says. */
  private async unshelve(id: string, by: Person): Promise<AlarmRecord> {
    await this.assertKnown(id, 'ALARM_NOT_SHELVED');
    return this.submit(() => {
      const alarm = this.working(id);
      if (alarm?.state !== 'shelved') throw conflict('ALARM_NOT_SHELVED');
      return this.endShelving(alarm, by);
    });
  }

  // --- several instances ------------------------------------------------------------------

  /** An alarm change another instance stored and announced: this instance's replica follows it. */
  adoptRemote(alarm: Alarm): Promise<void> {
    return this.submit(() => this.follow(fromAlarm(alarm)));
  }

  private follow(alarm: AlarmRecord): void {
    if (isAlarmOpen(alarm.state)) {
      this.openByRule.set(alarm.ruleId, alarm);
      this.storedOpen.set(alarm.id, alarm);
      if (alarm.state === 'shelved') this.scheduleUnshelve(alarm);
    } else {
      if (this.openByRule.get(alarm.ruleId)?.id === alarm.id) this.openByRule.delete(alarm.ruleId);
      this.storedOpen.delete(alarm.id);
    }
    if (alarm.state !== 'shelved') {
      clearTimeout(this.shelveTimers.get(alarm.id));
      this.shelveTimers.delete(alarm.id);
    }
  }

  /**
   * This instance now decides for the device: its rules' conditions start from its open alarms
   * (as announced by the instance that decided before), then it is evaluated from its current state.
   */
  adoptDevice(deviceId: string): Promise<void> {
    return this.submit(() => {
      for (const rule of this.rules.rulesFor(deviceId)) {
        this.resetCondition(rule.id);
        const open = this.openByRule.get(rule.id);
        if (!open) continue;
        const held = open.state === 'unack' || open.state === 'ack' || (open.state === 'shelved' && open.clearedAtMs === null);
        this.conditions.set(rule.id, { target: held, active: held, value: open.value, describe: () => open.message });
      }
      this.evaluatedTs.delete(deviceId);
      this.reevaluate(deviceId);
    });
  }

  /** The open alarms of devices decided elsewhere, as stored (announcements were lost while Redis was away). */
  async reloadReplica(): Promise<void> {
    const stored = await this.repo.listOpen();
    await this.submit(() => {
      const elsewhere = (deviceId: string) => !this.placement.runsTimersOf(deviceId);
      for (const alarm of [...this.storedOpen.values()]) if (elsewhere(alarm.deviceId)) this.follow({ ...alarm, state: 'cleared' });
      for (const alarm of stored) if (elsewhere(alarm.deviceId)) this.follow(alarm);
    });
  }

  // --- inputs -------------------------------------------------------------------------------

  private onReading(deviceId: string, reading: Reading): void {
    const device = this.evaluable(deviceId);
    if (!device) return;
    const tsMs = Date.parse(reading.ts);
    if (device.type === 'motorized_gate') {
      if (typeof reading.value === 'string') {
        this.input(device, 'gate_fault', reading.value === 'falla', { value: reading.value, describe: () => eventAlarmMessage('gate_fault') });
      }
      return;
    }
    if (typeof reading.value !== 'number' || reading.status === 'fault') return; // a broken sensor is not a full tank
    const value = reading.value;
    const { maxLevel } = levelThresholdsOf(device.settings);
    this.rememberLevel(deviceId, tsMs, value);
    for (const rule of this.rules.rulesFor(deviceId)) {
      if (!rule.enabled) continue;
      const { kind } = rule;
      if (isLevelSetpointKind(kind)) {
        const was = this.conditions.get(rule.id)?.target ?? false;
        const holds = levelConditionHolds(kind, rule, value, maxLevel, was);
        this.input(device, kind, holds, { value, describe: () => levelAlarmMessage(kind, value, maxLevel) });
      } else if (rule.kind === 'rate_of_rise') {
        const rate = riseRatePerMin(this.levels.get(deviceId) ?? [], rule.windowS ?? ALARM_RULE_LIMITS.windowMinS, tsMs);
        if (rate === null) continue; // not enough of the window yet: no judgement either way
        const limit = rule.ratePerMin ?? 0;
        this.input(device, 'rate_of_rise', rate > limit, { value, describe: () => riseAlarmMessage(rate, limit) });
      }
    }
  }

  private onDevice(device: Device): void {
    const previous = this.lastStatus.get(device.id);
    this.lastStatus.set(device.id, device.status);
    if (!device.enabled) {
      this.suppressDevice(device.id);
      return;
    }
    if (previous === device.status) return;
    const record = this.evaluable(device.id);
    // A device never heard since it was created raises none (ALARMS.md).
    if (record) this.input(record, 'device_offline', device.status === 'offline' && device.lastSeen !== null, { value: null, describe: () => eventAlarmMessage('device_offline') });
  }

  private onCommand(command: Command): void {
    if (command.status !== 'failed' && command.status !== 'timed_out') return;
    const device = this.evaluable(command.deviceId);
    const rule = device && this.ruleOf(device.id, 'command_failed');
    if (!device || !rule) return;
    const message = eventAlarmMessage('command_failed', { command: command.command, status: command.status, text: command.message });
    this.raiseEvent(device, rule, { value: command.command, describe: () => message });
  }

  /** Every open alarm of a disabled or retired device ends as suppressed (by the instance that decides for it, or the one purging it); nothing new is raised. */
  private suppressDevice(deviceId: string, purging = false): void {
    if (!purging && !this.placement.runsTimersOf(deviceId)) return;
    for (const alarm of [...this.openByRule.values()]) {
      if (alarm.deviceId !== deviceId) continue;
      this.transition(alarm, 'suppress', null, null);
    }
    for (const rule of this.rules.rulesFor(deviceId)) this.resetCondition(rule.id);
    this.levels.delete(deviceId);
  }

  private reevaluate(deviceId: string): void {
    const api = this.devices.getApi(deviceId);
    if (!api) return;
    if (!api.enabled) return this.suppressDevice(deviceId);
    this.lastStatus.delete(deviceId);
    this.onDevice(api);
    if (api.reading) this.onReading(deviceId, api.reading);
  }

  // --- conditions ---------------------------------------------------------------------------

  /** A condition input for a rule of the device: applied now, or after the rule's on/off delay. */
  private input(device: DeviceRecord, kind: AlarmRule['kind'], holds: boolean, ctx: Context): void {
    const rule = this.ruleOf(device.id, kind);
    if (!rule) return;
    const c = this.conditionOf(rule.id);
    c.value = ctx.value;
    c.describe = ctx.describe;
    if (holds) this.trackPeak(rule, ctx.value);
    if (c.target === holds) return;
    c.target = holds;
    clearTimeout(c.timer);
    c.timer = undefined;
    const delayS = holds ? rule.onDelayS : rule.offDelayS;
    if (delayS === 0) return this.apply(device.id, rule, holds);
    c.timer = setTimeout(() => {
      c.timer = undefined;
      // The rule as it is when the delay ends (it may have been edited meanwhile).
      void this.submit(() => this.apply(device.id, this.ruleOf(device.id, kind) ?? rule, holds)).catch(() => undefined);
    }, delayS * 1000);
    c.timer.unref();
  }

  /** The condition, past its delay, moves the rule's alarm. */
  private apply(deviceId: string, rule: AlarmRule, holds: boolean): void {
    if (this.stopped || !this.evaluable(deviceId) || !rule.enabled) return;
    const c = this.conditionOf(rule.id);
    const open = this.openByRule.get(rule.id);
    if (holds) {
      if (!open) this.raise(deviceId, rule, c);
      else if (open.state === 'rtn_unack') this.transition(open, 'condition_on', null, null, { clearedAtMs: null, value: c.value, message: c.describe() });
    } else if (open && open.state !== 'shelved') {
      this.transition(open, 'condition_off', null, null, { clearedAtMs: Date.now() });
    } else if (open) {
      // Shelved: it stays hidden; when shelving ends, the condition decides where it goes.
      open.clearedAtMs = Date.now();
    }
    c.active = holds;
  }

  /** An event alarm (a failed command): raised, and back to normal at once; it still needs an ack. */
  private raiseEvent(device: DeviceRecord, rule: AlarmRule, ctx: Context): void {
    const open = this.openByRule.get(rule.id);
    if (open?.state === 'shelved') {
      Object.assign(open, { value: ctx.value, message: ctx.describe() });
      return;
    }
    const c = this.conditionOf(rule.id);
    Object.assign(c, ctx);
    const raised = open ? this.transition(open, 'condition_on', null, null, { clearedAtMs: null, value: ctx.value, message: ctx.describe() }) : this.raise(device.id, rule, c);
    this.transition(raised, 'condition_off', null, null, { clearedAtMs: Date.now() });
  }

  private raise(deviceId: string, rule: AlarmRule, c: Condition): AlarmRecord {
    const now = Date.now();
    const alarm: AlarmRecord = {
      id: newId('alm'),
      deviceId,
      ruleId: rule.id,
      kind: rule.kind,
      priority: rule.priority,
      state: 'unack',
      raisedAtMs: now,
      ackedAtMs: null,
      ackedBy: null,
      ackComment: null,
      clearedAtMs: null,
      shelvedUntilMs: null,
      shelvedBy: null,
      shelveComment: null,
      value: c.value,
      peakValue: typeof c.value === 'number' ? c.value : null,
      message: c.describe(),
      endedAtMs: null,
    };
    this.staged.push({ alarm, transition: { atMs: now, from: null, to: 'unack', by: null, comment: null }, isNew: true });
    this.openByRule.set(rule.id, alarm);
    return alarm;
  }

  /** Moves an alarm by an event; stores it with its transition, then announces it. */
  private transition(alarm: AlarmRecord, event: AlarmEvent, by: Person | null, comment: string | null, changes: Partial<AlarmRecord> = {}): AlarmRecord {
    const to = nextAlarmState(alarm.state, event);
    if (!to) return alarm;
    const now = Date.now();
    const next: AlarmRecord = { ...alarm, ...changes, state: to, endedAtMs: isAlarmOpen(to) ? null : now };
    if (to !== 'shelved') Object.assign(next, { shelvedUntilMs: alarm.state === 'shelved' ? null : next.shelvedUntilMs });
    this.staged.push({ alarm: next, transition: { atMs: now, from: alarm.state, to, by, comment }, isNew: false });
    if (isAlarmOpen(to)) this.openByRule.set(alarm.ruleId, next);
    else {
      if (this.openByRule.get(alarm.ruleId)?.id === alarm.id) this.openByRule.delete(alarm.ruleId);
      clearTimeout(this.shelveTimers.get(alarm.id));
      this.shelveTimers.delete(alarm.id);
    }
    return next;
  }

  private endShelving(alarm: AlarmRecord, by: Person | null): AlarmRecord {
    clearTimeout(this.shelveTimers.get(alarm.id));
    this.shelveTimers.delete(alarm.id);
    const active = this.conditions.get(alarm.ruleId)?.active ?? false;
    const c = this.conditions.get(alarm.ruleId);
    return this.transition(alarm, active ? 'unshelve_active' : 'unshelve_inactive', by, null, active && c ? { value: c.value, message: c.describe(), clearedAtMs: null } : {});
  }

  private scheduleUnshelve(alarm: AlarmRecord): void {
    clearTimeout(this.shelveTimers.get(alarm.id));
    const delay = Math.max(0, (alarm.shelvedUntilMs ?? 0) - Date.now());
    const timer = setTimeout(() => {
      if (!this.placement.runsTimersOf(alarm.deviceId)) {
        this.shelveTimers.set(alarm.id, setTimeout(() => this.scheduleUnshelve(alarm), SHELVE_RECHECK_MS).unref());
        return;
      }
      void this.submit(() => {
        const current = this.working(alarm.id);
        if (current?.state === 'shelved') this.endShelving(current, null);
      }).catch(() => undefined);
    }, Math.min(delay, 2 ** 31 - 1));
    timer.unref();
    this.shelveTimers.set(alarm.id, timer);
  }

  // --- helpers ------------------------------------------------------------------------------

  /**
   * Runs engine work in arrival order; whatever arrives while a batch is being stored runs in the
   * next one. Resolves once the work's changes are stored (and announced).
   */
  private submit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (this.draining) return;
      this.draining = true;
      // After the current turn's synchronous work: everything submitted in it forms one batch.
      queueMicrotask(() => (this.drained = this.drain()));
    });
  }

  private async drain(): Promise<void> {
    try {
      await this.drainBatches();
    } finally {
      this.draining = false;
    }
  }

  private async drainBatches(): Promise<void> {
    while (this.pending.length > 0) {
      // Jobs in order until the batch holds enough changes: a flood is stored in several short
      // transactions, between which the writer commits the readings waiting for it.
      const jobs: Job[] = [];
      const results: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
      while (this.pending.length > 0 && this.staged.length < MAX_CHANGES_PER_TRANSACTION) {
        const job = this.pending.shift()!;
        jobs.push(job);
        try {
          results.push({ ok: true, value: job.work() });
        } catch (err) {
          results.push({ ok: false, err });
        }
      }
      const staged = this.staged;
      this.staged = [];
      try {
        if (staged.length > 0) {
          this.planNotices(staged);
          await this.store.writeAll(staged);
        }
      } catch (err) {
        this.log.error({ err, changes: staged.length }, 'storing alarm changes failed; reloading alarms from the storage');
        for (const job of jobs) job.reject(err);
        await this.recover();
        continue;
      }
      this.announce(staged);
      jobs.forEach((job, i) => {
        const r = results[i]!;
        if (r.ok) job.resolve(r.value);
        else {
          if (!(r.err instanceof AppError)) this.log.error({ err: r.err }, 'alarm evaluation failed');
          job.reject(r.err);
        }
      });
    }
  }

  /** Stored changes become what readers see, and are announced. */
  private announce(changes: AlarmChange[]): void {
    for (const { alarm } of changes) {
      if (isAlarmOpen(alarm.state)) this.storedOpen.set(alarm.id, alarm);
      else this.storedOpen.delete(alarm.id);
      this.bus.emit('alarm.updated', toAlarm(alarm));
    }
  }

  private evaluatedTsOf(deviceId: string): number | undefined {
    const known = this.evaluatedTs.get(deviceId);
    if (known !== undefined) return known;
    const current = this.devices.getApi(deviceId)?.reading;
    return current ? Date.parse(current.ts) : undefined;
  }

  /** Memory back in step with the storage after a failed write; evaluated again a little later. */
  private async recover(): Promise<void> {
    this.evaluatedTs.clear();
    this.pending.splice(0).forEach((job) => job.reject(new StorageUnavailableError('alarm storage failed')));
    await this.loadOpen().catch((err: unknown) => this.log.error({ err }, 'reloading alarms failed'));
    clearTimeout(this.recoverTimer);
    this.recoverTimer = setTimeout(() => void this.reevaluateAll().catch(() => undefined), RECOVER_AFTER_MS);
    this.recoverTimer.unref();
  }

  /** 404 for an id that is not an alarm; for one that is over, the caller's 409. */
  private async assertKnown(id: string, overCode: 'ALARM_NOT_ACKABLE' | 'ALARM_NOT_SHELVABLE' | 'ALARM_NOT_SHELVED'): Promise<void> {
    if (this.working(id)) return;
    if (!(await this.repo.findById(id))) throw notFound('ALARM_NOT_FOUND');
    throw conflict(overCode);
  }

  /** The device if its alarms are evaluated here: known, enabled, not retired, and decided for by this instance. */
  private evaluable(deviceId: string): DeviceRecord | null {
    const device = this.devices.get(deviceId);
    return device && device.enabled && device.retiredAtMs === null && this.placement.runsTimersOf(deviceId) ? device : null;
  }

  private ruleOf(deviceId: string, kind: AlarmRule['kind']): AlarmRule | undefined {
    return this.rules.rulesFor(deviceId).find((r) => r.kind === kind && r.enabled);
  }

  private conditionOf(ruleId: string): Condition {
    let c = this.conditions.get(ruleId);
    if (!c) {
      c = { target: false, active: false, value: null, describe: () => '' };
      this.conditions.set(ruleId, c);
    }
    return c;
  }

  private resetCondition(ruleId: string): void {
    clearTimeout(this.conditions.get(ruleId)?.timer);
    this.conditions.delete(ruleId);
  }

  private trackPeak(rule: AlarmRule, value: number | string | null): void {
    const open = this.openByRule.get(rule.id);
    if (!open || typeof value !== 'number') return;
    const low = isLevelSetpointKind(rule.kind) && LEVEL_SETPOINT_KINDS[rule.kind] === 'below';
    if (open.peakValue === null || (low ? value < open.peakValue : value > open.peakValue)) open.peakValue = value;
  }

  private rememberLevel(deviceId: string, tsMs: number, value: number): void {
    let list = this.levels.get(deviceId);
    if (!list) {
      list = [];
      this.levels.set(deviceId, list);
    }
    list.push({ tsMs, value });
    const oldest = tsMs - ALARM_RULE_LIMITS.windowMaxS * 1000;
    while (list.length > MAX_LEVEL_SAMPLES || (list.length > 0 && list[0]!.tsMs < oldest)) list.shift();
  }
}
