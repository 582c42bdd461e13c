import type { IngestStore } from '../../storage/ingest/ingest-store';
import type { AlarmChangeRow, ReadingRow } from '../../storage/ingest/rows';
import type { DevicesService } from '../devices/devices.service';
import type { Metrics } from '../metrics/metrics';
import { TelemetryService, type LevelOf, type ReadingAlarms } from './telemetry.service';

export interface TelemetryDeps {
  /** The ingest store (storage/ingest): readings commit there with the alarm changes they cause. */
  writer: IngestStore;
  devices: DevicesService;
  /** The alarm engine, its changes converted into the store's rows (alarms.module). */
  alarms: ReadingAlarms<AlarmChangeRow>;
  metrics: Metrics;
  /** Told of each message's or batch's new readings once committed (the live water figures, the overflow events); awaited before the answer. */
  stored: (deviceId: string, rows: ReadingRow[]) => void | Promise<void>;
  /** A level sensor's value as the level to store (the water feature's calibration). */
  levelOf: LevelOf;
}

export function createTelemetry({ writer, devices, alarms, metrics, stored, levelOf }: TelemetryDeps): TelemetryService<AlarmChangeRow> {
  return new TelemetryService(writer, devices, alarms, (readings, seconds) => metrics.committed(readings, seconds), stored, levelOf);
}
