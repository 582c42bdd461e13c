import { levelThresholdsOf, type DeviceType, type GateState, type WaterType } from '@agua/shared';
import { AppError, conflict, notFound, unprocessable } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord } from '../users/users.repository';
import { hashDeviceKey, newDeviceKey } from './device-keys';
import type { DeviceRecord, DeviceSettings, DevicesRepository } from './devices.repository';
import type { DevicesService } from './devices.service';

export interface DeviceConfigInput {
  maxLevel?: number | undefined;
  warningPct?: number | undefined;
  criticalPct?: number | undefined;
  offlineAfterS?: number | undefined;
  travelTimeoutS?: number | undefined;
  readingIntervalS?: number | undefined;
  /** Echoed from a GET; always metres, nothing to store. */
  unit?: 'm' | undefined;
  /** Echoed from a GET and ignored: a gate's state only ever comes from the device. */
  state?: GateState | null | undefined;
}

/** The parts of a config that are settings; anything else in it (unit, state) is never stored. */
const SETTING_KEYS = ['maxLevel', 'warningPct', 'criticalPct', 'offlineAfterS', 'travelTimeoutS', 'readingIntervalS'] as const satisfies readonly (keyof DeviceSettings)[];

export interface CreateDeviceInput {
  id: string;
  name: string;
  location: string;
  type: DeviceType;
  waterType?: WaterType | null | undefined;
  config?: DeviceConfigInput | undefined;
}

export interface PatchDeviceInput {
  enabled?: boolean | undefined;
  name?: string | undefined;
  location?: string | undefined;
  waterType?: WaterType | null | undefined;
  config?: DeviceConfigInput | undefined;
  /** The site it belongs to; null: none (docs/sites.md). */
  siteId?: string | null | undefined;
}

/** What devices need of the sites (the sites feature, composed in app.ts): whether one exists. */
export interface DeviceSites {
  exists(siteId: string): Promise<boolean>;
}

/**
 * Where a device's access lives besides this server: the accounts of an external broker
 * (MQTT_URL) and the other instances' copies of the device (REDIS_URL). The embedded broker of a
 * lone instance reads it from here and needs nothing.
 */
export interface DeviceAccess {
  /** Before a new key's hash is stored: whoever else checks keys must learn the key itself. */
  keyIssued(deviceId: string, key: string): Promise<void>;
  /** After a device was created, enabled, disabled, given a new key, retired or purged: waits (briefly) until it agrees. */
  changed(deviceId: string): Promise<void>;
}

export const NO_OTHER_ACCESS: DeviceAccess = { keyIssued: async () => undefined, changed: async () => undefined };

interface Actor {
  user: UserRecord;
  ip: string;
}

/** What other features do when a device is created, has its settings changed or is purged (composed in app.ts). */
export interface DeviceLifecycle {
  created(device: DeviceRecord): Promise<void>;
  settingsChanged(device: DeviceRecord, before: DeviceSettings): Promise<void>;
  /** Before the device row goes: its history and everything else stored about it. */
  purging(deviceId: string): Promise<void>;
}

/**
 * Administration of devices (manage_devices): create, edit, enable/disable ('Conectar' /
 * 'Desconectar'), rotate the key, retire or purge. Every change is audited.
 */
export class DeviceAdminService {
  constructor(
    private readonly repo: DevicesRepository,
    private readonly devices: DevicesService,
    private readonly bus: EventBus,
    private readonly audit: AuditService,
    private readonly keyPepper: string,
    private readonly lifecycle: DeviceLifecycle,
    private readonly sites: DeviceSites,
    private readonly access: DeviceAccess = NO_OTHER_ACCESS,
  ) {}

  async create(input: CreateDeviceInput, actor: Actor): Promise<{ device: DeviceRecord; apiKey: string }> {
    if (this.devices.get(input.id)) throw conflict('DEVICE_ID_TAKEN');
    const settings = settingsFor(input.type, {}, input.config);
    const apiKey = newDeviceKey();
    await this.access.keyIssued(input.id, apiKey);
    const record: DeviceRecord = {
      id: input.id,
      name: input.name.trim(),
      location: input.location.trim(),
      type: input.type,
      waterType: input.type === 'level_sensor' ? (input.waterType ?? null) : null,
      enabled: true,
      retiredAtMs: null,
      keyHash: hashDeviceKey(this.keyPepper, apiKey),
      settings,
      gateState: null,
      lastSeenMs: null,
      lastCommandId: null,
      reading: null,
      siteId: null,
      createdAtMs: Date.now(),
    };
    await this.repo.insert(record);
    this.devices.upsert(record);
    await this.lifecycle.created(record);
    await this.access.changed(record.id);
    await this.record('device.created', record.id, actor, { type: record.type, name: record.name });
    return { device: record, apiKey };
  }

