import { apiReading, isNewerReading, type Command, type Device, type GateState, type Reading, type WaterAnalytics } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import type { IngestStore } from '../../storage/ingest/ingest-store';
import type { LastSeenRow } from '../../storage/ingest/rows';
import { SOLO, type Placement } from '../../lib/placement';
import { hashDeviceKey } from './device-keys';
import { offlineAfterS, toDevice } from './device.mapper';
import type { DeviceRecord, DevicesRepository, StoredReading } from './devices.repository';

/** A device that is only heard (no status change) is re-sent to browsers at most this often. */
const LAST_SEEN_PUSH_MS = 5_000;
/** Keys remembered after their hash was computed: one per device of a large plant. */
const KEY_CACHE_SIZE = 20_000;

interface LiveState {
  record: DeviceRecord;
  online: boolean;
  /** Open MQTT sessions and HTTP long polls: while any is open the device is online. */
  connections: number;
  /** When its MQTT session ended: offline at once, until it is heard again (docs/protocol.md). */
  sessionEndedAtMs: number | null;
  /** When browsers were last sent this device (to throttle lastSeen-only updates). */
  lastSeenPushedMs: number;
  lastCommand: Command | null;
}

/** Where the state readings also move (gate state, lastSeen) is stored: the ingest store, the one writer of those columns. */
export type DeviceStateStore = Pick<IngestStore, 'writeGateState' | 'writeLastSeen'>;

export interface DevicesServiceOptions {
  defaultOfflineAfterS: number;
  keyPepper: string;
  /** Which devices this instance decides for (several instances); all of them when alone. */
  placement?: Placement;
}

/** Where a change of a device's record was made: here (announced to the other instances) or on another instance. */
export type ChangeOrigin = 'here' | 'elsewhere';

/**
 * The one owner of device state: stored fields plus what only memory knows (connections,
 * online). Online = enabled and (a connection is open or heard within the offline timeout).
 * With several instances only a device's owner (its placement) decides whether it is online;
 * the others hold a replica of its state, kept by the owner's events (`applyRemote…`).
 */
export class DevicesService {
  private readonly state = new Map<string, LiveState>();
  private readonly byKeyHash = new Map<string, string>();
  private analyticsOf: (deviceId: string) => WaterAnalytics | null = () => null;
  /**
   * Key → device id for keys already hashed: the HMAC is a tenth of a device request's CPU. Holds
   * only keys that matched (an unknown key is never remembered), is emptied whenever any key
   * changes, and lives in memory only, like the key of a request being served.
   */
  private readonly byKey = new Map<string, string>();
  private readonly dirtyLastSeen = new Set<string>();
  private readonly placement: Placement;

  constructor(
    private readonly repo: DevicesRepository,
    private readonly stateStore: DeviceStateStore,
    private readonly bus: EventBus,
    private readonly opts: DevicesServiceOptions,
  ) {
    this.placement = opts.placement ?? SOLO;
  }

  /** Loads every device into memory; the offline sweep then runs as a background job. */
  async load(loadLastCommand: (commandId: string) => Promise<Command | null>): Promise<void> {
    for (const record of await this.repo.listAll()) {
      const lastCommand = record.lastCommandId ? await loadLastCommand(record.lastCommandId) : null;
      this.index(record, lastCommand);
    }
  }

  private index(record: DeviceRecord, lastCommand: Command | null): LiveState {
    const live: LiveState = { record, online: false, connections: 0, sessionEndedAtMs: null, lastSeenPushedMs: 0, lastCommand };
    live.online = this.computeOnline(live, Date.now());
    this.state.set(record.id, live);
    if (record.keyHash && record.retiredAtMs === null) this.byKeyHash.set(record.keyHash, record.id);
    return live;
  }

  private computeOnline(live: LiveState, now: number): boolean {
    const { record } = live;
    if (!record.enabled || record.retiredAtMs !== null) return false;
    if (live.connections > 0) return true;
    if (record.lastSeenMs === null) return false;
    if (live.sessionEndedAtMs !== null && record.lastSeenMs <= live.sessionEndedAtMs) return false;
    return now - record.lastSeenMs <= offlineAfterS(record, this.opts.defaultOfflineAfterS) * 1000;
  }

  /**
   * Re-evaluates online for one device and tells the browsers when it changed (or, forced, in any
   * case). Where another instance decides for the device, only a forced change is told, with
   * the online state its owner last reported.
   */
  private refresh(id: string, force = false): void {
    const live = this.state.get(id);
    if (!live) return;
    const decides = this.placement.runsTimersOf(id);
    if (!decides && !force) return;
    const now = Date.now();
    const online = decides ? this.computeOnline(live, now) : live.online && live.record.enabled && live.record.retiredAtMs === null;
    if (online !== live.online || force) {
      live.online = online;
      live.lastSeenPushedMs = now;
      if (live.record.retiredAtMs === null) this.bus.emit('device.updated', this.toApi(live));
    }
  }

  /** Turns offline the devices whose timeout ran out (docs/protocol.md: checked at least every second). */
  sweepOffline(): void {
    for (const id of this.state.keys()) this.refresh(id);
  }

