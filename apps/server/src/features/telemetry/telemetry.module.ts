import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Storage } from '../../storage/storage';
import type { StorageHealth } from '../../storage/storage-health';
import type { EventBus } from '../../lib/event-bus';
import type { AlarmChange } from '../alarms/alarms.repository';
import type { DevicesService } from '../devices/devices.service';
import type { Metrics } from '../metrics/metrics';
import { PostgresStore } from './postgres-store';
import { ReadingsWriterThread } from './readings-writer.thread';
import type { StoreWriter } from './store-writer';
import { TelemetryService, type ReadingAlarms } from './telemetry.service';

export interface StoreWriterDeps {
  config: Pick<Config, 'retentionDays'>;
  storage: Storage;
  storageHealth: StorageHealth;
  log: FastifyBaseLogger;
}

/**
 * The ingest side's one writer (readings, alarm changes, the outbox), the engine's own way: on
 * SQLite a thread holding the one connection that writes (ADR 009). Built before the features
 * that write through it (alarms, notifications, telemetry).
 */
export function openStoreWriter({ config, storage, storageHealth, log }: StoreWriterDeps): StoreWriter {
  return storage.engine === 'sqlite'
    ? new ReadingsWriterThread(storage.file, storageHealth, log)
    : new PostgresStore(storage.pool, storage.partitions, storageHealth, log, config.retentionDays);
}

export interface TelemetryDeps {
  writer: StoreWriter;
  devices: DevicesService;
  bus: EventBus;
  /** The alarm engine: a commit of readings holds the alarm changes they cause. */
  alarms: ReadingAlarms<AlarmChange>;
  metrics: Metrics;
}

export function createTelemetry({ writer, devices, bus, alarms, metrics }: TelemetryDeps): TelemetryService<AlarmChange> {
  return new TelemetryService(writer, devices, bus, alarms, (readings, seconds) => metrics.committed(readings, seconds));
}