  async patch(id: string, input: PatchDeviceInput, actor: Actor): Promise<DeviceRecord> {
    const current = this.activeDevice(id);
    if (input.siteId != null && !(await this.sites.exists(input.siteId))) throw unprocessable('SITE_INVALID', { field: 'siteId', reason: 'Sitio desconocido.' });
    const next: DeviceRecord = {
      ...current,
      name: input.name?.trim() ?? current.name,
      location: input.location?.trim() ?? current.location,
      waterType: current.type === 'level_sensor' && input.waterType !== undefined ? input.waterType : current.waterType,
      enabled: input.enabled ?? current.enabled,
      settings: settingsFor(current.type, current.settings, input.config),
      siteId: input.siteId !== undefined ? input.siteId : current.siteId,
    };
    await this.repo.updateAdmin(next);
    this.devices.upsert(next);
    if (input.config !== undefined) await this.lifecycle.settingsChanged(next, current.settings);
    if (input.enabled === false && current.enabled) this.bus.emit('device.revoked', { deviceId: id });
    if (input.enabled !== undefined && input.enabled !== current.enabled) {
      await this.access.changed(id);
      await this.record(input.enabled ? 'device.enabled' : 'device.disabled', id, actor);
    }
    const changed = (['name', 'location', 'waterType', 'config'] as const).filter((k) => input[k] !== undefined);
    if (changed.length > 0) await this.record('device.updated', id, actor, { fields: changed });
    if (next.siteId !== current.siteId) await this.record('device.site_changed', id, actor, { from: current.siteId, to: next.siteId });
    return next;
  }

  /** A site is being deleted: its devices, retired ones too, stay without a site (each audited, each sent as device.updated). */
  async detachSite(siteId: string, actor: Actor): Promise<void> {
    for (const current of this.devices.listRecords().filter((d) => d.siteId === siteId)) {
      const next = { ...current, siteId: null };
      await this.repo.updateAdmin(next);
      this.devices.upsert(next);
      await this.record('device.site_changed', current.id, actor, { from: siteId, to: null, reason: 'site_deleted' });
    }
  }

  /** A new key: the old one stops working at once and its MQTT session is closed. */
  async rotateKey(id: string, actor: Actor): Promise<string> {
    const current = this.activeDevice(id);
    const apiKey = newDeviceKey();
    await this.access.keyIssued(id, apiKey);
    const next = { ...current, keyHash: hashDeviceKey(this.keyPepper, apiKey) };
    await this.repo.updateAdmin(next);
    this.devices.upsert(next);
    this.bus.emit('device.revoked', { deviceId: id });
    await this.access.changed(id);
    await this.record('device.key_rotated', id, actor);
    return apiKey;
  }

  /** Retires a device (history kept, id never reused), or with purge deletes it and its history. */
  async remove(id: string, purge: boolean, actor: Actor): Promise<void> {
    const current = this.devices.get(id);
    if (!current || (current.retiredAtMs !== null && !purge)) throw notFound('DEVICE_NOT_FOUND');
    this.bus.emit('device.revoked', { deviceId: id });
    if (purge) {
      await this.lifecycle.purging(id);
      await this.repo.delete(id);
      this.devices.remove(id);
    } else {
      const next = { ...current, retiredAtMs: Date.now(), keyHash: null, enabled: false };
      await this.repo.updateAdmin(next);
      this.devices.upsert(next);
    }
    await this.access.changed(id);
    await this.record('device.deleted', id, actor, { purge });
  }

  private activeDevice(id: string): DeviceRecord {
    const d = this.devices.get(id);
    if (!d || d.retiredAtMs !== null) throw notFound('DEVICE_NOT_FOUND');
    return d;
  }

  private record(action: Parameters<AuditService['record']>[0]['action'], id: string, actor: Actor, details?: Record<string, unknown>) {
    return this.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: `device:${id}`, result: 'ok', ip: actor.ip, details: details ?? null });
  }
}

/** Merges and checks per-device settings; thresholds must keep warning below critical. */
function settingsFor(type: DeviceType, current: DeviceSettings, input: DeviceConfigInput | undefined): DeviceSettings {
  const next: DeviceSettings = { ...current };
  for (const k of SETTING_KEYS) {
    const v = input?.[k];
    if (v !== undefined) next[k] = v;
  }
  if (type === 'level_sensor') {
    if (next.maxLevel === undefined) throw unprocessable('INVALID_VALUE', { field: 'config.maxLevel' });
    const { warningPct, criticalPct } = levelThresholdsOf(next);
    if (warningPct >= criticalPct) throw new AppError(422, 'INVALID_VALUE', { field: 'config.warningPct', reason: 'warningPct < criticalPct' });
    delete next.travelTimeoutS;
  } else {
    delete next.maxLevel;
    delete next.warningPct;
    delete next.criticalPct;
    delete next.readingIntervalS;
  }
  return next;
}
