import {
  eventAlarmMessage,
  isAlarmOpen,
  isNewerReading,
  nextAlarmState,
  type AlarmEvent,
  type Alarm,
  type AlarmPriority,
  type AlarmRule,
  type Command,
  type Device,
} from '@agua/shared';
import type { FastifyBaseLogger } from 'fastify';
import { conflict, notFound } from '../../lib/errors';
import { StorageUnavailableError } from '../../storage/storage-health';
import type { EventBus } from '../../lib/event-bus';
import type { DeviceRecord, StoredReading } from '../devices/devices.repository';
import type { DevicesService } from '../devices/devices.service';
import { SOLO, type Placement } from '../../lib/placement';
import { AlarmBatcher, type AlarmChangeStore } from './alarm-batcher';
import {
  apiForEvaluation,
  heldWhenStored,
  LevelHistory,
  movedAlarm,
  peakAfter,
  raisedAlarm,
  readingInputs,
  storedForEvaluation,
  NO_WATER,
  waterInputs,
  watchesWater,
  type ConditionInput,
  type EvaluatedReading,
  type WaterAlarmSource,
} from './alarm-evaluation';
import { AlarmReplica } from './alarm-replica';
import type { AlarmRulesService } from './alarm-rules.service';
import { AlarmTimers } from './alarm-timers';
import { fromAlarm, toAlarm, type AlarmChange, type AlarmRecord, type AlarmsRepository, type Person } from './alarms.repository';
import { OpenAlarms } from './open-alarms';

export type { AlarmChangeStore } from './alarm-batcher';
export type { WaterAlarmSource } from './alarm-evaluation';

/** A rule's condition: what the latest input says, and what the alarm follows (after the delays). */
interface Condition {
  /** The condition as the inputs say, with hysteresis but before the on/off delays. */
  target: boolean;
  /** The condition the alarm follows. */
  active: boolean;
  value: number | string | null;
  /** The message of the latest input, written only when an alarm needs it (formatting costs). */
  describe: () => string;
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

/** After a failed write the engine reloads from the storage and evaluates again after this long. */
const RECOVER_AFTER_MS = 5_000;

/**
 * The alarm engine (docs/decisions/009-alarm-engine.md): evaluates every current reading, every
 * change of a device's online state and every failed command against the device's rules, and
 * moves alarms through the ISA-18.2 states — by conditions, by people (acknowledge, shelve) and
 * by time (delays, shelving expiry). Its parts: what a reading or an event decides
 * (`alarm-evaluation.ts`), the clocks (`alarm-timers.ts`), the replica of alarms decided on
 * another instance (`alarm-replica.ts`) and the queue that stores what arrived together in one
 * transaction before announcing it (`alarm-batcher.ts`). If that transaction fails, every caller
 * of the batch gets the error and the engine reloads its memory from the storage. At start it
 * loads the open alarms and evaluates every device again from its stored current reading and
 * online state, so that nothing is raised twice and nothing is lost across a restart.
 */
export class AlarmEngine {
  private readonly alarms = new OpenAlarms();
  private readonly conditions = new Map<string, Condition>();
  private readonly levels = new LevelHistory();
  private readonly timers: AlarmTimers;
  private readonly replica: AlarmReplica;
  private readonly batcher: AlarmBatcher;
  private readonly lastStatus = new Map<string, Device['status']>();
  /** The newest reading time evaluated per device, ahead of the devices' current reading while a commit is under way. */
  private readonly evaluatedTs = new Map<string, number>();
  private readonly offs: Array<() => void> = [];
  private recoverTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Open alarms are loaded: readings may be evaluated (before, the start-up evaluation covers them). */
  private started = false;
  private planNotices: AlarmNoticePlanner = () => undefined;
  /** A rule's condition as the inputs last said (made once: it is asked for every reading). */
  private readonly heldBefore = (ruleId: string): boolean => this.conditions.get(ruleId)?.target ?? false;

