import { DEFAULT_GEOMETRY, levelFromSensor, levelThresholdsOf, type Geometry, resolveGeometry, type DeviceGeometry, type GeometryBody, type GeometryInput, type GeometryVersion } from '@agua/shared';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { KeyedSerial } from '../../lib/keyed-serial';
import type { AuditService } from '../audit/audit.service';
import type { DeviceRecord } from '../devices/devices.repository';
import type { UserRecord } from '../users/users.repository';
import type { GeometryRepository, StoredGeometry } from './geometry.repository';

export interface GeometryTimeline {
  current: Geometry;
  at(tsMs: number): Geometry;
}

interface Actor {
  user: UserRecord;
  ip: string;
}

/** How many times a save retries when another took its version number at the same moment. */
const SAVE_ATTEMPTS = 3;

/**
 * The geometry and calibration of level sensors (docs/water.md): read by anyone with read,
 * changed by manage_devices as a new version (never an edit of an old one), audited.
 */
export class GeometryService {
  /** Every device's versions, newest first: the ingest path and the live figures read them at every reading. */
  private readonly versions = new Map<string, StoredGeometry[]>();
  private readonly saves = new KeyedSerial();

  constructor(
    private readonly repo: GeometryRepository,
    private readonly deviceOf: (id: string) => DeviceRecord | undefined,
    private readonly audit: AuditService,
    /** Told after a new version is stored here (the alarm rules and live figures follow it, other instances reload); awaited before the PUT answers. */
    private readonly changed: (deviceId: string) => void | Promise<void>,
  ) {}

  async load(): Promise<void> {
    this.versions.clear();
    for (const g of await this.repo.listAll()) {
      const list = this.versions.get(g.deviceId) ?? [];
      list.push(g);
      this.versions.set(g.deviceId, list);
    }
  }

  /** A version stored by another instance: read again. */
  async reload(deviceId: string): Promise<void> {
    this.versions.set(deviceId, await this.repo.versionsOf(deviceId));
  }

  /** The current version and all versions; a retired sensor's still answers (its history does). */
  get(deviceId: string): DeviceGeometry {
    this.levelSensor(deviceId, { allowRetired: true });
    return describe(this.versions.get(deviceId) ?? []);
  }

  /** The version in force now (the live figures ask at every reading: no copy made). */
  current(deviceId: string): Geometry {
    return this.versions.get(deviceId)?.[0]?.geometry ?? DEFAULT_GEOMETRY;
  }

  /** Whether any version of the device's geometry has a crest (it can spill, or did). */
  everHadCrest(deviceId: string): boolean {
    return this.versions.get(deviceId)?.some((v) => v.geometry.crestLevelM !== null) ?? false;
  }

  /** The number of the version in force now; 0 when none was ever made. */
  version(deviceId: string): number {
    return this.versions.get(deviceId)?.[0]?.version ?? 0;
  }

  /** Whether the device was ever given a geometry (version ≥ 1). */
  configured(deviceId: string): boolean {
    return (this.versions.get(deviceId)?.length ?? 0) > 0;
  }

  /** The version valid at a time (as `timeline`), without copying the list: the ingest path asks at every reading. */
  at(deviceId: string, tsMs: number): Geometry {
    const newestFirst = this.versions.get(deviceId);
    if (!newestFirst || newestFirst.length === 0) return DEFAULT_GEOMETRY;
    for (const v of newestFirst) if (v.validFromMs <= tsMs) return v.geometry;
    return newestFirst[newestFirst.length - 1]!.geometry;
  }

  /**
   * What a level sensor sent, as the level to store (docs/water.md "Distance sensors"): the
   * mounting height minus a distance, plus the zero offset, by the version valid at the reading's time.
   */
  levelOf(deviceId: string, tsMs: number, sent: number): number {
    return levelFromSensor(this.at(deviceId, tsMs), sent);
  }

  /**
   * The device's geometry as a function of time: a reading is converted, and its volume computed,
   * by the version valid at its time — the latest with validFrom ≤ ts, the first one for earlier
   * times, the defaults when none was ever made (docs/water.md).
   */
  timeline(deviceId: string): GeometryTimeline {
    const oldestFirst = [...(this.versions.get(deviceId) ?? [])].reverse();
    return {
      current: oldestFirst[oldestFirst.length - 1]?.geometry ?? DEFAULT_GEOMETRY,
      at: (tsMs) => {
        let found = oldestFirst[0];
        for (const v of oldestFirst) {
          if (v.validFromMs <= tsMs) found = v;
          else break;
        }
        return found?.geometry ?? DEFAULT_GEOMETRY;
      },
    };
  }

  /**
   * Saves a new version. Saves of one device on this instance take turns (each reads the newest
   * version number, then inserts the next); a save on another instance that takes the same number
   * first is retried, and only after SAVE_ATTEMPTS such races is the answer 409.
   */
  async put(deviceId: string, body: GeometryBody, actor: Actor): Promise<DeviceGeometry> {
    const device = this.levelSensor(deviceId, { allowRetired: false });
    const resolved = resolveGeometry(inputOf(body), levelThresholdsOf(device.settings).maxLevel);
    if ('problem' in resolved) throw unprocessable('GEOMETRY_INVALID', resolved.problem);
    return this.saves.run(deviceId, () => this.save(deviceId, resolved.geometry, actor));
  }

  private async save(deviceId: string, geometry: Geometry, actor: Actor): Promise<DeviceGeometry> {
    const by = { id: actor.user.id, username: actor.user.username, name: actor.user.name };
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const versions = await this.repo.versionsOf(deviceId);
      const version = (versions[0]?.version ?? 0) + 1;
      if (await this.repo.insert({ deviceId, version, validFromMs: Date.now(), by, geometry })) {
        await this.reload(deviceId);
        await this.audit.record({ action: 'device.geometry_changed', userId: actor.user.id, username: actor.user.username, target: `device:${deviceId}`, result: 'ok', ip: actor.ip, details: { version } });
        await this.changed(deviceId);
        return this.get(deviceId);
      }
    }
    throw new AppError(409, 'GEOMETRY_CONFLICT');
  }

  private levelSensor(id: string, { allowRetired }: { allowRetired: boolean }): DeviceRecord {
    const device = this.deviceOf(id);
    if (!device || device.type !== 'level_sensor' || (!allowRetired && device.retiredAtMs !== null)) throw notFound('DEVICE_NOT_FOUND');
    return device;
  }
}

/** The body's geometry fields; what a GET answers besides them is ignored (docs/water.md). */
function inputOf(body: GeometryBody): GeometryInput {
  const { version: _v, validFrom: _f, by: _b, versions: _vs, ...fields } = body;
  return fields as GeometryInput;
}

function versionOf(g: StoredGeometry): GeometryVersion {
  return { version: g.version, ...g.geometry, validFrom: new Date(g.validFromMs).toISOString(), by: g.by };
}

/** Never configured: version 0 with the defaults and nobody's name on it. */
function describe(versions: StoredGeometry[]): DeviceGeometry {
  const described = versions.map(versionOf);
  const current = described[0] ?? { version: 0, ...DEFAULT_GEOMETRY, validFrom: null, by: null };
  return { ...current, versions: described };
}
