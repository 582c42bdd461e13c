import {
  alarmRulesProblem,
  defaultAlarmRules,
  isCrestAlarmKind,
  isLevelSetpointKind,
  levelThresholdsOf,
  type AlarmRule,
  type AlarmRuleUpdateBody,
  type DeviceType,
  type WaterType,
} from '@agua/shared';
import { AppError, notFound } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import { newId } from '../../lib/ids';
import type { AuditService } from '../audit/audit.service';
import type { DeviceSettings } from '../devices/devices.repository';
import type { UserRecord } from '../users/users.repository';
import type { AlarmRulesRepository, StoredAlarmRule } from './alarm-rules.repository';

/** What the rules need to know of a device. */
export interface RuleDevice {
  id: string;
  type: DeviceType;
  settings: DeviceSettings;
  /** Clean water watches its low levels by default (docs/water.md "Alarms"). */
  waterType?: WaterType | null;
}

interface Actor {
  user: UserRecord;
  ip: string;
}

/** The settings only some kinds have; any other kind refuses them. */
const KIND_ONLY_FIELDS = {
  setpointPct: (r: AlarmRule) => isLevelSetpointKind(r.kind),
  setpointM: (r: AlarmRule) => isLevelSetpointKind(r.kind),
  setpointMin: (r: AlarmRule) => r.kind === 'time_to_overflow',
  ratePerMin: (r: AlarmRule) => r.kind === 'rate_of_rise',
  windowS: (r: AlarmRule) => r.kind === 'rate_of_rise',
} as const;

/** The rule as the API shows it (what is stored besides stays here). */
function apiRule({ deviceId: _device, edited: _edited, ...rule }: StoredAlarmRule): AlarmRule {
  return rule;
}

/**
 * Each device's alarm rules (docs/alarms.md "Alarm rules"): kept in memory for evaluation, stored,
 * made with the defaults for every device, edited with manage_devices (audited). The water kinds
 * follow the device's crest (docs/water.md "Alarms"): on with a first crest unless an admin edited
 * them before, off when it is removed.
 */
export class AlarmRulesService {
  private readonly byDevice = new Map<string, StoredAlarmRule[]>();

  constructor(
    private readonly repo: AlarmRulesRepository,
    private readonly audit: AuditService,
    private readonly bus: EventBus,
    /** Whether the device's current geometry has a crest (the water feature's; none before it exists). */
    private readonly hasCrest: (deviceId: string) => boolean = () => false,
  ) {}

  /** Loads every rule; a device missing some of its kinds (older than alarms) gets the defaults. */
  async load(devices: RuleDevice[]): Promise<void> {
    this.byDevice.clear();
    for (const rule of await this.repo.listAll()) this.rulesList(rule.deviceId).push(rule);
    for (const device of devices) await this.createDefaults(device);
  }

  /** The device's rules, in the order people see them. */
  rulesOf(deviceId: string): AlarmRule[] {
    return (this.byDevice.get(deviceId) ?? []).map(apiRule);
  }

  /** The device's rules as held for evaluation (no copy: the engine reads them on every reading). */
  rulesFor(deviceId: string): readonly AlarmRule[] {
    return this.byDevice.get(deviceId) ?? [];
  }

  /** The device's rules as another instance stored them (made or edited there). */
  async reloadDevice(deviceId: string, type: RuleDevice['type']): Promise<void> {
    const order = defaultAlarmRules(type, {}).map((r) => r.kind);
    const list = (await this.repo.listByDevice(deviceId)).sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    if (list.length > 0) this.byDevice.set(deviceId, list);
    else this.byDevice.delete(deviceId);
  }

  /** Gives a device the default rule of every kind it has none of. */
  async createDefaults(device: RuleDevice): Promise<void> {
    const have = new Set(this.rulesList(device.id).map((r) => r.kind));
    const context = { waterType: device.waterType ?? null, hasCrest: this.hasCrest(device.id) };
    const missing = defaultAlarmRules(device.type, device.settings, context)
      .filter((r) => !have.has(r.kind))
      .map((r): StoredAlarmRule => ({ id: newId('rul'), deviceId: device.id, ...r, edited: false }));
    if (missing.length === 0) return;
    await this.repo.insertMissing(missing);
    const order = defaultAlarmRules(device.type, {}).map((r) => r.kind);
    const list = [...this.rulesList(device.id), ...missing].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    this.byDevice.set(device.id, list);
  }