  constructor(
    private readonly repo: AlarmsRepository,
    store: AlarmChangeStore,
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
    /** A level sensor's time to overflow and open spills (the water feature's, given at composition). */
    private readonly water: WaterAlarmSource = NO_WATER,
  ) {
    const runsTimersOf = (deviceId: string) => placement.runsTimersOf(deviceId);
    this.timers = new AlarmTimers(runsTimersOf);
    this.replica = new AlarmReplica(this.alarms, this.timers, (alarm) => this.scheduleUnshelve(alarm), runsTimersOf);
    this.batcher = new AlarmBatcher({
      store,
      planNotices: (changes) => this.planNotices(changes),
      announce: (changes) => this.announce(changes),
      recover: () => this.recover(),
      log,
    });
  }

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
      // Only devices with a water rule on are looked at: the others' readings cost nothing more here.
      this.water.onChange((deviceId) => {
        if (watchesWater(this.rules.rulesFor(deviceId))) quietly(this.submit(() => this.onWater(deviceId)));
      }),
    );
    await this.reevaluateAll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.started = false;
    for (const off of this.offs.splice(0)) off();
    this.timers.clear();
    clearTimeout(this.recoverTimer);
    await this.batcher.idle();
  }

  /** Open alarms from the storage; an active one's condition held when it was stored, a returned one's did not. */
  private async loadOpen(): Promise<void> {
    this.timers.clear();
    this.alarms.clear();
    this.conditions.clear();
    for (const alarm of await this.repo.listOpen()) {
      this.alarms.follow(alarm);
      const held = heldWhenStored(alarm);
      this.conditions.set(alarm.ruleId, { target: held, active: held, value: alarm.value, describe: () => alarm.message });
      if (alarm.state === 'shelved') this.scheduleUnshelve(alarm);
    }
  }

  private async reevaluateAll(): Promise<void> {
    this.lastStatus.clear();
    await Promise.all(this.devices.list().map((device) => this.submit(() => this.reevaluate(device.id))));
  }

  /** The open alarms (`unack`, `ack`, `rtn_unack`, `shelved`) as stored. */
  open(): AlarmRecord[] {
    return this.alarms.storedList();
  }

  /** An open alarm as stored (with the peak seen since), else null. */
  openById(id: string): AlarmRecord | null {
    return this.alarms.storedById(id);
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
    const before = this.batcher.mark();
    for (const r of items) {
      if (!r.newestInMessage || !isNewerReading(this.evaluatedTsOf(r.deviceId), r.tsMs)) continue;
      this.evaluatedTs.set(r.deviceId, r.tsMs);
      this.onReading(r.deviceId, storedForEvaluation(r));
    }
    const changes = this.batcher.takeSince(before);
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
      const open = this.alarms.ofRule(rule.id);
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
    const deviceId = this.alarms.storedById(act.id)?.deviceId ?? this.alarms.working(act.id)?.deviceId;
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
      const alarm = this.alarms.working(id);
      if (!alarm || !nextAlarmState(alarm.state, 'ack')) throw conflict('ALARM_NOT_ACKABLE');
      return this.transition(alarm, 'ack', by, comment, { ackedAtMs: Date.now(), ackedBy: by, ackComment: comment });
    });
  }

  /** Shelves an open alarm until `minutes` from now. */
  private async shelve(id: string, by: Person, minutes: number, comment: string): Promise<AlarmRecord> {
    await this.assertKnown(id, 'ALARM_NOT_SHELVABLE');
    return this.submit(() => {
      const alarm = this.alarms.working(id);
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
      const alarm = this.alarms.working(id);
      if (alarm?.state !== 'shelved') throw conflict('ALARM_NOT_SHELVED');
      return this.endShelving(alarm, by);
    });
  }

  // --- several instances ------------------------------------------------------------------

  /** An alarm change another instance stored and announced: this instance's replica follows it. */
  adoptRemote(alarm: Alarm): Promise<void> {
    return this.submit(() => this.replica.follow(fromAlarm(alarm)));
  }

  /**
   * This instance now decides for the device: its rules' conditions start from its open alarms
   * (as announced by the instance that decided before), then it is evaluated from its current state.
   */
  adoptDevice(deviceId: string): Promise<void> {
    return this.submit(() => {
      for (const rule of this.rules.rulesFor(deviceId)) {
        this.resetCondition(rule.id);
        const open = this.alarms.ofRule(rule.id);
        if (!open) continue;
        const held = heldWhenStored(open);
        this.conditions.set(rule.id, { target: held, active: held, value: open.value, describe: () => open.message });
      }
      this.evaluatedTs.delete(deviceId);
      this.reevaluate(deviceId);
    });
  }

  /** The open alarms of devices decided elsewhere, as stored (announcements were lost while Redis was away). */
  async reloadReplica(): Promise<void> {
    const stored = await this.repo.listOpen();
    await this.submit(() => this.replica.reload(stored));
  }

  // --- inputs -------------------------------------------------------------------------------

  private onReading(deviceId: string, reading: EvaluatedReading): void {
    const device = this.evaluable(deviceId);
    if (!device) return;
    for (const input of readingInputs(device, reading, this.rules.rulesFor(deviceId), this.heldBefore, this.levels)) this.input(device, input);
  }

  /** A level sensor's figures or spills changed (a stored reading, a new geometry): its water rules are judged again. */
  private onWater(deviceId: string): void {
    const device = this.evaluable(deviceId);
    if (!device || device.type !== 'level_sensor') return;
    for (const input of waterInputs(deviceId, this.rules.rulesFor(deviceId), this.water, this.heldBefore)) this.input(device, input);
  }

  private onDevice(device: Device): void {
    const previous = this.lastStatus.get(device.id);
    this.lastStatus.set(device.id, device.status);
    if (!device.enabled) {
      this.suppressDevice(device.id);
      return;
    }
    // Its data may have gone stale (no forecast any more): the time to overflow is judged again.
    if (device.type === 'level_sensor' && watchesWater(this.rules.rulesFor(device.id))) this.onWater(device.id);
    if (previous === device.status) return;
    const record = this.evaluable(device.id);
    // A device never heard since it was created raises none (docs/decisions/009-alarm-engine.md).
    if (record) {
      const holds = device.status === 'offline' && device.lastSeen !== null;
      this.input(record, { kind: 'device_offline', holds, value: null, describe: () => eventAlarmMessage('device_offline') });
    }
  }

  private onCommand(command: Command): void {
    if (command.status !== 'failed' && command.status !== 'timed_out') return;
    const device = this.evaluable(command.deviceId);
    const rule = device && this.ruleOf(device.id, 'command_failed');
    if (!device || !rule) return;
    const message = eventAlarmMessage('command_failed', { command: command.command, status: command.status, text: command.message });
    this.raiseEvent(device, rule, command.command, () => message);
  }

  /**
   * A gate's schedule did not run (docs/control.md "Schedules"): an event alarm like a failed
   * command, whose rule is the schedule itself (not a rule in /alarm-rules).
   */
  raiseScheduleSkipped(deviceId: string, schedule: { id: string; priority: AlarmPriority }, message: string): Promise<void> {
    return this.submit(() => {
      const device = this.evaluable(deviceId);
      if (!device) return;
      const rule: AlarmRule = { id: schedule.id, kind: 'schedule_skipped', enabled: true, priority: schedule.priority, deadbandPct: 0, onDelayS: 0, offDelayS: 0 };
      this.raiseEvent(device, rule, 'schedule', () => message);
    });
  }

  /** Every open alarm of a disabled or retired device ends as suppressed (by the instance that decides for it, or the one purging it); nothing new is raised. */
  private suppressDevice(deviceId: string, purging = false): void {
    if (!purging && !this.placement.runsTimersOf(deviceId)) return;
    for (const alarm of this.alarms.workingOf(deviceId)) this.transition(alarm, 'suppress', null, null);
    for (const rule of this.rules.rulesFor(deviceId)) this.resetCondition(rule.id);
    this.levels.forget(deviceId);
  }

  private reevaluate(deviceId: string): void {
    const api = this.devices.getApi(deviceId);
    if (!api) return;
    if (!api.enabled) return this.suppressDevice(deviceId);
    this.lastStatus.delete(deviceId);
    this.onDevice(api);
    if (api.reading) this.onReading(deviceId, apiForEvaluation(api.reading));
    this.onWater(deviceId);
  }

  // --- conditions ---------------------------------------------------------------------------

  /** A condition input for a rule of the device: applied now, or after the rule's on/off delay. */
  private input(device: DeviceRecord, input: ConditionInput): void {
    const { kind, holds } = input;
    const rule = this.ruleOf(device.id, kind);
    if (!rule) return;
    const c = this.conditionOf(rule.id);
    c.value = input.value;
    c.describe = input.describe;
    if (holds) this.trackPeak(rule, input.value);
    if (c.target === holds) return;
    c.target = holds;
    this.timers.cancelDelay(rule.id);
    const delayS = holds ? rule.onDelayS : rule.offDelayS;
    if (delayS === 0) return this.apply(device.id, rule, holds);
    this.timers.delay(rule.id, delayS, () => {
      // The rule as it is when the delay ends (it may have been edited meanwhile).
      void this.submit(() => this.apply(device.id, this.ruleOf(device.id, kind) ?? rule, holds)).catch(() => undefined);
    });
  }

  /** The condition, past its delay, moves the rule's alarm. */
  private apply(deviceId: string, rule: AlarmRule, holds: boolean): void {
    if (this.stopped || !this.evaluable(deviceId) || !rule.enabled) return;
    const c = this.conditionOf(rule.id);
    const open = this.alarms.ofRule(rule.id);
    if (holds) {
      if (!open) this.raise(deviceId, rule, c.value, c.describe());
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
  private raiseEvent(device: DeviceRecord, rule: AlarmRule, value: string, describe: () => string): void {
    const open = this.alarms.ofRule(rule.id);
    if (open?.state === 'shelved') {
      Object.assign(open, { value, message: describe() });
      return;
    }
    Object.assign(this.conditionOf(rule.id), { value, describe });
    const raised = open ? this.transition(open, 'condition_on', null, null, { clearedAtMs: null, value, message: describe() }) : this.raise(device.id, rule, value, describe());
    this.transition(raised, 'condition_off', null, null, { clearedAtMs: Date.now() });
  }

  private raise(deviceId: string, rule: AlarmRule, value: number | string | null, message: string): AlarmRecord {
    const change = raisedAlarm(deviceId, rule, value, message, Date.now());
    this.batcher.stage(change);
    this.alarms.moved(change.alarm);
    return change.alarm;
  }

  /** Moves an alarm by an event; stored with its transition in the batch, then announced. */
  private transition(alarm: AlarmRecord, event: AlarmEvent, by: Person | null, comment: string | null, changes: Partial<AlarmRecord> = {}): AlarmRecord {
    const change = movedAlarm(alarm, event, by, comment, changes, Date.now());
    if (!change) return alarm;
    this.batcher.stage(change);
    this.alarms.moved(change.alarm);
    if (!isAlarmOpen(change.alarm.state)) this.timers.cancelShelving(alarm.id);
    return change.alarm;
  }

  private endShelving(alarm: AlarmRecord, by: Person | null): AlarmRecord {
    this.timers.cancelShelving(alarm.id);
    const c = this.conditions.get(alarm.ruleId);
    const active = c?.active ?? false;
    return this.transition(alarm, active ? 'unshelve_active' : 'unshelve_inactive', by, null, active && c ? { value: c.value, message: c.describe(), clearedAtMs: null } : {});
  }

  private scheduleUnshelve(alarm: AlarmRecord): void {
    this.timers.shelveUntil(alarm, ({ id }) => {
      void this.submit(() => {
        const current = this.alarms.working(id);
        if (current?.state === 'shelved') this.endShelving(current, null);
      }).catch(() => undefined);
    });
  }

  // --- helpers ------------------------------------------------------------------------------

  /** Runs engine work in arrival order (the batcher); resolves once its changes are stored and announced. */
  private submit<T>(work: () => T): Promise<T> {
    return this.batcher.submit(work);
  }

  /** Stored changes become what readers see, and are announced. */
  private announce(changes: AlarmChange[]): void {
    for (const { alarm } of changes) {
      this.alarms.committed(alarm);
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
    this.batcher.rejectPending(new StorageUnavailableError('alarm storage failed'));
    await this.loadOpen().catch((err: unknown) => this.log.error({ err }, 'reloading alarms failed'));
    clearTimeout(this.recoverTimer);
    this.recoverTimer = setTimeout(() => void this.reevaluateAll().catch(() => undefined), RECOVER_AFTER_MS);
    this.recoverTimer.unref();
  }

  /** 404 for an id that is not an alarm; for one that is over, the caller's 409. */
  private async assertKnown(id: string, overCode: 'ALARM_NOT_ACKABLE' | 'ALARM_NOT_SHELVABLE' | 'ALARM_NOT_SHELVED'): Promise<void> {
    if (this.alarms.working(id)) return;
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
    this.timers.cancelDelay(ruleId);
    this.conditions.delete(ruleId);
  }

  private trackPeak(rule: AlarmRule, value: number | string | null): void {
    const open = this.alarms.ofRule(rule.id);
    if (open && typeof value === 'number') open.peakValue = peakAfter(rule, open.peakValue, value);
  }
}