  /** The device a key belongs to (retired devices have no key). */
  findByKey(key: string): DeviceRecord | undefined {
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = this.byKeyHash.get(hashDeviceKey(this.opts.keyPepper, key));
      if (id === undefined) return undefined;
      if (this.byKey.size >= KEY_CACHE_SIZE) this.byKey.clear();
      this.byKey.set(key, id);
    }
    return this.state.get(id)?.record;
  }

  get(id: string): DeviceRecord | undefined {
    return this.state.get(id)?.record;
  }

  isOnline(id: string): boolean {
    return this.state.get(id)?.online ?? false;
  }

  list(includeRetired = false): Device[] {
    const out: Device[] = [];
    for (const live of this.state.values()) {
      if (live.record.retiredAtMs !== null && !includeRetired) continue;
      out.push(this.toApi(live));
    }
    return out;
  }

  /** Every device's stored record, retired ones included. */
  listRecords(): DeviceRecord[] {
    return [...this.state.values()].map((live) => live.record);
  }

  getApi(id: string): Device | undefined {
    const live = this.state.get(id);
    return live ? this.toApi(live) : undefined;
  }

  /**
   * Where a level sensor's water figures come from (the water feature, composed in app.ts; it is
   * built after this one, since it needs the devices): every Device this service hands out
   * carries them.
   */
  useWaterFigures(analyticsOf: (deviceId: string) => WaterAnalytics | null): void {
    this.analyticsOf = analyticsOf;
  }

  private toApi(live: LiveState): Device {
    return toDevice(live.record, live, this.opts.defaultOfflineAfterS, live.record.type === 'level_sensor' ? this.analyticsOf(live.record.id) : null);
  }

  /**
   * The device was heard now: lastSeen moves, and it may come online. Browsers learn of the new
   * lastSeen at most every LAST_SEEN_PUSH_MS per device (readings already carry their own time).
   */
  heard(id: string, atMs = Date.now()): void {
    const live = this.state.get(id);
    // A disabled or retired device is not heard (the end of its revoked long poll is no sign of life).
    if (!live || !live.record.enabled || live.record.retiredAtMs !== null) return;
    if (live.record.lastSeenMs === null || atMs > live.record.lastSeenMs) {
      live.record.lastSeenMs = atMs;
      this.dirtyLastSeen.add(id);
    }
    const stale = atMs - live.lastSeenPushedMs >= LAST_SEEN_PUSH_MS;
    this.refresh(id, stale);
  }

  /**
   * A connection opened (+1) or closed (-1). The end of an MQTT session (last will or clean
   * DISCONNECT) turns the device offline at once; the end of a long poll counts as being heard,
   * since the device re-polls straight away.
   */
  connection(id: string, delta: 1 | -1, kind: 'mqtt' | 'poll'): void {
    const live = this.state.get(id);
    if (!live) return;
    live.connections = Math.max(0, live.connections + delta);
    // A session closed here because the device moved to another instance says nothing of it.
    if (!this.placement.owns(id)) return;
    const now = Date.now();
    if (delta === 1 || kind === 'poll') this.heard(id, now);
    if (delta === -1 && kind === 'mqtt' && live.connections === 0) live.sessionEndedAtMs = now;
    this.refresh(id);
  }

  /**
   * A reading was committed: it becomes current when it is newer than the current one (late
   * batches do not move it back), and then goes to the live sockets (`reading.created`).
   */
  readingStored(id: string, reading: StoredReading): void {
    const live = this.state.get(id);
    if (!live) return;
    const current = live.record.reading;
    if (!isNewerReading(current?.tsMs, reading.tsMs)) return;
    live.record.reading = reading;
    // The reading's transaction already stored the gate state it carries.
    if (reading.valueText && moveGateState(live.record, reading.valueText as GateState)) this.refresh(id, true);
    this.bus.emit('reading.created', { deviceId: id, reading: apiReading(reading) });
  }

  /**
   * Shows a command as the device's last one (stores the link when it is a new command), together
   * with the gate state its acknowledgement reported: one change, one live frame.
   */
  async setLastCommand(command: Command, isNew = true, gateState?: GateState): Promise<void> {
    const live = this.state.get(command.deviceId);
    if (!live) return;
    const shown = !(live.lastCommand && live.lastCommand.id !== command.id && !isNew);
    if (shown) {
      live.lastCommand = command;
      if (isNew && live.record.lastCommandId !== command.id) {
        live.record.lastCommandId = command.id;
        await this.repo.setLastCommand(command.deviceId, command.id);
      }
    }
    const stateChanged = gateState !== undefined && (await this.storeGateState(live, gateState));
    if (shown || stateChanged) this.refresh(command.deviceId, true);
  }

  /** The gate's real state as a late acknowledgement reported it (no command of its own changes). */
  async setGateState(id: string, state: GateState): Promise<void> {
    const live = this.state.get(id);
    if (live && (await this.storeGateState(live, state))) this.refresh(id, true);
  }

  /** A gate state reported outside a reading: moved in memory and stored by the ingest store. */
  private async storeGateState(live: LiveState, state: GateState): Promise<boolean> {
    if (!moveGateState(live.record, state)) return false;
    await this.stateStore.writeGateState({ deviceId: live.record.id, state });
    return true;
  }

  /** Whether the device holds an MQTT session or a long poll right now. */
  hasOpenConnection(id: string): boolean {
    return (this.state.get(id)?.connections ?? 0) > 0;
  }

  /**
   * Adds a device or replaces its administrative fields; keeps the key index right. A change made
   * here is announced to the other instances (`device.record_changed`), which load it again.
   */
  upsert(record: DeviceRecord, origin: ChangeOrigin = 'here'): void {
    const existing = this.state.get(record.id);
    this.byKey.clear();
    if (existing?.record.keyHash) this.byKeyHash.delete(existing.record.keyHash);
    if (existing) {
      // 'Desconectar': once enabled again it shows offline until it talks again (docs/product.md), so
      // what it said before counts no more — as after the end of a session.
      if (existing.record.enabled && !record.enabled) existing.sessionEndedAtMs = Date.now();
      existing.record = { ...record, lastSeenMs: existing.record.lastSeenMs, reading: existing.record.reading, gateState: existing.record.gateState };
      if (record.keyHash && record.retiredAtMs === null) this.byKeyHash.set(record.keyHash, record.id);
    } else {
      this.index(record, null);
    }
    if (origin === 'elsewhere') {
      // The instance that made the change told the browsers; the owner re-judges online.
      this.refresh(record.id);
      return;
    }
    this.bus.emit('device.record_changed', { id: record.id });
    this.refresh(record.id, true);
    if (existing && record.retiredAtMs !== null) this.bus.emit('device.removed', { id: record.id });
  }

  remove(id: string, origin: ChangeOrigin = 'here'): void {
    const live = this.state.get(id);
    if (!live) return;
    this.byKey.clear();
    if (live.record.keyHash) this.byKeyHash.delete(live.record.keyHash);
    this.state.delete(id);
    if (origin === 'here') this.bus.emit('device.removed', { id });
  }

  /** A device's record changed on another instance: loaded again from the storage (gone: purged). */
  async reloadRecord(id: string): Promise<void> {
    const record = await this.repo.findById(id);
    if (record) this.upsert(record, 'elsewhere');
    else this.remove(id, 'elsewhere');
  }

  /**
   * What another instance reported of a device. Where that instance decides for it, this
   * instance's replica follows it whole; what only moves forward (lastSeen, the current reading)
   * is taken in any case — several instances may store a device's readings at once (shared
   * subscriptions of an external broker, a balancer without hashing).
   */
  applyRemote(device: Device): void {
    const live = this.state.get(device.id);
    if (!live) return;
    const lastSeenMs = device.lastSeen === null ? null : Date.parse(device.lastSeen);
    if (lastSeenMs !== null && (live.record.lastSeenMs === null || lastSeenMs > live.record.lastSeenMs)) live.record.lastSeenMs = lastSeenMs;
    if (device.reading) this.applyRemoteReading(device.id, device.reading);
    if (this.placement.owns(device.id)) return;
    live.online = device.status === 'online';
    live.lastCommand = device.lastCommand;
    live.lastSeenPushedMs = Date.now();
    if (device.config && 'state' in device.config) live.record.gateState = device.config.state;
  }

  /** A reading another instance stored: the current reading moves forward only, as in the storage. */
  applyRemoteReading(id: string, reading: Reading): void {
    const live = this.state.get(id);
    if (!live) return;
    const tsMs = Date.parse(reading.ts);
    if (!isNewerReading(live.record.reading?.tsMs, tsMs)) return;
    live.record.reading =
      typeof reading.value === 'number'
        ? { valueNum: reading.value, valueText: null, status: reading.status, tsMs, rawNum: reading.raw === undefined || reading.raw === reading.value ? null : reading.raw }
        : { valueNum: null, valueText: reading.value, status: reading.status, tsMs, rawNum: null };
  }

  /** Publishes every device this instance decides for again (the other instances' replicas were lost with Redis). */
  announceAll(): void {
    for (const id of this.state.keys()) if (this.placement.owns(id)) this.refresh(id, true);
  }

  /** Writes lastSeen of devices heard since the last flush. */
  async flushLastSeen(): Promise<void> {
    if (this.dirtyLastSeen.size === 0) return;
    const entries: LastSeenRow[] = [];
    for (const id of this.dirtyLastSeen) {
      const ms = this.state.get(id)?.record.lastSeenMs;
      if (ms !== null && ms !== undefined) entries.push({ deviceId: id, lastSeenMs: ms });
    }
    if (entries.length === 0) return;
    this.dirtyLastSeen.clear();
    await this.stateStore.writeLastSeen(entries);
  }
}

/**
 * The one door of a gate's state, whatever reports it (a gate reading, an acknowledgement, the
 * travel time-out's `falla` reading): only a motorized gate has one, and only a different state
 * is a change. Moves the record; returns whether it changed (the caller has it stored and shown).
 */
function moveGateState(record: DeviceRecord, state: GateState): boolean {
  if (record.type !== 'motorized_gate' || record.gateState === state) return false;
  record.gateState = state;
  return true;
}
