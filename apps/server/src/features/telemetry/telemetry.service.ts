import { gateStatus, isNewerReading, levelStatus, levelThresholdsOf } from '@agua/shared';
import type { DeviceRecord } from '../devices/devices.repository';
import type { DevicesService } from '../devices/devices.service';
import { GroupCommit } from '../../storage/ingest/group-commit';
import type { ReadingRow } from '../../storage/ingest/rows';
import { validateTelemetry, type ValidMessage } from './telemetry.validate';

export interface IngestResult {
  accepted: number;
  duplicates: number;
}

/** The alarm changes a commit of readings causes, staged before it and stored in its transaction. */
export interface StagedAlarms<C> {
  changes: C[];
  /** The transaction committed: announce the changes. */
  committed(): void;
  /** It did not: the evaluation is undone. */
  failed(err: unknown): void;
}

/** Evaluates the alarms of readings about to be stored (the alarm engine; ADR 009). */
export interface ReadingAlarms<C> {
  stageReadings(items: ReadingRow[]): StagedAlarms<C>;
}

/**
 * A level sensor's value as the level to store: a distance sensor's distance turned into a level,
 * a zero offset added (the water feature's calibration, docs/water.md "Distance sensors").
 */
export type LevelOf = (deviceId: string, tsMs: number, sent: number) => number;

/** The writer of readings, with the alarm changes to commit beside them. */
export interface ReadingsStore<C> {
  write(items: ReadingRow[], changes: C[]): Promise<boolean[]>;
  /**
   * Group commits it may be handed at once (default 1). The writes of alarm changes must still be
   * stored in the order they are handed over: each was computed on top of the one before.
   */
  readonly concurrentWrites?: number;
}

/**
 * Device telemetry, whatever the transport (the gateway admitted the device): validation,
 * durable storage (group commit, with the alarm changes the readings cause), then the device's
 * current reading and the browsers.
 */
export class TelemetryService<C = unknown> {
  private readonly commits: GroupCommit<ReadingRow, boolean>;

  constructor(
    writer: ReadingsStore<C>,
    private readonly devices: DevicesService,
    private readonly alarms: ReadingAlarms<C>,
    /** Told of every group commit: its readings and how long it took (metrics). */
    observeCommit: (readings: number, seconds: number) => void = () => undefined,
    /**
     * Told of a message's or batch's new readings once committed, late ones too (the live water
     * figures, the overflow events); the answer waits for what it returns, so that whoever sent
     * the readings finds what they decide (an overflow event) when it reads next.
     */
    private readonly stored: (deviceId: string, rows: ReadingRow[]) => void | Promise<void> = () => undefined,
    private readonly levelOf: LevelOf = (_deviceId, _tsMs, sent) => sent,
  ) {
    // One commit holds a group's readings and the alarm changes they cause: both or neither.
    this.commits = new GroupCommit(async (items) => {
      const staged = this.alarms.stageReadings(items);
      try {
        const startedAt = performance.now();
        const fresh = await writer.write(items, staged.changes);
        observeCommit(items.length, (performance.now() - startedAt) / 1000);
        staged.committed();
        return fresh;
      } catch (err) {
        staged.failed(err);
        throw err;
      }
    }, 5000, writer.concurrentWrites ?? 1);
  }

  /** Validates and stores a message or batch; resolves once every accepted reading is committed. */
  async ingest(device: DeviceRecord, body: unknown, receivedMs = Date.now()): Promise<IngestResult> {
    const messages = validateTelemetry(body, device, receivedMs);
    const items = messages.map((m) => this.toStore(device, m, receivedMs));
    markNewest(items);
    const fresh = await this.commits.submit(items);
    const added = items.filter((_, i) => fresh[i]);
    if (added.length > 0) await this.stored(device.id, added);
    this.publishNewest(device.id, items, fresh);
    const accepted = fresh.filter(Boolean).length;
    return { accepted, duplicates: fresh.length - accepted };
  }

  /** A level is stored as a level (what was sent kept beside it where it differs); its status judges the level. */
  private toStore(device: DeviceRecord, m: ValidMessage, receivedMs: number): ReadingRow {
    const row: ReadingRow = { deviceId: device.id, tsMs: m.tsMs, valueNum: null, valueText: m.valueText, status: 'normal', rawNum: null, seq: m.seq, boot: m.boot, receivedMs, fromDevice: true };
    if (m.valueNum === null) {
      row.status = gateStatus(m.valueText!);
      return row;
    }
    const level = this.levelOf(device.id, m.tsMs, m.valueNum);
    row.valueNum = level;
    if (level !== m.valueNum) row.rawNum = m.valueNum;
    row.status = levelStatus(level, levelThresholdsOf(device.settings));
    return row;
  }

  /**
   * A gate judged stuck (travel timeout, docs/protocol.md "Commands") is reported as a fault: a `falla`
   * reading recorded by the server, so the fault shows as the gate's state, in its current
   * reading and in its history. It does not count as hearing the device.
   */
  async recordGateFault(deviceId: string, nowMs = Date.now()): Promise<void> {
    const device = this.devices.get(deviceId);
    if (!device || device.type !== 'motorized_gate') return;
    const item: ReadingRow = { deviceId, tsMs: nowMs, valueNum: null, valueText: 'falla', status: gateStatus('falla'), rawNum: null, seq: null, boot: '', receivedMs: nowMs, fromDevice: false, newestInMessage: true };
    const fresh = await this.commits.submit([item]);
    this.publishNewest(deviceId, [item], fresh);
  }

  /** Only the newest new reading can become current; older ones (late batches) are history. */
  private publishNewest(deviceId: string, items: ReadingRow[], fresh: boolean[]): void {
    let newest: ReadingRow | undefined;
    items.forEach((r, i) => {
      if (fresh[i] && isNewerReading(newest?.tsMs, r.tsMs)) newest = r;
    });
    if (!newest) return;
    this.devices.readingStored(deviceId, { valueNum: newest.valueNum, valueText: newest.valueText, status: newest.status, tsMs: newest.tsMs, rawNum: newest.rawNum });
  }
}

/** Marks the newest reading of a message or batch (one device): alarms are evaluated on it, as on the current reading. */
function markNewest(items: ReadingRow[]): void {
  let newest: ReadingRow | undefined;
  for (const r of items) if (isNewerReading(newest?.tsMs, r.tsMs)) newest = r;
  if (newest) newest.newestInMessage = true;
}