  /**
   * The device's warning / critical thresholds changed: the H / HH setpoints follow while they
   * still equal the old thresholds (docs/alarms.md); set on purpose to something else, they stay.
   */
  async thresholdsChanged(device: RuleDevice, before: DeviceSettings): Promise<void> {
    const old = levelThresholdsOf(before);
    const now = levelThresholdsOf(device.settings);
    const follow = { level_high: [old.warningPct, now.warningPct], level_high_high: [old.criticalPct, now.criticalPct] } as const;
    const moved: StoredAlarmRule[] = [];
    for (const rule of this.rulesList(device.id)) {
      if (rule.kind !== 'level_high' && rule.kind !== 'level_high_high') continue;
      const [was, next] = follow[rule.kind];
      if (rule.setpointPct === was && was !== next) moved.push({ ...rule, setpointPct: next });
    }
    if (moved.length === 0) return;
    // The thresholds themselves are valid (warning < critical); the low setpoints may not fit below.
    const candidate = this.rulesList(device.id).map((r) => moved.find((m) => m.id === r.id) ?? r);
    if (alarmRulesProblem(candidate, now.maxLevel)) return;
    await this.repo.saveAll(moved);
    this.byDevice.set(device.id, candidate);
  }

  /**
   * The device's crest came or went (a new geometry version, stored here): with a crest the water
   * kinds are on unless an admin edited them before; without one they are off (docs/water.md).
   */
  async crestChanged(deviceId: string, hasCrest: boolean): Promise<void> {
    const list = this.rulesList(deviceId);
    const moved = list.filter((r) => isCrestAlarmKind(r.kind) && (hasCrest ? !r.enabled && !r.edited : r.enabled)).map((r) => ({ ...r, enabled: hasCrest }));
    if (moved.length === 0) return;
    await this.repo.saveAll(moved);
    this.byDevice.set(deviceId, list.map((r) => moved.find((m) => m.id === r.id) ?? r));
    for (const rule of moved) this.bus.emit('alarm_rule.updated', { deviceId, rule: apiRule(rule) });
  }

  /**
   * Edits one rule; 404 for a rule the device does not have, 422 for settings that cannot hold. A
   * level setpoint given in % or in metres replaces the other (both at once: 422).
   */
  async update(device: RuleDevice, ruleId: string, patch: AlarmRuleUpdateBody, actor: Actor): Promise<AlarmRule> {
    const deviceId = device.id;
    const list = this.rulesList(deviceId);
    const current = list.find((r) => r.id === ruleId);
    if (!current) throw notFound('ALARM_RULE_NOT_FOUND');
    for (const [field, applies] of Object.entries(KIND_ONLY_FIELDS)) {
      if (patch[field as keyof typeof KIND_ONLY_FIELDS] !== undefined && !applies(current)) {
        throw new AppError(422, 'ALARM_RULE_INVALID', { field, reason: 'not_for_kind' });
      }
    }
    if (patch.setpointPct !== undefined && patch.setpointM !== undefined) throw new AppError(422, 'ALARM_RULE_INVALID', { field: 'setpointM', reason: 'setpoint_pct_and_m' });
    const next = { ...current, ...definedOnly(patch), edited: true } as StoredAlarmRule;
    if (patch.setpointPct !== undefined) next.setpointM = null;
    if (patch.setpointM !== undefined) next.setpointPct = null;
    const candidate = list.map((r) => (r.id === ruleId ? next : r));
    const problem = alarmRulesProblem(candidate, levelThresholdsOf(device.settings).maxLevel, next);
    if (problem) throw new AppError(422, 'ALARM_RULE_INVALID', problem);
    await this.repo.save(next);
    this.byDevice.set(deviceId, candidate);
    await this.audit.record({
      action: 'alarm.rule_updated',
      userId: actor.user.id,
      username: actor.user.username,
      target: `device:${deviceId}`,
      result: 'ok',
      ip: actor.ip,
      details: { ruleId, kind: current.kind, changes: definedOnly(patch) },
    });
    const rule = apiRule(next);
    this.bus.emit('alarm_rule.updated', { deviceId, rule });
    return rule;
  }

  /** The device was purged: its rules went with it (foreign key). */
  forget(deviceId: string): void {
    this.byDevice.delete(deviceId);
  }

  private rulesList(deviceId: string): StoredAlarmRule[] {
    let list = this.byDevice.get(deviceId);
    if (!list) {
      list = [];
      this.byDevice.set(deviceId, list);
    }
    return list;
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
