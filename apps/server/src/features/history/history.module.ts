import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Storage } from '../../storage/storage';
import { readingsAccess } from '../../storage/readings/readings-access';
import { ReadingsRepository } from './readings.repository';
import { HistoryService, type DeviceDirectory } from './history.service';
import { ReadingsRetention } from './retention';

export { RETENTION_EVERY_MS, RETENTION_FIRST_AFTER_MS } from './retention';

export interface HistoryDeps {
  config: Pick<Config, 'retentionDays'>;
  storage: Storage;
  devices: DeviceDirectory;
  log: FastifyBaseLogger;
}

export interface HistoryModule {
  readings: ReadingsRepository;
  /** Charts and exports. */
  service: HistoryService;
  retention: ReadingsRetention;
}

/** Stored readings: read back (charts, exports) and deleted past RETENTION_DAYS. */
export function createHistory({ config, storage, devices, log }: HistoryDeps): HistoryModule {
  const { reader, jsonArray, pruneBefore } = readingsAccess(storage);
  const readings = new ReadingsRepository(storage.db, jsonArray);
  const retention = new ReadingsRetention(readings, { retentionDays: config.retentionDays, log, ...(pruneBefore && { pruneBefore }) });
  return { readings, service: new HistoryService(readings, reader, devices), retention };
}
